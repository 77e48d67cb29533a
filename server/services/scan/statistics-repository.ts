import { type RawBuilder, sql } from 'kysely';
import type { AgentStatisticsRow, LocationStatisticsRow, StatisticsQuery } from '../../../src/domain/dashboard';
import type { DataScope } from '../../../src/domain/permissions';
import type { Executor } from '../../db/database';
import { idArray, type ScopeRule, scopePredicate } from '../../lib/resource';
import { scanScope } from '../../lib/scan-scope';
import { endExclusive, instant, SCAN_TIME_ZONE } from './scan-repository';
import type { PeriodRange, StatisticsBy } from './statistics-service';

/** The dashboard statistics' statements: where the bounds fall, and the counts from scan_stats (migration 015) and the cut days' scans. */

const statsScope: ScopeRule = {
  agent: (ids) => sql<boolean>`agent_id = any(${idArray(ids)})`,
  client: (ids) => sql<boolean>`client_id = any(${idArray(ids)})`,
};

const bounds = (f: Pick<StatisticsQuery, 'ts' | 'td'>) => ({ lo: f.ts ? instant(f.ts) : null, hi: f.td ? endExclusive(f.td) : null });

/** The Melbourne days of ts and td (td inclusive), whether each falls on a midnight, and whether the range is empty. */
export async function placeBounds(db: Executor, f: Pick<StatisticsQuery, 'ts' | 'td'>) {
  const { lo, hi } = bounds(f);
  return (
    await sql<{ lo_day: string | null; lo_whole: boolean; hi_day: string | null; hi_whole: boolean; empty: boolean }>`
      with x as (select ${lo ?? sql`null::timestamptz`} as lo, ${hi ?? sql`null::timestamptz`} as hi),
      d as (select lo, hi, (lo at time zone ${SCAN_TIME_ZONE})::date as lo_day,
                   ((hi - '1 microsecond'::interval) at time zone ${SCAN_TIME_ZONE})::date as hi_day from x)
      select lo_day::text, coalesce(lo = (lo_day::timestamp at time zone ${SCAN_TIME_ZONE}), true) as lo_whole,
             hi_day::text, coalesce(hi = ((hi_day + 1)::timestamp at time zone ${SCAN_TIME_ZONE}), true) as hi_whole,
             coalesce(lo >= hi, false) as empty
      from d`.execute(db)
  ).rows[0];
}

/**
 * Scans per agent or location and type in the scope and filters: the buckets of `periods` from scan_stats, plus the
 * scans of each cut day within the bounds. Rows with no scans are left out.
 */
export async function statisticsRows(
  db: Executor,
  scope: DataScope,
  f: StatisticsQuery,
  by: StatisticsBy,
  periods: PeriodRange[],
  cutDays: string[],
): Promise<AgentStatisticsRow[] | LocationStatisticsRow[]> {
  const { lo, hi } = bounds(f);
  const filters: RawBuilder<boolean>[] = [scopePredicate(scope, statsScope)];
  const scanFilters: RawBuilder<boolean>[] = [scopePredicate(scope, scanScope)];
  for (const column of ['agent_id', 'client_id', 'location_id'] as const) {
    const id = f[column];
    if (id === undefined) continue;
    filters.push(sql<boolean>`${sql.ref(column)} = ${id}`);
    scanFilters.push(sql<boolean>`${sql.ref(`s.${column}`)} = ${id}`);
  }
  const where = sql.join(filters, sql` and `);
  const key = by === 'agent' ? sql.ref('agent_id') : sql.ref('location_id');

  const parts: RawBuilder<unknown>[] = periods.map(
    (p) => sql`select ${key} as key, type, n from scan_stats
      where grain = ${p.grain}${p.from ? sql` and period >= ${p.from}::date` : sql``}${p.to ? sql` and period <= ${p.to}::date` : sql``}
        and ${where}`,
  );
  for (const cut of cutDays) {
    const dayBounds = [
      sql<boolean>`s.scanned_at >= (${cut}::date::timestamp at time zone ${SCAN_TIME_ZONE})`,
      sql<boolean>`s.scanned_at < ((${cut}::date + 1)::timestamp at time zone ${SCAN_TIME_ZONE})`,
    ];
    if (lo) dayBounds.push(sql<boolean>`s.scanned_at >= ${lo}`);
    if (hi) dayBounds.push(sql<boolean>`s.scanned_at < ${hi}`);
    const scanKey = by === 'agent' ? sql`s.agent_id` : sql`coalesce(s.location_id, 0)`;
    parts.push(sql`select ${scanKey} as key, s.type, count(*) as n from scans s
      where ${sql.join([...scanFilters, ...dayBounds], sql` and `)} group by 1, 2`);
  }
  if (!parts.length) return [];

  const totals = sql`with f as (${sql.join(parts, sql` union all `)}),
    g as (select key, coalesce(sum(n) filter (where type = 'arch'), 0)::int as arch,
                 coalesce(sum(n) filter (where type = 'chasis'), 0)::int as chasis,
                 coalesce(sum(n) filter (where type = 'tire'), 0)::int as tire
          from f group by key)`;
  if (by === 'agent') {
    const r = await sql<AgentStatisticsRow>`${totals}
      select g.key::int as agent_id, a.name as agent_name, g.arch, g.chasis, g.tire
      from g join agents a on a.id = g.key where g.arch + g.chasis + g.tire > 0 order by a.name, a.id`.execute(db);
    return r.rows;
  }
  const r = await sql<LocationStatisticsRow>`${totals}
    select nullif(g.key, 0)::int as location_id, l.name as location_name, g.arch, g.chasis, g.tire
    from g left join locations l on l.id = g.key where g.arch + g.chasis + g.tire > 0 order by l.name nulls last, g.key`.execute(db);
  return r.rows;
}
