import { toCents } from '../../domain/money';
import type { QuoteListRow } from '../../domain/quotes';
import type { Wire } from '../../domain/records';
import type { PageSort } from '../../resources/shared/pageSort';

/** A row of `GET quotes` as the browser reads it: the domain's record (src/domain/quotes.ts), dates as strings. */
export type QuoteRow = Wire<QuoteListRow>;

/** The money columns of the list: the product's order, with Scratch / Paint and Tyres after the dent repair types. */
export const MONEY_COLUMNS = ['pdr', 'conventional', 'replacement', 'p2p', 'paint', 'tyre', 'product'] as const;

/** Columns the list sorts (client-side, the rows of the page). */
export const QUOTE_SORT_COLUMNS = ['created_at', 'licensePlate', ...MONEY_COLUMNS, 'tax_percent', 'grant_total'] as const;
export type QuoteSortColumn = (typeof QUOTE_SORT_COLUMNS)[number];
export type QuoteSort = PageSort<QuoteSortColumn>;

const isBlank = (v: unknown) => v === null || v === undefined || v === '';

/** Orders the page's rows by one column: amounts as numbers, dates by time, registrations by the locale; blanks last. */
export function sortQuoteRows(rows: readonly QuoteRow[], sort: QuoteSort | null, locale = 'en'): QuoteRow[] {
  if (!sort) return [...rows];
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const direction = sort.order === 'desc' ? -1 : 1;
  const key = (row: QuoteRow): number | string | null => {
    const v = row[sort.field];
    if (isBlank(v)) return null;
    if (sort.field === 'licensePlate') return String(v);
    if (sort.field === 'created_at') return Date.parse(String(v));
    return Number(v);
  };
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === null || y === null || Number.isNaN(x) || Number.isNaN(y)) {
      const blankX = x === null || Number.isNaN(x);
      const blankY = y === null || Number.isNaN(y);
      return blankX === blankY ? 0 : blankX ? 1 : -1;
    }
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
    return order * direction;
  });
}

/** A wire amount (decimal currency units) in cents for display; a missing one is 0. */
export const amountCents = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? toCents(v) : 0);
