import { type RawBuilder, sql } from 'kysely';
import type { AgentStatisticsRow, LocationStatisticsRow, StatisticsQuery } from '../../../src/domain/dashboard';
import type { DataScope } from '../../../src/domain/permissions';
import type { Executor } from '../../db/database';
import { idArray, type ScopeRule, scopePredicate } from '../../lib/resource';
import { scanScope } from '../../lib/scan-scope';
import { type Bounds, cutDayPredicate, type PeriodRange, periodPredicate } from '../../lib/periods';
import { endExclusive, instant } from './scan-repository';
import type { StatisticsBy } from './statistics-service';

/** The dashboard statistics' statements: the counts from scan_stats (migration 015) and the cut days' scans. */

const statsScope: ScopeRule = {
  agent: (ids) => sql<boolean>`agent_id = any(${idArray(ids)})`,
  client: (ids) => sql<boolean>`client_id = any(${idArray(ids)})`,
};

/** The range's instants: `ts` as given, `td` inclusive (the scan list's own bounds). */
export const statisticsBounds = (f: Pick<StatisticsQuery, 'ts' | 'td'>): Bounds => ({
  lo: f.ts ? instant(f.ts) : null,
  hi: f.td ? endExclusive(f.td) : null,
});

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
  const bounds = statisticsBounds(f);
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
    (p) => sql`select ${key} as key, type, n from scan_stats where ${periodPredicate(p)} and ${where}`,
  );
  for (const cut of cutDays) {
    const scanKey = by === 'agent' ? sql`s.agent_id` : sql`coalesce(s.location_id, 0)`;
    parts.push(sql`select ${scanKey} as key, s.type, count(*) as n from scans s
      where ${sql.join([...scanFilters, cutDayPredicate(sql`s.scanned_at`, cut, bounds)], sql` and `)} group by 1, 2`);
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
