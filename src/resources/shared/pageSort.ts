import { useMemo, useState } from 'react';
import { useLocaleState, type SortPayload } from 'react-admin';

/** The column a filtered list's page is ordered by (those lists sort the returned page only, as the spec says). */
export interface PageSort<S extends string> {
  field: S;
  order: 'asc' | 'desc';
}

/** Orders a page's rows by one column in the user's locale; null keeps the server's order. */
export type SortRows<Row, S extends string> = (rows: Row[], sort: PageSort<S> | null, locale: string) => Row[];

const UNSORTED: SortPayload = { field: '', order: 'ASC' };

/**
 * The DataTable's sort kept on screen instead of in the list's query: a click on a heading orders the rows of the
 * returned page (ascending first, then the other way) without asking the server again.
 */
export function usePageSort<Row, S extends string>(rows: Row[], sortRows: SortRows<Row, S>) {
  const [sort, setSort] = useState<SortPayload>(UNSORTED);
  const [locale] = useLocaleState();
  const sorted = useMemo(
    () => sortRows(rows, sort.field ? { field: sort.field as S, order: sort.order === 'DESC' ? 'desc' : 'asc' } : null, locale),
    [rows, sort, locale, sortRows],
  );
  return { rows: sorted, sort, setSort };
}
