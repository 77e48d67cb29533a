import { DataTable, ListBase, ListView, SearchInput, TopToolbar, useListContext, useLocaleState, useTranslate } from 'react-admin';
import { PER_PAGE_OPTIONS, SEARCH_DEBOUNCE_MS } from '../../config';
import { formatDateTime } from '../../domain/format';
import type { Vehicle } from '../../domain/vehicles';
import { FilteredListEmpty, FilteredListPagination, LIST_VIEW_SX, ListFrame, useSelectionQuery } from '../../resources/shared/FilteredList';
import { ListExportButton } from '../../resources/shared/ListExportButton';
import { ListLoadError } from '../../resources/shared/ListLoadError';
import { cardLabel, cardRowsSx, useListWaiting, WAITING_SX } from '../../resources/shared/listLayout';
import { SortedCol } from '../../components/SortedCol';

const Column = SortedCol<Vehicle>;
/** The list has a search and no advance filter. */
const NO_FILTERS: readonly string[] = [];
const noWrap = { whiteSpace: 'nowrap' } as const;
const column = (key: string) => `app.vehicles.columns.${key}`;

/** The page's vehicles; a heading sorts the whole result on the server, a click on a row opens the vehicle page. */
const VehicleTable = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { isPending } = useListContext<Vehicle>();
  const waiting = useListWaiting();
  const label = (key: string) => ({ label: column(key), cellSx: cardLabel(translate(column(key))) });
  return (
    <>
      <DataTable<Vehicle>
        rowClick={(id) => `/vehicles/${id}`}
        bulkActionButtons={false}
        empty={<FilteredListEmpty messages="app.vehicles" />}
        aria-label={translate('app.vehicles.title')}
        aria-busy={isPending || waiting}
        sx={[cardRowsSx(800), waiting && WAITING_SX]}
      >
        <Column source="registration" {...label('registration')} sx={noWrap} />
        <Column source="state" {...label('state')} disableSort />
        <Column source="make" {...label('make')} />
        <Column source="model" {...label('model')} />
        <Column source="vin" {...label('vin')} disableSort />
        <Column source="first_seen" {...label('first_seen')} sx={noWrap} render={(row) => formatDateTime(row.first_seen, locale)} />
        <Column source="last_seen" {...label('last_seen')} sx={noWrap} render={(row) => formatDateTime(row.last_seen, locale)} />
      </DataTable>
      <FilteredListPagination />
    </>
  );
};

/**
 * /vehicles: the vehicles with a scan the user may see, last seen first; searched by a registration or VIN prefix,
 * paged and sorted by the server. App wraps it in the `scan` permission check.
 */
export const VehicleListPage = () => {
  const translate = useTranslate();
  const queryOptions = useSelectionQuery();
  return (
    <ListFrame title={translate('app.vehicles.title')}>
      <ListBase
        resource="vehicles"
        perPage={PER_PAGE_OPTIONS[0]}
        sort={{ field: 'last_seen', order: 'DESC' }}
        debounce={SEARCH_DEBOUNCE_MS}
        queryOptions={queryOptions}
      >
        <ListView
          title={false}
          filters={[<SearchInput key="q" source="q" alwaysOn placeholder={translate('app.vehicles.search')} />]}
          actions={
            <TopToolbar>
              <ListExportButton
                exportList={(dataProvider, query) => dataProvider.exportVehicles(query)}
                keys={NO_FILTERS}
                sorted
                filePrefix="vehicles"
                messages="app.vehicles"
              />
            </TopToolbar>
          }
          pagination={false}
          error={<ListLoadError />}
          empty={false}
          sx={LIST_VIEW_SX}
        >
          <VehicleTable />
        </ListView>
      </ListBase>
    </ListFrame>
  );
};
