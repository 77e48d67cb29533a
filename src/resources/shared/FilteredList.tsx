import type { ReactNode } from 'react';
import { Box, Skeleton, Table, TableBody, TableCell, TableHead, TableRow, TablePagination, Typography } from '@mui/material';
import { ListBase, ListView, SearchInput, TopToolbar, useListContext, useLocaleState, useTranslate } from 'react-admin';
import { PER_PAGE_OPTIONS, SEARCH_DEBOUNCE_MS } from '../../config';
import type { AppDataProvider, ExportQuery, ListMeta } from '../../dataProvider';
import { useSelectedAgent, useSelectedClient } from '../../session';
import { AdvanceFilter, type FilterDescription } from './AdvanceFilter';
import { ListExportButton } from './ListExportButton';
import { LIST_SCROLLER_SX } from './listLayout';

/** The server answers newest first; a heading sorts the page on screen (pageSort.ts), never the query. */
const SERVER_ORDER = { field: '', order: 'ASC' } as const;

interface FilteredListProps<K extends string> {
  resource: 'scans' | 'quotes';
  /** The i18n block: `<messages>.title`, `.search`, `.empty`, `.columns.*`, `.filter.*`, the export's texts. */
  messages: string;
  /** The advance filter's element id is `<id>-advance-filter`. */
  id: string;
  filters: FilterDescription<K>;
  /** Applied when the list opens without a stored state (the quotes' default range). */
  filterDefaultValues?: Partial<Record<K, string>>;
  exportList: (dataProvider: AppDataProvider, query: ExportQuery) => Promise<string>;
  /** Saved export files are named `<filePrefix>-YYYYMMDD-HHmm.<ext>`. */
  filePrefix: string;
  /** The DataTable and the pagination. */
  children: ReactNode;
}

/**
 * A react-admin list with the advance filter above it (the scan and quote lists): title, the filter panel, search and
 * Export, then the table the screen gives. Paging, search and filters live in the list's params (the URL and
 * react-admin's store); the header selection is part of the query's key, so another agent or client fetches again.
 */
export const FilteredList = <K extends string>({
  resource,
  messages,
  id,
  filters,
  filterDefaultValues,
  exportList,
  filePrefix,
  children,
}: FilteredListProps<K>) => {
  const translate = useTranslate();
  const queryOptions = useSelectionQuery();
  return (
    <ListFrame title={translate(`${messages}.title`)}>
      <ListBase
        resource={resource}
        perPage={PER_PAGE_OPTIONS[0]}
        sort={SERVER_ORDER}
        debounce={SEARCH_DEBOUNCE_MS}
        filterDefaultValues={filterDefaultValues}
        queryOptions={queryOptions}
      >
        <AdvanceFilter messages={messages} id={`${id}-advance-filter`} filters={filters} />
        <ListView
          title={false}
          filters={[<SearchInput key="q" source="q" alwaysOn placeholder={translate(`${messages}.search`)} />]}
          actions={
            <TopToolbar>
              <ListExportButton exportList={exportList} keys={filters.keys} filePrefix={filePrefix} messages={messages} />
            </TopToolbar>
          }
          pagination={false}
          empty={false}
          sx={LIST_VIEW_SX}
        >
          {children}
        </ListView>
      </ListBase>
    </ListFrame>
  );
};

/** A wide table scrolls inside its card on a phone instead of widening the page (360 px). */
export const LIST_VIEW_SX = { '& .RaList-main': { minWidth: 0 }, '& .RaList-content': LIST_SCROLLER_SX } as const;

/** A list page: its title as the page's heading, then the list. */
export const ListFrame = ({ title, children }: { title: string; children: ReactNode }) => (
  <Box sx={{ minWidth: 0 }}>
    <Typography component="h1" variant="h6" sx={{ mb: 2 }}>
      {title}
    </Typography>
    {children}
  </Box>
);

/** The header's agent and client selection as a list query's meta: another selection fetches again. */
export const useSelectionQuery = () => {
  const agent = useSelectedAgent();
  const client = useSelectedClient();
  return { meta: { selection: { agent, client } } };
};

/**
 * The filtered lists' pagination: always shown (0-0 of 0 for an empty or failed page), "about N" when the server
 * estimated the total. `total` overrides the list's (the scan list counts live rows).
 */
export const FilteredListPagination = ({ total }: { total?: number }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const list = useListContext();
  const { page, perPage, setPage, setPerPage } = list;
  const count = total ?? list.total ?? 0;
  const estimate = (list.meta as ListMeta | undefined)?.totalIsEstimate === true;
  const number = (n: number) => n.toLocaleString(locale);
  const lastPage = Math.max(1, Math.ceil(count / perPage));
  return (
    <TablePagination
      component="div"
      count={count}
      page={Math.min(page, lastPage) - 1}
      rowsPerPage={perPage}
      rowsPerPageOptions={PER_PAGE_OPTIONS}
      onPageChange={(_, p) => setPage(p + 1)}
      onRowsPerPageChange={(event) => setPerPage(Number(event.target.value))}
      labelRowsPerPage={translate('app.scans.pagination.rows_per_page')}
      // react-admin's own pagination words the arrows so, in the user's language (ra.navigation.next / previous).
      getItemAriaLabel={(type) => translate(`ra.navigation.${type}`, { _: `Go to ${type} page` })}
      labelDisplayedRows={({ from, to, count: all }) =>
        translate(estimate ? 'app.scans.pagination.range_estimate' : 'app.scans.pagination.range', {
          from: number(from),
          to: number(to),
          total: number(all),
        })
      }
      sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end', px: { xs: 1, sm: 2 } } }}
    />
  );
};

/** The empty (or failed) page: still the named table, one row saying `<messages>.empty`. */
export const FilteredListEmpty = ({ messages }: { messages: string }) => {
  const translate = useTranslate();
  return (
    <Table size="small" aria-label={translate(`${messages}.title`)} aria-busy={false}>
      <TableBody>
        <TableRow>
          <TableCell align="center" sx={{ py: 4, color: 'text.secondary', borderBottom: 0 }}>
            {translate(`${messages}.empty`)}
          </TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
};

/**
 * A page while it loads, in place of the DataTable: the heading row and one skeleton row per row of the page, each as
 * tall as a loaded row (or, below 600 px, a card), so the pagination under it is already where the loaded page puts it.
 */
export const FilteredListLoading = ({
  messages,
  columns,
  rowHeight,
  cardHeight,
}: {
  messages: string;
  columns: number;
  rowHeight: number;
  cardHeight: number;
}) => {
  const translate = useTranslate();
  const { perPage } = useListContext();
  const cells = Array.from({ length: columns }, (_, i) => i);
  return (
    <Table size="small" aria-label={translate(`${messages}.title`)} aria-busy>
      <TableHead sx={{ display: { xs: 'none', sm: 'table-header-group' } }}>
        <TableRow>
          {cells.map((i) => (
            <TableCell key={i}>
              <Skeleton />
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {Array.from({ length: perPage }, (_, row) => (
          <TableRow key={row} sx={{ height: { xs: cardHeight, sm: rowHeight } }}>
            {cells.map((i) => (
              // A card is one block: its first cell alone.
              <TableCell key={i} sx={i > 0 ? { display: { xs: 'none', sm: 'table-cell' } } : undefined}>
                <Skeleton />
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
