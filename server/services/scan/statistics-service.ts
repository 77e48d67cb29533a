import type { AgentStatisticsRow, LocationStatisticsRow, StatisticsQuery } from '../../../src/domain/dashboard';
import { ValidationError } from '../../errors';
import type { Caller } from '../../lib/caller';
import type { ScanDeps } from './shared';
import { rangeBuckets } from '../../lib/periods';
import { statisticsBounds, statisticsRows } from './statistics-repository';

/**
 * The dashboard's statistics: scans per agent or per location and type, in the caller's
 * scope narrowed by the X_SNG_* selection and the filters, read from scan_stats (migration 015) and never by walking
 * the scans, except within a day that a bound with a time of day cuts.
 */

export type StatisticsBy = 'agent' | 'location';

/** The dashboard's statistics for a caller: the rows of one call, exact, from the buckets plus the scans of the (at most two) days a bound cuts. */
export function scanStatisticsService(deps: Pick<ScanDeps, 'db'>) {
  const { db } = deps;
  async function rows(caller: Pick<Caller, 'scope'>, f: StatisticsQuery, by: 'agent'): Promise<AgentStatisticsRow[]>;
  async function rows(caller: Pick<Caller, 'scope'>, f: StatisticsQuery, by: 'location'): Promise<LocationStatisticsRow[]>;
  async function rows(caller: Pick<Caller, 'scope'>, f: StatisticsQuery, by: StatisticsBy) {
    const buckets = await rangeBuckets(db, f, statisticsBounds(f));
    if (!buckets) throw new ValidationError({ td: 'End date must not be before the start date' });
    return statisticsRows(db, caller.scope, f, by, buckets.periods, buckets.cutDays);
  }
  return { rows };
}
