import { emptyFilters, pagedQuery, type FilterValues, type ListParams, type ListQuery } from '../../components/list/filterValues';

/**
 * The advance filter of the scan list and how it becomes the query of `GET scans`.
 * Values are kept as the inputs hold them: '' means "not set".
 */
export const FILTER_KEYS = ['ts', 'te', 'status', 'type', 'agent_id', 'client_id', 'location_id'] as const;

/** Start and end day ('YYYY-MM-DD' in Melbourne time; the end day is included by the server), status, type, agent, client, location. */
export type ScanFilterValues = FilterValues<(typeof FILTER_KEYS)[number]>;

export const EMPTY_FILTERS: ScanFilterValues = emptyFilters(FILTER_KEYS);

/** What the list shows: page (from 1), rows per page, the search text and the applied filters. */
export type ScanListParams = ListParams<(typeof FILTER_KEYS)[number]>;

/** `GET scans`: page and per_page, the trimmed search, then the filters set. */
export const toListQuery = (params: ScanListParams): ListQuery => pagedQuery(FILTER_KEYS, params);
