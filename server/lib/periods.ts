import { type RawBuilder, sql } from 'kysely';
import { DISPLAY_TIME_ZONE } from '../../src/domain/format';
import { isDateOnly } from '../../src/domain/scan-codes';
import type { Executor } from '../db/database';

/**
 * Counts kept per Melbourne day, month and year (scan_stats, approval_stats): which buckets cover a range, and which
 * days a bound with a time of day cuts (those are counted on the rows themselves).
 */

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

/** A range's start and exclusive end as instants (null: unbounded). */
export interface Bounds {
  lo: RawBuilder<unknown> | null;
  hi: RawBuilder<unknown> | null;
}

/** The Melbourne days of lo and hi (hi exclusive), whether each falls on a midnight, and whether the range is empty. */
async function placeBounds(db: Executor, { lo, hi }: Bounds) {
  return (
    await sql<{ lo_day: string | null; lo_whole: boolean; hi_day: string | null; hi_whole: boolean; empty: boolean }>`
      with x as (select ${lo ?? sql`null::timestamptz`} as lo, ${hi ?? sql`null::timestamptz`} as hi),
      d as (select lo, hi, (lo at time zone ${DISPLAY_TIME_ZONE})::date as lo_day,
                   ((hi - '1 microsecond'::interval) at time zone ${DISPLAY_TIME_ZONE})::date as hi_day from x)
      select lo_day::text, coalesce(lo = (lo_day::timestamp at time zone ${DISPLAY_TIME_ZONE}), true) as lo_whole,
             hi_day::text, coalesce(hi = ((hi_day + 1)::timestamp at time zone ${DISPLAY_TIME_ZONE}), true) as hi_whole,
             coalesce(lo >= hi, false) as empty
      from d`.execute(db)
  ).rows[0];
}

/**
 * The buckets covering the whole Melbourne days between `ts` and `td` (td inclusive; dates or wall-clock times), and
 * the days (at most two) that a bound with a time of day cuts; null when the range is empty.
 */
export async function rangeBuckets(
  db: Executor,
  f: { ts?: string; td?: string },
  bounds: Bounds,
): Promise<{ periods: PeriodRange[]; cutDays: string[] } | null> {
  if ((!f.ts || isDateOnly(f.ts)) && (!f.td || isDateOnly(f.td))) {
    // Whole Melbourne days (the dashboard's own calls): no round trip to place the bounds.
    if (f.ts && f.td && f.ts > f.td) return null;
    return { periods: coveringPeriods(f.ts ?? null, f.td ?? null), cutDays: [] };
  }
  const b = await placeBounds(db, bounds);
  if (b.empty) return null;
  const cutDays: string[] = [];
  const from = b.lo_day === null ? null : b.lo_whole ? b.lo_day : addDays(b.lo_day, 1);
  const to = b.hi_day === null ? null : b.hi_whole ? b.hi_day : addDays(b.hi_day, -1);
  if (!b.lo_whole) cutDays.push(b.lo_day!);
  if (!b.hi_whole && !cutDays.includes(b.hi_day!)) cutDays.push(b.hi_day!);
  return { periods: coveringPeriods(from, to), cutDays };
}

/** The predicate of one covering range on a stats table's grain and period. */
export const periodPredicate = (p: PeriodRange) =>
  sql<boolean>`grain = ${p.grain}${p.from ? sql` and period >= ${p.from}::date` : sql``}${p.to ? sql` and period <= ${p.to}::date` : sql``}`;

/** The predicate keeping `column` (an instant) within one Melbourne day `cut` and the bounds. */
export function cutDayPredicate(column: RawBuilder<unknown>, cut: string, { lo, hi }: Bounds) {
  const parts = [
    sql<boolean>`${column} >= (${cut}::date::timestamp at time zone ${DISPLAY_TIME_ZONE})`,
    sql<boolean>`${column} < ((${cut}::date + 1)::timestamp at time zone ${DISPLAY_TIME_ZONE})`,
  ];
  if (lo) parts.push(sql<boolean>`${column} >= ${lo}`);
  if (hi) parts.push(sql<boolean>`${column} < ${hi}`);
  return sql.join(parts, sql` and `);
}
