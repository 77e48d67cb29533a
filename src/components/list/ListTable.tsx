import type { ReactNode } from 'react';
import { Box, Skeleton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TableSortLabel } from '@mui/material';
import { useLocaleState, useTranslate, type Identifier, type TranslateFunction } from 'react-admin';
import type { ListSort } from './listPage';

/** 11 placeholder rows while loading. */
export const SKELETON_ROWS = 11;

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** One column of a list table; its heading is `<messages>.columns.<key>`. */
export interface ListColumn<Row> {
  key: string;
  source: keyof Row & string;
  align?: 'left' | 'right';
  /** Short values that read badly broken over lines (a date, a chip, an amount). */
  noWrap?: boolean;
  /** The cell; by default the value as text. */
  render?: (row: Row, context: { translate: TranslateFunction; locale: string }) => ReactNode;
}

/** What a list's table shows: its columns, those a click on the heading sorts, its width before it scrolls, the row actions. */
export interface TableDescription<Row, S extends string> {
  columns: readonly ListColumn<Row>[];
  sortable: readonly S[];
  minWidth: number;
  /** The Action column's buttons for one row. */
  actions: (row: Row) => ReactNode;
}

interface ListTableProps<Row, S extends string> extends TableDescription<Row, S> {
  /** The list's i18n block: `<messages>.title` (the table's name), `.columns.*`, `.empty`. */
  messages: string;
  /** The skeleton rows' test id is `<id>-skeleton-row`. */
  id: string;
  rows: readonly Row[];
  loading: boolean;
  sort: ListSort<S> | null;
  onSort: (field: S) => void;
}

/** A list's table: a header that sorts the page, skeleton rows while loading, the empty text, the row actions. */
export const ListTable = <Row extends { id: Identifier }, S extends string>({
  messages,
  id,
  columns,
  sortable,
  minWidth,
  actions,
  rows,
  loading,
  sort,
  onSort,
}: ListTableProps<Row, S>) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const columnCount = columns.length + 1;
  const sortField = (source: string) => ((sortable as readonly string[]).includes(source) ? (source as S) : null);
  return (
    // Wide tables scroll inside their paper on a phone rather than the page.
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" sx={{ minWidth }} aria-label={translate(`${messages}.title`)} aria-busy={loading}>
        <TableHead>
          <TableRow>
            {columns.map(({ key, source }) => {
              const label = translate(`${messages}.columns.${key}`);
              const field = sortField(source);
              if (field === null)
                return (
                  <TableCell key={key} sx={{ whiteSpace: 'nowrap' }}>
                    {label}
                  </TableCell>
                );
              const active = sort?.field === field;
              return (
                <TableCell key={key} sortDirection={active ? sort.order : false} sx={{ whiteSpace: 'nowrap' }}>
                  <TableSortLabel active={active} direction={active ? sort.order : 'asc'} onClick={() => onSort(field)}>
                    {label}
                  </TableSortLabel>
                </TableCell>
              );
            })}
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {translate(`${messages}.columns.action`)}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {loading &&
            Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <TableRow key={`skeleton-${i}`} data-testid={`${id}-skeleton-row`}>
                {Array.from({ length: columnCount }, (__, j) => (
                  <TableCell key={j}>
                    <Skeleton variant="text" />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          {!loading && rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={columnCount} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                {translate(`${messages}.empty`)}
              </TableCell>
            </TableRow>
          )}
          {!loading &&
            rows.map((row) => (
              <TableRow key={row.id} hover>
                {columns.map(({ key, source, align, noWrap, render }) => (
                  <TableCell key={key} align={align} sx={{ whiteSpace: noWrap ? 'nowrap' : undefined }}>
                    {render ? render(row, { translate, locale }) : text(row[source])}
                  </TableCell>
                ))}
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Box sx={{ display: 'inline-flex' }}>{actions(row)}</Box>
                </TableCell>
              </TableRow>
            ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
