/**
 * An advance filter's values as the inputs hold them ('' means "not set") and how they become the list's filter (the
 * scan and quote lists). `ts` and `te` are days ('YYYY-MM-DD', Melbourne time; the server includes the end day).
 */
export type FilterValues<K extends string> = Record<K, string>;

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

/** The trimmed search text and the filters set, as the list's filter and the export's query; blanks are left out. */
export function filterQuery<K extends string>(
  keys: readonly K[],
  q: unknown,
  filters: Partial<Record<K, unknown>>,
): Record<string, string> {
  const f = normaliseFilterValues(keys, filters);
  const query: Record<string, string> = {};
  const search = typeof q === 'string' ? q.trim() : '';
  if (search) query.q = search;
  for (const key of keys) if (f[key]) query[key] = f[key];
  return query;
}
