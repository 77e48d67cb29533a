import { emptyFilters, type FilterValues } from '../../resources/shared/filterValues';
import { localDate } from '../../domain/format';

/**
 * The quote list's advance filter (Quote filter), sent with the search as the query of `GET quotes`: start and end
 * day, type, agent, client and location state.
 */
export const QUOTE_FILTER_KEYS = ['ts', 'te', 'type', 'agent_id', 'client_id', 'location_state'] as const;
export type QuoteFilterKey = (typeof QUOTE_FILTER_KEYS)[number];
type QuoteFilterValues = FilterValues<QuoteFilterKey>;

export const EMPTY_QUOTE_FILTERS: QuoteFilterValues = emptyFilters(QUOTE_FILTER_KEYS);

const DAY_MS = 86_400_000;

/**
 * The default range is from now to 2 days later, as days in Melbourne (the list's days): today to the
 * day after tomorrow, the end day included.
 */
export const defaultQuoteFilters = (now = new Date()): QuoteFilterValues => ({
  ...EMPTY_QUOTE_FILTERS,
  ts: localDate(now) ?? '',
  te: localDate(now.getTime() + 2 * DAY_MS) ?? '',
});
