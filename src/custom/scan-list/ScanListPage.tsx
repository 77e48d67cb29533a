import { useDeferredValue } from 'react';
import { Box, Chip, IconButton, Tooltip } from '@mui/material';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { DataTable, LinkBase, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { canChange } from '../../domain/access';
import { formatDateTime } from '../../domain/format';
import { NEW_DAMAGE_COLOUR } from '../../domain/scan-view';
import { isScanType, SCAN_STATUSES } from '../../domain/scan-codes';
import { dayRangeField, scanTypeField, type FilterDescription } from '../../resources/shared/AdvanceFilter';
import { EditRowButton } from '../../resources/shared/EditRowButton';
import { FilteredList, FilteredListEmpty, FilteredListLoading, FilteredListPagination } from '../../resources/shared/FilteredList';
import { ACTION_COLUMN_SX, cardLabel, cardRowsSx, stopRowClick } from '../../resources/shared/listLayout';
import { PhoneSortMenu } from '../../resources/shared/PhoneSortMenu';
import { usePageSort } from '../../resources/shared/pageSort';
import { useCurrentUser } from '../../session';
import { FILTER_KEYS, type ScanFilterKey } from './filters';
import { SORTABLE_COLUMNS, sortRows, type ScanRow } from './liveRows';
import { useLiveScanRows } from './useLiveScanRows';
import { SortedCol } from '../../components/SortedCol';

const STATUS_COLOR = { metadata: 'default', ready: 'info', uploaded: 'success' } as const;

/** A row's way to its scan page: the pencil, or an eye for a user without `scan_edit`, to whom the page is read-only. */
const OpenScan = () => {
  const translate = useTranslate();
  const row = useRecordContext<ScanRow>();
  const editable = canChange(useCurrentUser(), 'scans');
  if (!row) return null;
  if (editable) return <EditRowButton />;
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

/** The scan list's advance filter: date range, status, type, agent, client, location and new damage. */
const SCAN_FILTERS: FilterDescription<ScanFilterKey> = {
  keys: FILTER_KEYS,
  columns: 3,
  fields: [
    dayRangeField('ts', 'te'),
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
    { type: 'reference', source: 'location_id', label: 'location', reference: 'locations', within: 'agent_id' },
    {
      type: 'choice',
      source: 'new_damage',
      label: 'new_damage',
      choices: [
        { id: 'true', name: 'app.scans.new_damage.true' },
        { id: 'false', name: 'app.scans.new_damage.false' },
      ],
      translateChoice: true,
    },
  ],
};

const unsortable = (source: string) => !(SORTABLE_COLUMNS as readonly string[]).includes(source);
const Column = SortedCol<ScanRow>;
const noWrap = { whiteSpace: 'nowrap' } as const;

/** Each sortable column's heading (`app.scans.columns.<key>`). */
const SORT_HEADINGS: Record<(typeof SORTABLE_COLUMNS)[number], string> = {
  location_name: 'location',
  type: 'type',
  licensePlate: 'registration',
  carColor: 'car_color',
  client_name: 'client',
  agent_name: 'agent',
  status: 'status',
};

/** The server's page with the live events applied, ordered by the chosen heading; a click on a row opens its scan. */
const ScanTable = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { page: live, isPending } = useLiveScanRows();
  // A reply renders synchronously (react-query's store): the rows follow in a transition React can pause.
  const shown = useDeferredValue(live);
  const pending = useDeferredValue(isPending);
  const { rows, sort, setSort } = usePageSort(shown.rows, sortRows);
  const column = (key: string) => `app.scans.columns.${key}`;
  const label = (key: string) => ({ label: column(key), cellSx: cardLabel(translate(column(key))) });
  // On a phone each row is a card and the headings that sort are hidden: a menu sorts the page instead.
  const sortColumns = SORTABLE_COLUMNS.map((field) => ({ field, label: translate(column(SORT_HEADINGS[field])) }));
  return (
    <>
      <Box sx={{ display: { xs: 'flex', sm: 'none' }, justifyContent: 'flex-end' }}>
        <PhoneSortMenu columns={sortColumns} sort={sort} setSort={setSort} />
      </Box>
      {pending ? (
        <FilteredListLoading messages="app.scans" columns={10} rowHeight={73} cardHeight={300} />
      ) : (
        <DataTable<ScanRow>
          data={rows}
          total={shown.total}
          sort={sort}
          setSort={setSort}
          rowClick={(id) => `/scans/${id}`}
          bulkActionButtons={false}
          empty={<FilteredListEmpty messages="app.scans" />}
          aria-label={translate('app.scans.title')}
          aria-busy={pending}
          sx={cardRowsSx(980)}
        >
          <Column source="location_name" {...label('location')} disableSort={unsortable('location_name')} />
          <Column
            source="type"
            {...label('type')}
            disableSort={unsortable('type')}
            sx={noWrap}
            render={(row) => (isScanType(row.type) ? translate(`app.scans.type.${row.type}`) : row.type)}
          />
          <Column
            source="timestamp"
            {...label('date_time')}
            disableSort
            sx={noWrap}
            render={(row) => formatDateTime(text(row.timestamp), locale)}
          />
          <Column source="licensePlate" {...label('registration')} disableSort={unsortable('licensePlate')} sx={noWrap} />
          <Column source="carColor" {...label('car_color')} disableSort={unsortable('carColor')} />
          <Column source="client_name" {...label('client')} disableSort={unsortable('client_name')} />
          <Column source="agent_name" {...label('agent')} disableSort={unsortable('agent_name')} />
          <Column
            source="status"
            {...label('status')}
            disableSort={unsortable('status')}
            sx={noWrap}
            render={(row) => <StatusChip status={row.status} />}
          />
          <Column
            source="new_damage"
            {...label('new_damage')}
            disableSort
            align="right"
            render={(row) =>
              row.new_damage ? (
                <Chip
                  size="small"
                  label={`+${row.new_damage}`}
                  aria-label={translate('app.scans.new_damage.count', { smart_count: row.new_damage })}
                  sx={{ bgcolor: NEW_DAMAGE_COLOUR, color: '#fff' }}
                />
              ) : null
            }
          />
          <Column label={column('action')} align="right" sx={ACTION_COLUMN_SX}>
            <Box sx={{ display: 'inline-flex' }} onClick={stopRowClick}>
              <OpenScan />
            </Box>
          </Column>
        </DataTable>
      )}
      <FilteredListPagination total={shown.total} />
    </>
  );
};

/** /scans; App wraps it in the `scan` permission check. The rows follow the live scan events. */
export const ScanListPage = () => (
  <FilteredList
    resource="scans"
    messages="app.scans"
    id="scan"
    filters={SCAN_FILTERS}
    exportList={(dataProvider, query) => dataProvider.exportScans(query)}
    filePrefix="scans"
  >
    <ScanTable />
  </FilteredList>
);
