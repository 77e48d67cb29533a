import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { AgentStatisticsRow, LocationStatisticsRow, StatisticsQuery } from '../../../src/domain/dashboard';
import type { DataScope } from '../../../src/domain/permissions';
import { isDateOnly, SCAN_YEARS, scanDate } from '../../../src/domain/scans';
import type { Executor } from '../../db/database';
import { ValidationError } from '../../errors';
import { dataReply, recordErrors } from '../../lib/replies';
import { idArray, type ScopeRule, scopePredicate } from '../../lib/resource';
import { SCAN_TIME_ZONE, scanScope } from './repository';
import { ScanFilterQuery } from './schemas';

/**
 * The dashboard's statistics: scans per agent or per location and type, in the caller's
 * scope narrowed by the X_SNG_* selection and the filters, read from scan_stats (migration 015) and never by walking
 * the scans, except within a day that a bound with a time of day cuts.
 */

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * A bound's Melbourne day and the day after it are counted in four-digit years (the buckets' periods), so the year
 * 9999 itself is refused: with an offset, or a time of day that cuts it, its day reaches the year 10000.
 */
const statisticsDate = (label: string) =>
  scanDate(label).refine((s) => Number(s.slice(0, 4)) < SCAN_YEARS.max, `${label} must be before the year ${SCAN_YEARS.max}`);

export const StatisticsQuerySchema = ScanFilterQuery.pick({ agent_id: true, client_id: true, location_id: true }).extend({
  ts: z.preprocess(blankToUndefined, statisticsDate('Start date').optional()),
  td: z.preprocess(blankToUndefined, statisticsDate('End date').optional()),
});

const counts = { arch: z.number().int(), chasis: z.number().int(), tire: z.number().int() };
const AgentRow = z.object({ agent_id: z.number(), agent_name: z.string(), ...counts });
const LocationRow = z.object({ location_id: z.number().nullable(), location_name: z.string().nullable(), ...counts });

export type Grain = 'd' | 'm' | 'y';
/** Buckets of one grain whose period (first day) lies within [from, to]; null: unbounded on that side. */
export interface PeriodRange {
  grain: Grain;
  from: string | null;
  to: string | null;
}

