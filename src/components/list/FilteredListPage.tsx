import { useEffect, useMemo, useState } from 'react';
import { Box, LinearProgress, Paper, TablePagination, Typography } from '@mui/material';
import { useLocaleState, useTranslate, type Identifier } from 'react-admin';
import { PER_PAGE_OPTIONS } from '../../config';
import type { Service } from '../../dataProvider';
import { AdvanceFilter, type FilterDescription } from './AdvanceFilter';
import { ExportButton } from './ExportButton';
import { emptyFilters, filterQuery, type FilterValues, type ListParams } from './filterValues';
import { nextSort, type ListPage, type ListSort } from './listPage';
import { ListTable, type TableDescription } from './ListTable';
import { SearchBox } from './SearchBox';

/**
 * A filtered list screen (the scan list, the quotes list) as data: its texts, advance filter,
 * export route, table and how the page's rows sort. The screen keeps only what fetches its rows.
 */
export interface ListDescription<K extends string, Row, S extends string> {
  /** The i18n block: `<messages>.title`, `.search`, `.exporting`, `.empty`, `.columns.*`, `.filter.*`, the export's texts. */
  messages: string;
  /** Element ids: `<id>-advance-filter`, `<id>-skeleton-row`. */
  id: string;
  filters: FilterDescription<K>;
  /** The export route answering `{url}` (with the list's search and filters), and the saved file's name prefix. */
  export: { service: Service; path: string; filePrefix: string };
  table: TableDescription<Row, S>;
  /** Orders the returned page by the chosen column (the lists sort the page on screen, not the whole result). */
  sortRows: (rows: Row[], sort: ListSort<S> | null, locale: string) => Row[];
}

interface FilteredListPageProps<K extends string, Row, S extends string> {
  list: ListDescription<K, Row, S>;
  params: ListParams<K>;
  setParams: (params: ListParams<K>) => void;
  page: ListPage<Row>;
  loading: boolean;
}

/** The title, the advance filter, the search and export bar, the table and the pagination of a filtered list. */
export const FilteredListPage = <K extends string, Row extends { id: Identifier }, S extends string>({
  list,
  params,
  setParams,
  page,
  loading,
}: FilteredListPageProps<K, Row, S>) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [sort, setSort] = useState<ListSort<S> | null>(null);
  const [exporting, setExporting] = useState(false);
  const { messages, filters } = list;

  const update = (changes: Partial<ListParams<K>>) => setParams({ ...params, ...changes });
  const applyFilters = (values: FilterValues<K>) => update({ filters: values, page: 1 });
  const { sortRows } = list;
  const rows = useMemo(() => sortRows(page.rows, sort, locale), [sortRows, page.rows, sort, locale]);
  const number = (n: number) => n.toLocaleString(locale);
  const lastPage = Math.max(1, Math.ceil(page.total / params.perPage));
  // A stored page beyond the end (rows deleted, another filter): go to the last one.
  useEffect(() => {
    if (!loading && page.total > 0 && params.page > lastPage) setParams({ ...params, page: lastPage });
  }, [loading, page.total, params, lastPage, setParams]);

  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography component="h1" variant="h6" sx={{ mb: 2 }}>
        {translate(`${messages}.title`)}
      </Typography>
      <AdvanceFilter
        messages={messages}
        id={`${list.id}-advance-filter`}
        filters={filters}
        applied={params.filters}
        loading={loading}
        onApply={applyFilters}
        onReset={() => applyFilters(emptyFilters(filters.keys))}
      />
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', justifyContent: 'space-between', p: 2 }}>
          <SearchBox value={params.q} placeholder={translate(`${messages}.search`)} onSearch={(q) => update({ q, page: 1 })} />
          <ExportButton
            service={list.export.service}
            path={list.export.path}
            filePrefix={list.export.filePrefix}
            messages={messages}
            query={filterQuery(filters.keys, params.q, params.filters)}
            onBusyChange={setExporting}
          />
        </Box>
        <Box sx={{ height: 4 }}>{exporting && <LinearProgress aria-label={translate(`${messages}.exporting`)} />}</Box>
        <ListTable
          {...list.table}
          messages={messages}
          id={list.id}
          rows={rows}
          loading={loading}
          sort={sort}
          onSort={(field) => setSort((s) => nextSort(s, field))}
        />
        <TablePagination
          component="div"
          count={page.total}
          page={Math.min(params.page, lastPage) - 1}
          rowsPerPage={params.perPage}
          rowsPerPageOptions={PER_PAGE_OPTIONS}
          onPageChange={(_, p) => update({ page: p + 1 })}
          onRowsPerPageChange={(event) => update({ perPage: Number(event.target.value), page: 1 })}
          labelRowsPerPage={translate('app.scans.pagination.rows_per_page')}
          labelDisplayedRows={({ from, to, count }) =>
            translate(page.estimate ? 'app.scans.pagination.range_estimate' : 'app.scans.pagination.range', {
              from: number(from),
              to: number(to),
              total: number(count),
            })
          }
          sx={{ '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end', px: { xs: 1, sm: 2 } } }}
        />
      </Paper>
    </Box>
  );
};
