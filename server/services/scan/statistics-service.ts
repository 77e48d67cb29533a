import type { AgentStatisticsRow, LocationStatisticsRow, StatisticsQuery } from '../../../src/domain/dashboard';
import { isDateOnly } from '../../../src/domain/scans';
import { ValidationError } from '../../errors';
import type { Caller } from '../../lib/caller';
import type { ScanDeps } from './shared';
import { placeBounds, statisticsRows } from './statistics-repository';

/**
 * The dashboard's statistics: scans per agent or per location and type, in the caller's
 * scope narrowed by the X_SNG_* selection and the filters, read from scan_stats (migration 015) and never by walking
 * the scans, except within a day that a bound with a time of day cuts.
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

export type StatisticsBy = 'agent' | 'location';

/** The dashboard's statistics for a caller: the rows of one call, exact, from the buckets plus the scans of the (at most two) days a bound cuts. */
export function scanStatisticsService(deps: Pick<ScanDeps, 'db'>) {
  const { db } = deps;
  async function rows(caller: Pick<Caller, 'scope'>, f: StatisticsQuery, by: 'agent'): Promise<AgentStatisticsRow[]>;
  async function rows(caller: Pick<Caller, 'scope'>, f: StatisticsQuery, by: 'location'): Promise<LocationStatisticsRow[]>;
  async function rows(caller: Pick<Caller, 'scope'>, f: StatisticsQuery, by: StatisticsBy) {
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
      const b = await placeBounds(db, f);
      if (b.empty) throw new ValidationError({ td: 'End date must not be before the start date' });
      from = b.lo_day === null ? null : b.lo_whole ? b.lo_day : addDays(b.lo_day, 1);
      to = b.hi_day === null ? null : b.hi_whole ? b.hi_day : addDays(b.hi_day, -1);
      if (!b.lo_whole) cutDays.push(b.lo_day!);
      if (!b.hi_whole && !cutDays.includes(b.hi_day!)) cutDays.push(b.hi_day!);
    }
    return statisticsRows(db, caller.scope, f, by, coveringPeriods(from, to), cutDays);
  }
  return { rows };
}
