import { useEffect, useMemo, useState } from 'react';
import { Box, LinearProgress, Paper, TablePagination, Typography } from '@mui/material';
import { useLocaleState, useStore, useTranslate } from 'react-admin';
import { PER_PAGE_OPTIONS } from '../../config';
import { ExportButton } from '../../components/list/ExportButton';
import { SearchBox } from '../../components/list/SearchBox';
import { EMPTY_FILTERS, normaliseFilters, toExportQuery, type ScanFilterValues, type ScanListParams } from './filters';
import { sortRows, type RowSort, type SortColumn } from './liveRows';
import { ScanAdvanceFilter } from './ScanAdvanceFilter';
import { ScanTable } from './ScanTable';
import { useScanList } from './useScanList';

const DEFAULT_PARAMS: ScanListParams = { page: 1, perPage: PER_PAGE_OPTIONS[0], q: '', filters: EMPTY_FILTERS };

/** The stored list state (react-admin's store, cleared at logout), checked: it may come from another version. */
function useListParams() {
  const [stored, setStored] = useStore<ScanListParams>('scans.list.params', DEFAULT_PARAMS);
  const params = useMemo<ScanListParams>(() => {
    const s = (typeof stored === 'object' && stored !== null ? stored : DEFAULT_PARAMS) as Partial<ScanListParams>;
    const perPage = PER_PAGE_OPTIONS.includes(Number(s.perPage)) ? Number(s.perPage) : DEFAULT_PARAMS.perPage;
    const page = Number.isSafeInteger(s.page) && Number(s.page) > 0 ? Number(s.page) : 1;
    return { page, perPage, q: typeof s.q === 'string' ? s.q : '', filters: normaliseFilters(s.filters) };
  }, [stored]);
  return [params, setStored] as const;
}

/** /scans (spec 2 §2); App wraps it in the `scan` permission check. */
export const ScanListPage = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [params, setParams] = useListParams();
  const [sort, setSort] = useState<RowSort | null>(null);
  const [exporting, setExporting] = useState(false);
  const { page, loading } = useScanList(params);

  const update = (changes: Partial<ScanListParams>) => setParams({ ...params, ...changes });
  const applyFilters = (filters: ScanFilterValues) => update({ filters, page: 1 });
  const onSort = (field: SortColumn) =>
    setSort((s) => (s?.field === field ? { field, order: s.order === 'asc' ? 'desc' : 'asc' } : { field, order: 'asc' }));
  // Spec 2 §2: the chosen column orders the rows of the returned page, not the whole result.
  const rows = useMemo(() => sortRows(page.rows, sort, locale), [page.rows, sort, locale]);
  const number = (n: number) => n.toLocaleString(locale);
  const lastPage = Math.max(1, Math.ceil(page.total / params.perPage));
  // A stored page beyond the end (scans deleted, another filter): go to the last one.
  useEffect(() => {
    if (!loading && page.total > 0 && params.page > lastPage) setParams({ ...params, page: lastPage });
  }, [loading, page.total, params, lastPage, setParams]);

  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography component="h1" variant="h6" sx={{ mb: 2 }}>
        {translate('app.scans.title')}
      </Typography>
      <ScanAdvanceFilter applied={params.filters} loading={loading} onApply={applyFilters} onReset={() => applyFilters(EMPTY_FILTERS)} />
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', justifyContent: 'space-between', p: 2 }}>
          <SearchBox value={params.q} placeholder={translate('app.scans.search')} onSearch={(q) => update({ q, page: 1 })} />
          <ExportButton
            service="scan"
            path="scans/export-scan-report"
            filePrefix="scans"
            messages="app.scans"
            query={toExportQuery(params)}
            onBusyChange={setExporting}
          />
        </Box>
        <Box sx={{ height: 4 }}>{exporting && <LinearProgress aria-label={translate('app.scans.exporting')} />}</Box>
        <ScanTable rows={rows} loading={loading} sort={sort} onSort={onSort} />
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
