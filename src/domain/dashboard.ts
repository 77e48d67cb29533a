/**
 * The dashboard's statistics (the "Statistics row"), as `GET scans/agent-statistics` and
 * `GET scans/location-statistics` send them and the dashboard reads them. Plain types, no zod: the browser imports it.
 */

/** Scans per device type; a scan counts under its own type. */
export interface TypeCounts {
  arch: number;
  chasis: number;
  tire: number;
}

export interface AgentStatisticsRow extends TypeCounts {
  agent_id: number;
  agent_name: string;
}

/** Scans without a location (a manual scan) come as one row with `location_id` and `location_name` null. */
export interface LocationStatisticsRow extends TypeCounts {
  location_id: number | null;
  location_name: string | null;
}

/** The query both take (`ts` and `td`, start and end, YYYY-MM-DD or YYYY-MM-DD HH:mm:ss, Melbourne time, td inclusive). */
export interface StatisticsQuery {
  agent_id?: number;
  client_id?: number;
  location_id?: number;
  ts?: string;
  td?: string;
}

export const STATISTICS_SERIES = ['arch', 'chasis', 'tire'] as const;

/** Median and 90th percentile of a duration, in seconds; null without an answered link. */
export interface DurationFigures {
  median_seconds: number | null;
  p90_seconds: number | null;
}

/**
 * The dashboard's approval figures (`GET quotes/approval-statistics`) for the links sent in the range: how many were
 * sent, answered (approved, partially approved, declined) and left to expire; how long from the scan, and from the
 * sending, to an approval (approved or partially approved).
 */
export interface ApprovalStatistics {
  sent: number;
  approved: number;
  partially_approved: number;
  declined: number;
  expired: number;
  scan_to_approval: DurationFigures;
  send_to_approval: DurationFigures;
}
