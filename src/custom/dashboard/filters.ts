import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { localDate } from '../../domain/format';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The dashboard's advance filter as the inputs hold it: ids as strings, dates 'YYYY-MM-DD' (Melbourne), '' for none. */
export interface DashboardFilterValues {
  agent_id: string;
  client_id: string;
  location_id: string;
  ts: string;
  td: string;
}

export const EMPTY_DASHBOARD_FILTERS: DashboardFilterValues = { agent_id: '', client_id: '', location_id: '', ts: '', td: '' };

/** Today in Melbourne, 'YYYY-MM-DD'. */
export const melbourneToday = (now: Date = new Date()) => localDate(now)!;

/** Search is enabled only with something set, and a date filter needs both dates. */
export function canSearch(f: DashboardFilterValues): boolean {
  if (!!f.ts !== !!f.td) return false;
  return !!(f.agent_id || f.client_id || f.location_id || (f.ts && f.td));
}

export const hasAnyFilter = (f: DashboardFilterValues) => Object.values(f).some((v) => v !== '');

/**
 * The statistics query for the applied filters: the chosen days, or today when no range is chosen (the heading then
 * reads "Today's Scans").
 */
export function statisticsQuery(f: DashboardFilterValues, today: string): Record<string, string> {
  const q: Record<string, string> = {};
  if (f.agent_id) q.agent_id = f.agent_id;
  if (f.client_id) q.client_id = f.client_id;
  if (f.location_id) q.location_id = f.location_id;
  const range = f.ts && f.td;
  q.ts = range ? f.ts : today;
  q.td = range ? f.td : today;
  return q;
}

/** What a live scan event carries that decides whether the charts change. */
export interface ScanEventFields {
  [field: string]: unknown;
  agent_id?: unknown;
  client_id?: unknown;
  location_id?: unknown;
  timestamp?: unknown;
}

/**
 * Would this scan count in the charts on screen? Inside the header selection (the server already keeps the channel to
 * the user's scope), the applied filters and the shown days (Melbourne).
 */
export function countsOnScreen(
  scan: ScanEventFields,
  query: Record<string, string>,
  selection: { agents: number[] | null; clients: number[] | null },
): boolean {
  const same = (v: unknown, id: string | undefined) => id === undefined || String(v) === id;
  if (selection.agents && !selection.agents.includes(Number(scan.agent_id))) return false;
  if (selection.clients && !selection.clients.includes(Number(scan.client_id))) return false;
  if (!same(scan.agent_id, query.agent_id) || !same(scan.client_id, query.client_id) || !same(scan.location_id, query.location_id))
    return false;
  const day = localDate(scan.timestamp as string | undefined);
  if (!day) return true;
  return (!query.ts || day >= query.ts) && (!query.td || day <= query.td);
}
