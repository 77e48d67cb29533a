/**
 * A list's advance-filter values as the inputs hold them ('' means "not set") and how they become query parameters
 * (the scan and quote lists). `ts` and `te` are days ('YYYY-MM-DD', Melbourne time; the server includes the end day).
 */
export type FilterValues<K extends string> = Record<K, string>;

export type ListQuery = Record<string, string | number>;

/** What a list shows: page (from 1), rows per page, the search text and the applied filters. */
export interface ListParams<K extends string> {
  page: number;
  perPage: number;
  q: string;
  filters: FilterValues<K>;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const emptyFilters = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, ''])) as FilterValues<K>;

/** Keeps only known, non-blank values (a stored value of another version may hold anything); a backwards range is swapped. */
export function normaliseFilterValues<K extends string>(
  keys: readonly K[],
  values: Partial<Record<K, unknown>> | null | undefined,
): FilterValues<K> {
  const out = emptyFilters(keys);
  for (const key of keys) {
    const v = values?.[key];
    if (typeof v === 'string' || typeof v === 'number') out[key] = String(v).trim();
  }
  const days = out as Partial<Record<string, string>>;
  for (const key of ['ts', 'te'] as const) if (days[key] && !DAY.test(days[key])) days[key] = '';
  if (days.ts && days.te && days.ts > days.te) [days.ts, days.te] = [days.te, days.ts];
  return out;
}

/** The filter's Search is enabled only when some value is set. */
export const hasAnyValue = <K extends string>(keys: readonly K[], filters: FilterValues<K>) => keys.some((key) => filters[key] !== '');

/** The filters and the trimmed search text as query parameters; blanks are left out. */
export function filterQuery<K extends string>(keys: readonly K[], q: string, filters: FilterValues<K>): ListQuery {
  const f = normaliseFilterValues(keys, filters);
  const query: ListQuery = {};
  const search = q.trim();
  if (search) query.q = search;
  for (const key of keys) if (f[key]) query[key] = f[key];
  return query;
}

/** A paged list's query: page and per_page, then the filters. */
export const pagedQuery = <K extends string>(keys: readonly K[], { page, perPage, q, filters }: ListParams<K>): ListQuery => ({
  page: Math.max(1, Math.floor(page)),
  per_page: perPage,
  ...filterQuery(keys, q, filters),
});
