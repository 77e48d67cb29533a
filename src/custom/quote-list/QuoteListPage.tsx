import { QuoteStatusChip } from '../../components/QuoteStatusChip';
import { useDeferredValue, useState } from 'react';
import { Box, IconButton, Tooltip } from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
  DataTable,
  LinkBase,
  useDataProvider,
  useListContext,
  useLocaleState,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { downloadFile, linkExpired } from '../../components/downloadFile';
import { useNotifyError } from '../../components/useNotifyError';
import { canChange } from '../../domain/access';
import { formatDateTime } from '../../domain/format';
import { AU_STATES } from '../../domain/locations';
import { formatMoney } from '../../domain/money';
import { dayRangeField, scanTypeField, type FilterDescription } from '../../resources/shared/AdvanceFilter';
import { DeleteRowButton } from '../../resources/shared/DeleteRowButton';
import { FilteredList, FilteredListEmpty, FilteredListLoading, FilteredListPagination } from '../../resources/shared/FilteredList';
import { besideActionsSx, cardLabel, cardRowsSx, stopRowClick } from '../../resources/shared/listLayout';
import { PhoneSortMenu } from '../../resources/shared/PhoneSortMenu';
import { usePageSort } from '../../resources/shared/pageSort';
import { useQuoteEvents } from '../../realtime';
import { useCurrentUser } from '../../session';
import { defaultQuoteFilters, QUOTE_FILTER_KEYS, type QuoteFilterKey } from './filters';
import { amountCents, MONEY_COLUMNS, QUOTE_SORT_COLUMNS, sortQuoteRows, type QuoteRow } from './rows';
import { SortedCol } from '../../components/SortedCol';

/**
 * Grand Total stays in view beside the row's actions while the money columns scroll sideways (the table is wider than
 * a 1366 px screen's content area). The actions take at most four small buttons: 4 × 30 px and the cell's padding.
 */
const STICKY = besideActionsSx(152);

