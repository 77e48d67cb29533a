import { useEffect, useMemo, useState } from 'react';
import { Box, LinearProgress, Paper, TablePagination, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useStore, useTranslate } from 'react-admin';
import { ExportButton } from '../../components/list/ExportButton';
import { SearchBox } from '../../components/list/SearchBox';
import { useNotifyError } from '../../components/useNotifyError';
import { PER_PAGE_OPTIONS } from '../../config';
import type { AppDataProvider } from '../../dataProvider';
import { useSelectedAgent, useSelectedClient } from '../../session';
import {
  defaultQuoteFilters,
  EMPTY_QUOTE_FILTERS,
  normaliseQuoteFilters,
  toQuoteExportQuery,
  toQuoteListQuery,
  type QuoteFilterValues,
  type QuoteListParams,
} from './filters';
import { QuoteAdvanceFilter } from './QuoteAdvanceFilter';
import { QuoteTable } from './QuoteTable';
import { sortQuoteRows, toQuotePage, type QuoteSort, type QuoteSortColumn } from './rows';

/** The stored list state (react-admin's store, cleared at logout), checked: it may come from another version. */
function useListParams() {
  const [initial] = useState<QuoteListParams>(() => ({ page: 1, perPage: PER_PAGE_OPTIONS[0], q: '', filters: defaultQuoteFilters() }));
  const [stored, setStored] = useStore<QuoteListParams>('quotes.list.params', initial);
  const params = useMemo<QuoteListParams>(() => {
    const s = (typeof stored === 'object' && stored !== null ? stored : initial) as Partial<QuoteListParams>;
    const perPage = PER_PAGE_OPTIONS.includes(Number(s.perPage)) ? Number(s.perPage) : initial.perPage;
    const page = Number.isSafeInteger(s.page) && Number(s.page) > 0 ? Number(s.page) : 1;
    return { page, perPage, q: typeof s.q === 'string' ? s.q : '', filters: normaliseQuoteFilters(s.filters) };
  }, [stored, initial]);
  return [params, setStored] as const;
}

/** /quotes (spec 3 §2); App wraps it in the `scan` permission check. */
export const QuoteListPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifyError = useNotifyError();
  const agent = useSelectedAgent();
  const client = useSelectedClient();
  const [params, setParams] = useListParams();
  const [sort, setSort] = useState<QuoteSort | null>(null);
  const [exporting, setExporting] = useState(false);
  const query = toQuoteListQuery(params);
  const result = useQuery({
    queryKey: ['quotes', 'getList', query, agent, client],
    queryFn: () => dataProvider.send<unknown>('quote', 'quotes', { query }),
    retry: false,
  });
  useEffect(() => {
    if (result.error) notifyError(result.error);
  }, [result.error, notifyError]);
  // Spec 3 §8 (as spec 1): a failed load empties the table with total 0.
  const page = useMemo(() => (result.isError ? toQuotePage(null) : toQuotePage(result.data)), [result.isError, result.data]);
  const loading = result.isPending;

  const update = (changes: Partial<QuoteListParams>) => setParams({ ...params, ...changes });
  const applyFilters = (filters: QuoteFilterValues) => update({ filters, page: 1 });
  const onSort = (field: QuoteSortColumn) =>
    setSort((s) => (s?.field === field ? { field, order: s.order === 'asc' ? 'desc' : 'asc' } : { field, order: 'asc' }));
  // Spec 3 §2: the chosen column orders the returned page (client-side sort).
  const rows = useMemo(() => sortQuoteRows(page.rows, sort, locale), [page.rows, sort, locale]);
  const number = (n: number) => n.toLocaleString(locale);
  const lastPage = Math.max(1, Math.ceil(page.total / params.perPage));
  useEffect(() => {
    if (!loading && page.total > 0 && params.page > lastPage) setParams({ ...params, page: lastPage });
  }, [loading, page.total, params, lastPage, setParams]);

  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography component="h1" variant="h6" sx={{ mb: 2 }}>
        {translate('app.quotes.title')}
      </Typography>
      <QuoteAdvanceFilter
        applied={params.filters}
        loading={loading}
        onApply={applyFilters}
        onReset={() => applyFilters(EMPTY_QUOTE_FILTERS)}
      />
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', justifyContent: 'space-between', p: 2 }}>
          <SearchBox value={params.q} placeholder={translate('app.quotes.search')} onSearch={(q) => update({ q, page: 1 })} />
          <ExportButton
            service="quote"
            path="quotes/export-quote-report"
            filePrefix="quotes"
            messages="app.quotes"
            query={toQuoteExportQuery(params)}
            onBusyChange={setExporting}
          />
        </Box>
        <Box sx={{ height: 4 }}>{exporting && <LinearProgress aria-label={translate('app.quotes.exporting')} />}</Box>
        <QuoteTable rows={rows} loading={loading} sort={sort} onSort={onSort} />
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