const day = (s: string) => new Date(`${s}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (s: string, n: number) => {
  const d = day(s);
  d.setUTCDate(d.getUTCDate() + n);
  return iso(d);
};
const monthStart = (s: string) => `${s.slice(0, 7)}-01`;
const addMonths = (s: string, n: number) => {
  const d = day(monthStart(s));
  d.setUTCMonth(d.getUTCMonth() + n);
  return iso(d);
};
const year = (s: string) => Number(s.slice(0, 4));
const pad = (y: number) => String(y).padStart(4, '0');

/** Whole months of [from, to] (both set, from <= to) as month buckets, the days around them as day buckets. */
function monthsAndDays(from: string, to: string): PeriodRange[] {
  const firstMonth = from.endsWith('-01') ? from : addMonths(from, 1);
  const lastMonth = addDays(to, 1).endsWith('-01') ? monthStart(to) : addMonths(to, -1);
  if (firstMonth > lastMonth) return [{ grain: 'd', from, to }];
  const out: PeriodRange[] = [{ grain: 'm', from: firstMonth, to: lastMonth }];
  if (from < firstMonth) out.push({ grain: 'd', from, to: addDays(firstMonth, -1) });
  const afterLast = addMonths(lastMonth, 1);
  if (afterLast <= to) out.push({ grain: 'd', from: afterLast, to });
  return out;
}

/**
 * The fewest buckets covering the whole days [from, to] (null: unbounded): whole years, then whole months, then days.
 * A 30-day range is at most 31 day buckets; any range at most one year range, two month ranges and two day ranges.
 */
export function coveringPeriods(from: string | null, to: string | null): PeriodRange[] {
  if (from !== null && to !== null && from > to) return [];
  const firstYear = from === null ? null : from.endsWith('-01-01') ? year(from) : year(from) + 1;
  const lastYear = to === null ? null : to.endsWith('-12-31') ? year(to) : year(to) - 1;
  if (firstYear !== null && lastYear !== null && firstYear > lastYear) return monthsAndDays(from!, to!);
  const out: PeriodRange[] = [
    { grain: 'y', from: firstYear === null ? null : `${pad(firstYear)}-01-01`, to: lastYear === null ? null : `${pad(lastYear)}-01-01` },
  ];
  if (from !== null && firstYear !== null && from < `${pad(firstYear)}-01-01`)
    out.push(...monthsAndDays(from, `${pad(firstYear - 1)}-12-31`));
  if (to !== null && lastYear !== null && to > `${pad(lastYear)}-12-31`) out.push(...monthsAndDays(`${pad(lastYear + 1)}-01-01`, to));
  return out;
}

const hasOffset = (s: string) => /(Z|[+-]\d{2}:?\d{2})$/.test(s);
/** A bound as an instant: as given with an offset, else a Melbourne wall-clock time (as the scan list reads ts/te). */
const instant = (s: string) =>
  hasOffset(s) ? sql`${s}::timestamptz` : sql`(${s.replace('T', ' ')}::timestamp at time zone ${SCAN_TIME_ZONE})`;
/** td includes its whole day (a date), second (a time with seconds) or minute, as the scan list's te. */
function endExclusive(td: string) {
  if (isDateOnly(td)) return sql`((${td}::date + 1)::timestamp at time zone ${SCAN_TIME_ZONE})`;
  if (hasOffset(td)) return sql`(${td}::timestamptz + '1 microsecond'::interval)`;
  return sql`(${instant(td)} + ${/\d{2}:\d{2}:\d{2}/.test(td) ? '1 second' : '1 minute'}::interval)`;
}

const statsScope: ScopeRule = {
  agent: (ids) => sql<boolean>`agent_id = any(${idArray(ids)})`,
  client: (ids) => sql<boolean>`client_id = any(${idArray(ids)})`,
};

export type StatisticsBy = 'agent' | 'location';

/** The rows of one statistics call, exact, from scan_stats plus the scans of the (at most two) days a bound cuts. */
export async function scanStatistics(db: Executor, scope: DataScope, f: StatisticsQuery, by: 'agent'): Promise<AgentStatisticsRow[]>;
export async function scanStatistics(db: Executor, scope: DataScope, f: StatisticsQuery, by: 'location'): Promise<LocationStatisticsRow[]>;
export async function scanStatistics(db: Executor, scope: DataScope, f: StatisticsQuery, by: StatisticsBy) {
  const lo = f.ts ? instant(f.ts) : null;
  const hi = f.td ? endExclusive(f.td) : null;

  // The Melbourne days of the bounds, and whether each falls on a midnight (a whole day) or within a day.
  let from: string | null = null;
  let to: string | null = null;
  const cutDays: string[] = [];
  if ((!f.ts || isDateOnly(f.ts)) && (!f.td || isDateOnly(f.td))) {
    // Whole Melbourne days (the dashboard's own calls): no round trip to place the bounds.
    if (f.ts && f.td && f.ts > f.td) throw new ValidationError({ td: 'End date must not be before the start date' });
    from = f.ts ?? null;
    to = f.td ?? null;
  } else {
    const b = (
      await sql<{ lo_day: string | null; lo_whole: boolean; hi_day: string | null; hi_whole: boolean; empty: boolean }>`
      with x as (select ${lo ?? sql`null::timestamptz`} as lo, ${hi ?? sql`null::timestamptz`} as hi),
      d as (select lo, hi, (lo at time zone ${SCAN_TIME_ZONE})::date as lo_day,
                   ((hi - '1 microsecond'::interval) at time zone ${SCAN_TIME_ZONE})::date as hi_day from x)
      select lo_day::text, coalesce(lo = (lo_day::timestamp at time zone ${SCAN_TIME_ZONE}), true) as lo_whole,
             hi_day::text, coalesce(hi = ((hi_day + 1)::timestamp at time zone ${SCAN_TIME_ZONE}), true) as hi_whole,
             coalesce(lo >= hi, false) as empty
      from d`.execute(db)
    ).rows[0];
    if (b.empty) throw new ValidationError({ td: 'End date must not be before the start date' });
    from = b.lo_day === null ? null : b.lo_whole ? b.lo_day : addDays(b.lo_day, 1);
    to = b.hi_day === null ? null : b.hi_whole ? b.hi_day : addDays(b.hi_day, -1);
    if (!b.lo_whole) cutDays.push(b.lo_day!);
    if (!b.hi_whole && !cutDays.includes(b.hi_day!)) cutDays.push(b.hi_day!);
  }

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

  const parts: RawBuilder<unknown>[] = coveringPeriods(from, to).map(
    (p) => sql`select ${key} as key, type, n from scan_stats
      where grain = ${p.grain}${p.from ? sql` and period >= ${p.from}::date` : sql``}${p.to ? sql` and period <= ${p.to}::date` : sql``}
        and ${where}`,
  );
  for (const cut of cutDays) {
    const bounds = [
      sql<boolean>`s.scanned_at >= (${cut}::date::timestamp at time zone ${SCAN_TIME_ZONE})`,
      sql<boolean>`s.scanned_at < ((${cut}::date + 1)::timestamp at time zone ${SCAN_TIME_ZONE})`,
    ];
    if (lo) bounds.push(sql<boolean>`s.scanned_at >= ${lo}`);
    if (hi) bounds.push(sql<boolean>`s.scanned_at < ${hi}`);
    const scanKey = by === 'agent' ? sql`s.agent_id` : sql`coalesce(s.location_id, 0)`;
    parts.push(sql`select ${scanKey} as key, s.type, count(*) as n from scans s
      where ${sql.join([...scanFilters, ...bounds], sql` and `)} group by 1, 2`);
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

/**
 * GET scans/agent-statistics and scans/location-statistics: any signed-in user (the dashboard at / needs only a
 * sign-in); the rows stay inside the user's agents and clients, the header selection narrowing.
 */
export function statisticsRoutes(app: FastifyInstance, _opts: unknown, done: () => void) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const description =
    'Scans per type (arch, chasis, tire) in the caller’s scope (their agents or clients; X_SNG_AGENTS / X_SNG_CLIENTS narrow it), ' +
    'filtered by agent_id, client_id, location_id and ts / td (YYYY-MM-DD or YYYY-MM-DD HH:mm:ss, Melbourne time; td inclusive; ' +
    'neither: all time). Rows with no scans are left out.';
  r.get(
    '/scans/agent-statistics',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['Dashboard'],
        summary: 'Scans per agent and type',
        description,
        querystring: StatisticsQuerySchema,
        response: { 200: dataReply(z.array(AgentRow)), ...recordErrors },
      },
    },
    async (req) => ({ data: await scanStatistics(app.db, req.scope, req.query, 'agent') }),
  );
  r.get(
    '/scans/location-statistics',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['Dashboard'],
        summary: 'Scans per location and type (scans without a location: location_id and location_name null)',
        description,
        querystring: StatisticsQuerySchema,
        response: { 200: dataReply(z.array(LocationRow)), ...recordErrors },
      },
    },
    async (req) => ({ data: await scanStatistics(app.db, req.scope, req.query, 'location') }),
  );
  done();
}
