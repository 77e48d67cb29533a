import { Chip, IconButton, Tooltip } from '@mui/material';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { LinkBase, RecordContextProvider, ResourceContextProvider, useTranslate } from 'react-admin';
import { dayRangeFields, scanTypeField } from '../../components/list/AdvanceFilter';
import { FilteredListPage, type ListDescription } from '../../components/list/FilteredListPage';
import { useListParams } from '../../components/list/useListParams';
import { canChange } from '../../domain/access';
import { formatDateTime } from '../../domain/format';
import { isScanType, SCAN_STATUSES } from '../../domain/scans';
import { EditRowButton } from '../../resources/shared/EditRowButton';
import { useCurrentUser } from '../../session';
import { EMPTY_FILTERS, FILTER_KEYS } from './filters';
import { SORTABLE_COLUMNS, sortRows, type ScanRow, type SortColumn } from './liveRows';
import { useScanList } from './useScanList';

const STATUS_COLOR = { metadata: 'default', ready: 'info', uploaded: 'success' } as const;

/** A row's way to its scan page: the pencil, or an eye for a user without `scan_edit`, to whom the page is read-only. */
const OpenScan = ({ row }: { row: ScanRow }) => {
  const translate = useTranslate();
  const editable = canChange(useCurrentUser(), 'scans');
  if (editable)
    return (
      <ResourceContextProvider value="scans">
        <RecordContextProvider value={row}>
          <EditRowButton />
        </RecordContextProvider>
      </ResourceContextProvider>
    );
  const label = translate('app.scans.view');
  return (
    <Tooltip title={label}>
      <IconButton size="small" color="primary" component={LinkBase} to={`/scans/${row.id}`} aria-label={label}>
        <VisibilityIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
};

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

/** The scan list: its advance filter, export, columns and the pencil to /scans/{id}. */
const scanList: ListDescription<(typeof FILTER_KEYS)[number], ScanRow, SortColumn> = {
  messages: 'app.scans',
  id: 'scan',
  filters: {
    keys: FILTER_KEYS,
    columns: 4,
    fields: [
      ...dayRangeFields('ts', 'te'),
      {
        type: 'choice',
        source: 'status',
        label: 'status',
        choices: SCAN_STATUSES.map((s) => ({ id: s.id, name: `app.scans.status.${s.id}` })),
        translateChoice: true,
      },
      scanTypeField,
      { type: 'reference', source: 'agent_id', label: 'agent', reference: 'agents' },
      { type: 'reference', source: 'client_id', label: 'client', reference: 'clients' },
      { type: 'reference', source: 'location_id', label: 'location', reference: 'locations' },
    ],
  },
  export: { service: 'scan', path: 'scans/export-scan-report', filePrefix: 'scans' },
  table: {
    minWidth: 980,
    sortable: SORTABLE_COLUMNS,
    columns: [
      { key: 'location', source: 'location_name' },
      {
        key: 'type',
        source: 'type',
        noWrap: true,
        render: (row, { translate }) => (isScanType(row.type) ? translate(`app.scans.type.${row.type}`) : row.type),
      },
      { key: 'date_time', source: 'timestamp', noWrap: true, render: (row, { locale }) => formatDateTime(text(row.timestamp), locale) },
      { key: 'registration', source: 'licensePlate', noWrap: true },
      { key: 'car_color', source: 'carColor' },
      { key: 'client', source: 'client_name' },
      { key: 'agent', source: 'agent_name' },
      { key: 'status', source: 'status', noWrap: true, render: (row) => <StatusChip status={row.status} /> },
    ],
    actions: (row) => <OpenScan row={row} />,
  },
  sortRows,
};

const noFilters = () => EMPTY_FILTERS;

/** /scans; App wraps it in the `scan` permission check. The rows follow the live scan events. */
export const ScanListPage = () => {
  const [params, setParams] = useListParams('scans.list.params', FILTER_KEYS, noFilters);
  const { page, loading } = useScanList(params);
  return <FilteredListPage list={scanList} params={params} setParams={setParams} page={page} loading={loading} />;
};