/** A row's PDF and invoice; with `quote_edit` edit and delete, without it a view of the quote (docs/ARCHITECTURE.md, "Access model"). */
const QuoteActions = () => {
  const translate = useTranslate();
  const row = useRecordContext<QuoteRow>();
  const t = (key: string) => translate(`app.quotes.actions.${key}`);
  const editable = canChange(useCurrentUser(), 'quotes');
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const notifyError = useNotifyError();
  if (!row) return null;
  const open = editable ? translate('app.crud.edit') : t('view');
  // A row's PDF link is signed for half an hour: a list left open longer reads the quote again for a fresh one.
  const downloadPdf = async () => {
    let url = row.pdf;
    if (url && linkExpired(url)) url = (await dataProvider.getOne<QuoteRow>('quotes', { id: row.id })).data.pdf;
    if (url) downloadFile(url, 'quote.pdf');
    else notify('app.quotes.pdf_gone', { type: 'warning' });
  };
  return (
    <Box sx={{ display: 'inline-flex' }} onClick={stopRowClick}>
      {row.pdf && (
        <Tooltip title={t('pdf')}>
          <IconButton size="small" color="primary" aria-label={t('pdf')} onClick={() => void downloadPdf().catch(notifyError)}>
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
      {editable && <DeleteRowButton representation="licensePlate" />}
    </Box>
  );
};

/** The quotes list's advance filter: date range, type, agent, client and location state. */
const QUOTE_FILTERS: FilterDescription<QuoteFilterKey> = {
  keys: QUOTE_FILTER_KEYS,
  columns: 3,
  fields: [
    dayRangeField('ts', 'te'),
    scanTypeField,
    { type: 'reference', source: 'agent_id', label: 'agent', reference: 'agents' },
    { type: 'reference', source: 'client_id', label: 'client', reference: 'clients' },
    { type: 'choice', source: 'location_state', label: 'location_state', choices: AU_STATES.map((s) => ({ id: s.id, name: s.id })) },
  ],
};

const Column = SortedCol<QuoteRow>;
const noWrap = { whiteSpace: 'nowrap' } as const;
const column = (key: string) => `app.quotes.columns.${key}`;
/** The headings whose key is not the column's own (`app.quotes.columns.<key>`). */
const SORT_HEADINGS: Partial<Record<(typeof QUOTE_SORT_COLUMNS)[number], string>> = {
  created_at: 'created',
  licensePlate: 'registration',
  tax_percent: 'gst',
  grant_total: 'grand_total',
};

/** The page's quotes in each quote's currency, ordered by the chosen heading; a click on a row opens the quote. */
const QuoteTable = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data, isPending, refetch } = useListContext<QuoteRow>();
  // A quote's status changed by its customer or another user shows without a reload.
  useQuoteEvents(() => void refetch());
  // A reply renders synchronously (react-query's store): the rows follow in a transition React can pause.
  const shown = useDeferredValue(data);
  const pending = useDeferredValue(isPending);
  const { rows, sort, setSort } = usePageSort(shown ?? [], sortQuoteRows);
  const label = (key: string) => ({ label: column(key), cellSx: cardLabel(translate(column(key))) });
  const money = (row: QuoteRow, cents: number) => formatMoney(cents, row.currency, locale);
  // On a phone each row is a card and the headings that sort are hidden: a menu sorts the page instead.
  const sortColumns = QUOTE_SORT_COLUMNS.map((field) => ({ field, label: translate(column(SORT_HEADINGS[field] ?? field)) }));
  return (
    <>
      <Box sx={{ display: { xs: 'flex', sm: 'none' }, justifyContent: 'flex-end' }}>
        <PhoneSortMenu columns={sortColumns} sort={sort} setSort={setSort} />
      </Box>
      {pending ? (
        <FilteredListLoading messages="app.quotes" columns={MONEY_COLUMNS.length + 6} rowHeight={43} cardHeight={388} />
      ) : (
        <DataTable<QuoteRow>
          data={rows}
          sort={sort}
          setSort={setSort}
          rowClick={(_id, _resource, row) => `/quotes/${row.scan_id}`}
          bulkActionButtons={false}
          empty={<FilteredListEmpty messages="app.quotes" />}
          aria-label={translate('app.quotes.title')}
          aria-busy={pending}
          sx={cardRowsSx(1000)}
        >
          <Column source="created_at" {...label('created')} sx={noWrap} render={(row) => formatDateTime(row.created_at, locale)} />
          <Column source="licensePlate" {...label('registration')} sx={noWrap} />
          <Column
            source="status"
            {...label('status')}
            disableSort
            sx={noWrap}
            render={(row) => <QuoteStatusChip status={row.status} revision={row.revision} />}
          />
          {MONEY_COLUMNS.map((source) => (
            <Column
              key={source}
              source={source}
              {...label(source)}
              align="right"
              sx={noWrap}
              render={(row) => money(row, amountCents(row[source]))}
            />
          ))}
          <Column
            source="tax_percent"
            {...label('gst')}
            align="right"
            sx={noWrap}
            render={(row) => (typeof row.tax_percent === 'number' ? `${row.tax_percent}%` : '')}
          />
          <Column
            source="grant_total"
            {...label('grand_total')}
            align="right"
            sx={STICKY.beside}
            render={(row) => money(row, amountCents(row.grant_total))}
          />
          <Column label={column('action')} align="right" sx={STICKY.action}>
            <QuoteActions />
          </Column>
        </DataTable>
      )}
      <FilteredListPagination />
    </>
  );
};

/**
 * /quotes; App wraps it in the `scan` permission check. The advance filter (date range, default today to two days
 * later, type, agent, client and location state), export, the columns and the row actions (PDF, invoice, edit by its
 * scan, delete).
 */
export const QuoteListPage = () => {
  // Read once, when the list opens without a stored state.
  const [defaults] = useState(defaultQuoteFilters);
  return (
    <FilteredList
      resource="quotes"
      messages="app.quotes"
      id="quote"
      filters={QUOTE_FILTERS}
      filterDefaultValues={defaults}
      exportList={(dataProvider, query) => dataProvider.exportQuotes(query)}
      filePrefix="quotes"
    >
      <QuoteTable />
    </FilteredList>
  );
};
