import { Box, Chip, Skeleton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TableSortLabel } from '@mui/material';
import { RecordContextProvider, ResourceContextProvider, useLocaleState, useTranslate } from 'react-admin';
import { formatDateTime } from '../../domain/format';
import { isScanType } from '../../domain/scans';
import { EditRowButton } from '../../resources/shared/EditRowButton';
import { SORTABLE_COLUMNS, type RowSort, type ScanRow, type SortColumn } from './liveRows';

/** Spec 2 §9: 11 placeholder rows while loading. */
export const SKELETON_ROWS = 11;

const COLUMNS = [
  { key: 'location', source: 'location_name' },
  { key: 'type', source: 'type' },
  { key: 'date_time', source: 'timestamp' },
  { key: 'registration', source: 'licensePlate' },
  { key: 'car_color', source: 'carColor' },
  { key: 'client', source: 'client_name' },
  { key: 'agent', source: 'agent_name' },
  { key: 'status', source: 'status' },
] as const;

/** Short values that read badly broken over lines (a Japanese date, a status chip). */
const NO_WRAP = new Set<string>(['timestamp', 'type', 'licensePlate', 'status']);

const isSortable = (source: string): source is SortColumn => (SORTABLE_COLUMNS as readonly string[]).includes(source);

const STATUS_COLOR = { metadata: 'default', ready: 'info', uploaded: 'success' } as const;

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

const StatusChip = ({ status }: { status: unknown }) => {
  const translate = useTranslate();
  const value = text(status).toLowerCase();
  if (!value) return null;
  const known = value in STATUS_COLOR;
  return (
    <Chip
      size="small"
      variant={value === 'uploaded' ? 'filled' : 'outlined'}
      color={known ? STATUS_COLOR[value as keyof typeof STATUS_COLOR] : 'default'}
      label={known ? translate(`app.scans.status.${value}`) : value}
    />
  );
};

const Cell = ({ row, source }: { row: ScanRow; source: (typeof COLUMNS)[number]['source'] }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const value = row[source];
  switch (source) {
    case 'timestamp':
      return <>{formatDateTime(text(value), locale)}</>;
    case 'type':
      return <>{isScanType(text(value)) ? translate(`app.scans.type.${text(value)}`) : text(value)}</>;
    case 'status':
      return <StatusChip status={value} />;
    default:
      return <>{text(value)}</>;
  }
};

interface ScanTableProps {
  rows: ScanRow[];
  loading: boolean;
  sort: RowSort | null;
  onSort: (field: SortColumn) => void;
}

/** The scan table: a header that sorts the page, skeleton rows while loading, the empty text, a pencil per row. */
export const ScanTable = ({ rows, loading, sort, onSort }: ScanTableProps) => {
  const translate = useTranslate();
  const columnCount = COLUMNS.length + 1;
  return (
    // Wide tables scroll inside their paper on a phone rather than the page.
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" sx={{ minWidth: 980 }} aria-label={translate('app.scans.title')} aria-busy={loading}>
        <TableHead>
          <TableRow>
            {COLUMNS.map(({ key, source }) => {
              const label = translate(`app.scans.columns.${key}`);
              if (!isSortable(source))
                return (
                  <TableCell key={key} sx={{ whiteSpace: 'nowrap' }}>
                    {label}
                  </TableCell>
                );
              const active = sort?.field === source;
              return (
                <TableCell key={key} sortDirection={active ? sort.order : false} sx={{ whiteSpace: 'nowrap' }}>
                  <TableSortLabel active={active} direction={active ? sort.order : 'asc'} onClick={() => onSort(source)}>
                    {label}
                  </TableSortLabel>
                </TableCell>
              );
            })}
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {translate('app.scans.columns.action')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {loading &&
            Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <TableRow key={`skeleton-${i}`} data-testid="scan-skeleton-row">
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
                {translate('app.scans.empty')}
              </TableCell>
            </TableRow>
          )}
          {!loading &&
            rows.map((row) => (
              <TableRow key={row.id} hover>
                {COLUMNS.map(({ key, source }) => (
                  <TableCell key={key} sx={{ whiteSpace: NO_WRAP.has(source) ? 'nowrap' : undefined }}>
                    <Cell row={row} source={source} />
                  </TableCell>
                ))}
                <TableCell align="right">
                  <Box sx={{ display: 'inline-flex' }}>
                    <ResourceContextProvider value="scans">
                      <RecordContextProvider value={row}>
                        <EditRowButton />
                      </RecordContextProvider>
                    </ResourceContextProvider>
                  </Box>
                </TableCell>
              </TableRow>
            ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
