import { IconButton, Tooltip } from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { useMemo } from 'react';
import { LinkBase, RecordContextProvider, ResourceContextProvider, useTranslate } from 'react-admin';
import { downloadFile } from '../../components/list/ExportButton';
import { dayRangeFields, scanTypeField } from '../../components/list/AdvanceFilter';
import { FilteredListPage, type ListDescription } from '../../components/list/FilteredListPage';
import { toListPage } from '../../components/list/listPage';
import { useListParams, useListQuery } from '../../components/list/useListParams';
import { canChange } from '../../domain/access';
import { formatDateTime } from '../../domain/format';
import { AU_STATES } from '../../domain/locations';
import { formatMoney } from '../../domain/money';
import { DeleteRowButton } from '../../resources/shared/DeleteRowButton';
import { useCurrentUser } from '../../session';
import { defaultQuoteFilters, QUOTE_FILTER_KEYS, toQuoteListQuery, type QuoteFilterKey } from './filters';
import { amountCents, MONEY_COLUMNS, QUOTE_SORT_COLUMNS, sortQuoteRows, type QuoteRow, type QuoteSortColumn } from './rows';

/** A row's PDF and invoice; with `quote_edit` edit and delete, without it a view of the quote (docs/ARCHITECTURE.md, "Access model"). */
const QuoteActions = ({ row }: { row: QuoteRow }) => {
  const translate = useTranslate();
  const t = (key: string) => translate(`app.quotes.actions.${key}`);
  const editable = canChange(useCurrentUser(), 'quotes');
  const open = editable ? translate('app.crud.edit') : t('view');
  return (
    <>
      {row.pdf && (
        <Tooltip title={t('pdf')}>
          <IconButton size="small" color="primary" aria-label={t('pdf')} onClick={() => downloadFile(row.pdf as string, 'quote.pdf')}>
            <PictureAsPdfIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <Tooltip title={t('invoice')}>
        <IconButton size="small" color="primary" component={LinkBase} to={`/quotes/${row.id}/invoice`} aria-label={t('invoice')}>
          <ReceiptLongIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={open}>
        <IconButton size="small" color="primary" component={LinkBase} to={`/quotes/${row.scan_id}`} aria-label={open}>
          {editable ? <EditIcon fontSize="small" /> : <VisibilityIcon fontSize="small" />}
        </IconButton>
      </Tooltip>
      {editable && (
        <ResourceContextProvider value="quotes">
          <RecordContextProvider value={row}>
            <DeleteRowButton representation="licensePlate" />
          </RecordContextProvider>
        </ResourceContextProvider>
      )}
    </>
  );
};

/**
 * The quotes list: the advance filter (date range, default today to two days later, type, agent, client and
 * location state), export, the columns in the quote's currency and the row actions (PDF, invoice, edit by its scan, delete).
 */
const quoteList: ListDescription<QuoteFilterKey, QuoteRow, QuoteSortColumn> = {
  messages: 'app.quotes',
  id: 'quote',
  filters: {
    keys: QUOTE_FILTER_KEYS,
    columns: 3,
    fields: [
      ...dayRangeFields('ts', 'te'),
      scanTypeField,
      { type: 'reference', source: 'agent_id', label: 'agent', reference: 'agents' },
      { type: 'reference', source: 'client_id', label: 'client', reference: 'clients' },
      { type: 'choice', source: 'location_state', label: 'location_state', choices: AU_STATES.map((s) => ({ id: s.id, name: s.id })) },
    ],
  },
  export: { service: 'quote', path: 'quotes/export-quote-report', filePrefix: 'quotes' },
  table: {
    minWidth: 1000,
    sortable: QUOTE_SORT_COLUMNS,
    columns: [
      {
        key: 'created',
        source: 'created_at',
        align: 'left',
        noWrap: true,
        render: (row, { locale }) => formatDateTime(row.created_at, locale),
      },
      { key: 'registration', source: 'licensePlate', align: 'left', noWrap: true },
      ...MONEY_COLUMNS.map((source) => ({
        key: source,
        source,
        align: 'right' as const,
        noWrap: true,
        render: (row: QuoteRow, { locale }: { locale: string }) => formatMoney(amountCents(row[source]), row.currency, locale),
      })),
      {
        key: 'gst',
        source: 'tax_percent',
        align: 'right',
        noWrap: true,
        render: (row) => (typeof row.tax_percent === 'number' ? `${row.tax_percent}%` : ''),
      },
      {
        key: 'grand_total',
        source: 'grant_total',
        align: 'right',
        noWrap: true,
        render: (row, { locale }) => formatMoney(amountCents(row.grant_total), row.currency, locale),
      },
    ],
    actions: (row) => <QuoteActions row={row} />,
  },
  sortRows: sortQuoteRows,
};

/** /quotes; App wraps it in the `scan` permission check. */
export const QuoteListPage = () => {
  const [params, setParams] = useListParams('quotes.list.params', QUOTE_FILTER_KEYS, defaultQuoteFilters);
  const result = useListQuery('quotes', 'quote', 'quotes', toQuoteListQuery(params));
  // A failed load empties the table with total 0.
  const page = useMemo(() => toListPage<QuoteRow>(result.isError ? null : result.data), [result.isError, result.data]);
  return <FilteredListPage list={quoteList} params={params} setParams={setParams} page={page} loading={result.isPending} />;
};
