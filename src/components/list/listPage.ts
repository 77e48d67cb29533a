/**
 * What the filtered lists (scans, quotes) show of a server page, and how a column sorts it: plain TypeScript, no React.
 */

/** A page on screen: the server's rows, the total, and whether the server counted "about" this many. */
export interface ListPage<Row> {
  rows: Row[];
  total: number;
  /** The server counted "about" this many (beyond its exact-count limit). */
  estimate: boolean;
}

export const EMPTY_LIST_PAGE: ListPage<never> = { rows: [], total: 0, estimate: false };

/** `{items, total, total_is_estimate}` of a list route as a page (an estimate reads "about N"); anything else is an empty one. */
export function toListPage<Row extends { id: unknown }>(reply: unknown): ListPage<Row> {
  const r = (typeof reply === 'object' && reply !== null ? reply : {}) as { items?: unknown; total?: unknown; total_is_estimate?: unknown };
  const rows = Array.isArray(r.items)
    ? (r.items as unknown[]).filter((row): row is Row => typeof row === 'object' && row !== null && 'id' in row)
    : [];
  const total = Number(r.total);
  return { rows, total: Number.isFinite(total) ? total : rows.length, estimate: r.total_is_estimate === true };
}

/** The column the page is ordered by (the lists sort the returned page only). */
export interface ListSort<S extends string> {
  field: S;
  order: 'asc' | 'desc';
}

/** A click on a column heading: ascending first, then the other way. */
export const nextSort = <S extends string>(current: ListSort<S> | null, field: S): ListSort<S> =>
  current?.field === field ? { field, order: current.order === 'asc' ? 'desc' : 'asc' } : { field, order: 'asc' };
