/**
 * The advance filter of the scan list (spec 2 §2) and how it becomes the query of
 * `GET scans` and `GET scans/export-scan-report` (spec 2 §7). Values are kept as the inputs hold
 * them: '' means "not set".
 */
export interface ScanFilterValues {
  /** Start and end day, 'YYYY-MM-DD' in Melbourne time; the end day is included by the server. */
  ts: string;
  te: string;
  status: string;
  type: string;
  agent_id: string;
  client_id: string;
  location_id: string;
}

export const FILTER_KEYS = [
  'ts',
  'te',
  'status',
  'type',
  'agent_id',
  'client_id',
  'location_id',
] as const satisfies readonly (keyof ScanFilterValues)[];

export const EMPTY_FILTERS: ScanFilterValues = { ts: '', te: '', status: '', type: '', agent_id: '', client_id: '', location_id: '' };

/** What the list shows: page (from 1), rows per page, the search text and the applied filters. */
export interface ScanListParams {
  page: number;
  perPage: number;
  q: string;
  filters: ScanFilterValues;
}

export type ScanQuery = Record<string, string | number>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Keeps only known, non-blank values (a stored value of another version may hold anything). */
export function normaliseFilters(values: Partial<Record<keyof ScanFilterValues, unknown>> | null | undefined): ScanFilterValues {
  const out: ScanFilterValues = { ...EMPTY_FILTERS };
  for (const key of FILTER_KEYS) {
    const v = values?.[key];
    if (typeof v === 'string' || typeof v === 'number') out[key] = String(v).trim();
  }
  if (out.ts && !DAY.test(out.ts)) out.ts = '';
  if (out.te && !DAY.test(out.te)) out.te = '';
  // A range typed backwards means the same days.
  if (out.ts && out.te && out.ts > out.te) [out.ts, out.te] = [out.te, out.ts];
  return out;
}

/** Spec 2 §2: the filter's Search is enabled only when some value is set. */
export const hasFilterValue = (filters: ScanFilterValues) => FILTER_KEYS.some((key) => filters[key] !== '');

/** The filters and the trimmed search text as query parameters; blanks are left out. */
export function toFilterQuery(q: string, filters: ScanFilterValues): ScanQuery {
  const f = normaliseFilters(filters);
  const query: ScanQuery = {};
  const search = q.trim();
  if (search) query.q = search;
  for (const key of FILTER_KEYS) if (f[key]) query[key] = f[key];
  return query;
}

/** `GET scans`: page and per_page, then the filters. */
export const toListQuery = ({ page, perPage, q, filters }: ScanListParams): ScanQuery => ({
  page: Math.max(1, Math.floor(page)),
  per_page: perPage,
  ...toFilterQuery(q, filters),
});

/** `GET scans/export-scan-report`: the same filters and search as the list, without paging. */
export const toExportQuery = ({ q, filters }: Pick<ScanListParams, 'q' | 'filters'>): ScanQuery => toFilterQuery(q, filters);
