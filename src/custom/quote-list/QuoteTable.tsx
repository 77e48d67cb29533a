import {
  Box,
  IconButton,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  Tooltip,
} from '@mui/material';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import EditIcon from '@mui/icons-material/Edit';
import { LinkBase, RecordContextProvider, ResourceContextProvider, useLocaleState, useTranslate } from 'react-admin';
import { downloadFile } from '../../components/list/ExportButton';
import { formatDateTime } from '../../domain/format';
import { formatMoney } from '../../domain/money';
import { DeleteRowButton } from '../../resources/shared/DeleteRowButton';
import { amountCents, MONEY_COLUMNS, type QuoteRow, type QuoteSort, type QuoteSortColumn } from './rows';

/** Spec 3 §9: 11 placeholder rows while loading. */
const SKELETON_ROWS = 11;

/** Spec 3 §2's columns, in order. */
const COLUMNS: { key: string; source: QuoteSortColumn }[] = [
  { key: 'created', source: 'created_at' },
  { key: 'registration', source: 'licensePlate' },
  ...MONEY_COLUMNS.map((source) => ({ key: source, source })),
  { key: 'gst', source: 'tax_percent' },
  { key: 'grand_total', source: 'grant_total' },
];

const Cell = ({ row, source }: { row: QuoteRow; source: QuoteSortColumn }) => {
  const [locale] = useLocaleState();
  switch (source) {
    case 'created_at':
      return <>{formatDateTime(row.created_at, locale)}</>;
    case 'licensePlate':
      return <>{row.licensePlate ?? ''}</>;
    case 'tax_percent':
      return <>{typeof row.tax_percent === 'number' ? `${row.tax_percent}%` : ''}</>;
    default:
      return <>{formatMoney(amountCents(row[source]), row.currency, locale)}</>;
  }
};

const Actions = ({ row }: { row: QuoteRow }) => {
  const translate = useTranslate();
  const t = (key: string) => translate(`app.quotes.actions.${key}`);
  return (
    <Box sx={{ display: 'inline-flex' }}>
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
      <Tooltip title={translate('app.crud.edit')}>
        <IconButton size="small" color="primary" component={LinkBase} to={`/quotes/${row.scan_id}`} aria-label={translate('app.crud.edit')}>
          <EditIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <ResourceContextProvider value="quotes">
        <RecordContextProvider value={row}>
          <DeleteRowButton representation="licensePlate" />
        </RecordContextProvider>
      </ResourceContextProvider>
    </Box>
  );
};

interface QuoteTableProps {
  rows: QuoteRow[];
  loading: boolean;
  sort: QuoteSort | null;
  onSort: (field: QuoteSortColumn) => void;
}

/** The quote table: a header that sorts the page, skeleton rows while loading, the empty text, the row actions. */
export const QuoteTable = ({ rows, loading, sort, onSort }: QuoteTableProps) => {
  const translate = useTranslate();
  const columnCount = COLUMNS.length + 1;
  return (
    // Wide tables scroll inside their paper on a phone rather than the page.
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" sx={{ minWidth: 1000 }} aria-label={translate('app.quotes.title')} aria-busy={loading}>
        <TableHead>
          <TableRow>
            {COLUMNS.map(({ key, source }) => {
              const active = sort?.field === source;
              return (
                <TableCell key={key} sortDirection={active ? sort.order : false} sx={{ whiteSpace: 'nowrap' }}>
                  <TableSortLabel active={active} direction={active ? sort.order : 'asc'} onClick={() => onSort(source)}>
                    {translate(`app.quotes.columns.${key}`)}
                  </TableSortLabel>
                </TableCell>
              );
            })}
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {translate('app.quotes.columns.action')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {loading &&
            Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <TableRow key={`skeleton-${i}`}>
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
                {translate('app.quotes.empty')}
              </TableCell>
            </TableRow>
          )}
          {!loading &&
            rows.map((row) => (
              <TableRow key={row.id} hover>
                {COLUMNS.map(({ key, source }) => (
                  <TableCell
                    key={key}
                    align={source === 'created_at' || source === 'licensePlate' ? 'left' : 'right'}
                    sx={{ whiteSpace: 'nowrap' }}
                  >
                    <Cell row={row} source={source} />
                  </TableCell>
                ))}
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Actions row={row} />
                </TableCell>
              </TableRow>
            ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
