import { localDate } from '../../domain/format';
import { normalisePlate, SCAN_STATUSES } from '../../domain/scan-codes';
import type { ScanFilterValues } from './filters';
import { RESOURCES } from '../../domain/resources';
import type { ScanItem } from '../../domain/records';
import type { PageSort } from '../../resources/shared/pageSort';

/** A list row as the server sends it (the domain's record, src/domain/records.ts); events carry the same fields. */
export type ScanRow = ScanItem;

/** The page on screen: the server's rows with live events applied, the total, and whether the server counted "about" it. */
export interface LivePage {
  rows: ScanRow[];
  total: number;
  estimate: boolean;
}

/** What decides whether a new scan belongs on the page: paging, search, filters and the header selection. */
export interface LiveContext {
  page: number;
  perPage: number;
  q: string;
  filters: ScanFilterValues;
  /** The header's agent / client selection (X_SNG_*); null means all the user may see. */
  agents: number[] | null;
  clients: number[] | null;
}

export type LiveAction =
  | { type: 'loaded'; rows: ScanRow[]; total: number; estimate: boolean }
  | { type: 'failed' }
  | { type: 'created'; scan: ScanRow; context: LiveContext }
  /** An update event may carry only the fields it changed; the row keeps the rest. */
  | { type: 'updated'; scan: Partial<ScanRow> & Pick<ScanRow, 'id'> };

export const EMPTY_PAGE: LivePage = { rows: [], total: 0, estimate: false };

const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : '');
const sameId = (a: unknown, b: string) => (typeof a === 'number' || typeof a === 'string') && String(a) === b;

/**
 * The server's search (server/services/scan/list-repository.ts scanSelection) on one row: a registration,
 * make or model starting with the text, or a client or agent name containing it.
 */
export function matchesSearch(scan: ScanRow, q: string): boolean {
  const text = q.trim().toLowerCase();
  if (!text) return true;
  const plate = normalisePlate(q.trim()).toLowerCase();
  return (
    (!!plate && lower(scan.licensePlate).startsWith(plate)) ||
    lower(scan.make).startsWith(text) ||
    lower(scan.model).startsWith(text) ||
    lower(scan.client_name).includes(text) ||
    lower(scan.agent_name).includes(text)
  );
}

/** Would `GET scans` with these filters, search and header selection return this row? */
export function matchesContext(scan: ScanRow, { q, filters, agents, clients }: Omit<LiveContext, 'page' | 'perPage'>): boolean {
  if (agents && !agents.includes(Number(scan.agent_id))) return false;
  if (clients && !clients.includes(Number(scan.client_id))) return false;
  if (filters.agent_id && !sameId(scan.agent_id, filters.agent_id)) return false;
  if (filters.client_id && !sameId(scan.client_id, filters.client_id)) return false;
  if (filters.location_id && !sameId(scan.location_id, filters.location_id)) return false;
  if (filters.status && lower(scan.status) !== filters.status.toLowerCase()) return false;
  if (filters.type && lower(scan.type) !== filters.type.toLowerCase()) return false;
  if (filters.ts || filters.te) {
    const day = localDate(scan.timestamp);
    if (!day || (filters.ts && day < filters.ts) || (filters.te && day > filters.te)) return false;
  }
  return matchesSearch(scan, q);
}

/**
 * Live rows. `created`: a scan the list would show goes on top of page 1 (the newest come
 * first), the last row dropping off to keep the page size, and the total counts it on any page; a scan
 * already on the page is replaced instead (an event may race the reload). `updated`: the row with that
 * id is replaced in place with the new fields; a scan not on the page is ignored.
 */
export function liveRowsReducer(state: LivePage, action: LiveAction): LivePage {
  switch (action.type) {
    case 'loaded':
      return { rows: action.rows, total: action.total, estimate: action.estimate };
    case 'failed':
      // A failed load empties the table, total 0.
      return EMPTY_PAGE;
    case 'updated':
    case 'created': {
      const index = state.rows.findIndex((row) => row.id === action.scan.id);
      if (index >= 0) {
        const rows = [...state.rows];
        rows[index] = { ...rows[index], ...action.scan };
        return { ...state, rows };
      }
      if (action.type === 'updated' || !matchesContext(action.scan, action.context)) return state;
      const total = state.total + 1;
      if (action.context.page !== 1) return { ...state, total };
      return { ...state, rows: [action.scan, ...state.rows].slice(0, action.context.perPage), total };
    }
    default:
      return state;
  }
}

// ---- Client-side sorting of the page ----

/** Columns the user may sort (the resource table's); Date/Time and Action are not sortable. */
export const SORTABLE_COLUMNS = RESOURCES.scans.sortable;
export type SortColumn = (typeof SORTABLE_COLUMNS)[number];
export type RowSort = PageSort<SortColumn>;

const statusOrder = (v: unknown) => {
  const i = SCAN_STATUSES.findIndex((s) => s.id === lower(v));
  return i < 0 ? SCAN_STATUSES.length : i;
};

/**
 * Sorting orders the returned page only, not the whole result (the server always answers
 * newest first). Blank values go last either way; status follows its life cycle (metadata, ready, uploaded).
 */
export function sortRows(rows: ScanRow[], sort: RowSort | null, locale = 'en'): ScanRow[] {
  if (!sort) return rows;
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const direction = sort.order === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = a[sort.field];
    const y = b[sort.field];
    const blankX = x === null || x === undefined || x === '';
    const blankY = y === null || y === undefined || y === '';
    if (blankX || blankY) return blankX === blankY ? 0 : blankX ? 1 : -1;
    if (sort.field === 'status') return (statusOrder(x) - statusOrder(y)) * direction;
    return collator.compare(String(x), String(y)) * direction;
  });
}
