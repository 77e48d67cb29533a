import {
  emptyFilters,
  filterQuery,
  hasAnyValue,
  normaliseFilterValues,
  pagedQuery,
  type FilterValues,
  type ListParams,
  type ListQuery,
} from '../../components/list/filterValues';

/**
 * The advance filter of the scan list and how it becomes the query of
 * `GET scans` and `GET scans/export-scan-report`. Values are kept as the inputs hold
 * them: '' means "not set".
 */
export const FILTER_KEYS = ['ts', 'te', 'status', 'type', 'agent_id', 'client_id', 'location_id'] as const;

/** Start and end day ('YYYY-MM-DD' in Melbourne time; the end day is included by the server), status, type, agent, client, location. */
export type ScanFilterValues = FilterValues<(typeof FILTER_KEYS)[number]>;

export const EMPTY_FILTERS: ScanFilterValues = emptyFilters(FILTER_KEYS);

/** What the list shows: page (from 1), rows per page, the search text and the applied filters. */
export type ScanListParams = ListParams<(typeof FILTER_KEYS)[number]>;

export type ScanQuery = ListQuery;

/** Keeps only known, non-blank values (a stored value of another version may hold anything). */
export const normaliseFilters = (values: Partial<Record<keyof ScanFilterValues, unknown>> | null | undefined): ScanFilterValues =>
  normaliseFilterValues(FILTER_KEYS, values);

/** The filter's Search is enabled only when some value is set. */
export const hasFilterValue = (filters: ScanFilterValues) => hasAnyValue(FILTER_KEYS, filters);

/** The filters and the trimmed search text as query parameters; blanks are left out. */
export const toFilterQuery = (q: string, filters: ScanFilterValues): ScanQuery => filterQuery(FILTER_KEYS, q, filters);

/** `GET scans`: page and per_page, then the filters. */
export const toListQuery = (params: ScanListParams): ScanQuery => pagedQuery(FILTER_KEYS, params);

/** `GET scans/export-scan-report`: the same filters and search as the list, without paging. */
export const toExportQuery = ({ q, filters }: Pick<ScanListParams, 'q' | 'filters'>): ScanQuery => toFilterQuery(q, filters);
