import { emptyFilters, type FilterValues } from '../../resources/shared/filterValues';

/**
 * The advance filter of the scan list, sent with the search as the query of `GET scans`.
 * Values are kept as the inputs hold them: '' means "not set".
 */
export const FILTER_KEYS = ['ts', 'te', 'status', 'type', 'agent_id', 'client_id', 'location_id', 'new_damage'] as const;
export type ScanFilterKey = (typeof FILTER_KEYS)[number];

/**
 * Start and end day ('YYYY-MM-DD' in Melbourne time; the end day is included by the server), status, type, agent, client,
 * location, and new damage since the vehicle's previous scan ('true' or 'false').
 */
export type ScanFilterValues = FilterValues<ScanFilterKey>;

export const EMPTY_FILTERS: ScanFilterValues = emptyFilters(FILTER_KEYS);
