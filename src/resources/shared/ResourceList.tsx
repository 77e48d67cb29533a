import type { ComponentProps, ReactElement, ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Box } from '@mui/material';
import {
  CanAccess,
  CreateButton,
  DataTable,
  ExportButton,
  type Exporter,
  List,
  Pagination,
  PaginationActions,
  SearchInput,
  TopToolbar,
  type RaRecord,
  useCanAccess,
  useDataProvider,
  useLocaleState,
  useTranslate,
  useTranslateLabel,
} from 'react-admin';
import { PageLoading } from '../../components/PageLoading';
import { RedirectHome } from '../../components/RequirePermission';
import { PER_PAGE_OPTIONS, SEARCH_DEBOUNCE_MS } from '../../config';
import type { ResourceDescription } from '../types';
import { DeleteRowButton } from './DeleteRowButton';
import { ListLoadError } from './ListLoadError';
import { EditRowButton } from './EditRowButton';
import { ExtraColumnValue } from './ExtraColumnValue';
import { FieldColumnValue } from './FieldColumnValue';
import { ACTION_COLUMN_SX, cardLabel, cardRowsSx, LIST_SCROLLER_SX, stopRowClick, useListWaiting, WAITING_SX } from './listLayout';
import { PhoneSortMenu } from './PhoneSortMenu';
import { ResourceBreadcrumbs } from './ResourceBreadcrumbs';
import { SortedCol } from '../../components/SortedCol';
import { downloadText } from '../../components/downloadFile';
import { csvText } from '../../domain/csv';
import type { AppDataProvider } from '../../dataProvider';
import { exportCells } from './exportCells';

/**
 * Create, Export and, on a phone, a sort menu: there each row is a card and the table's headings, which sort on a
 * desktop, are hidden.
 */
const ListActions = ({ create, sortColumns }: { create: boolean; sortColumns: readonly { field: string; label: string }[] }) => (
  <TopToolbar>
    {sortColumns.length > 0 && (
      <Box sx={{ display: { xs: 'block', sm: 'none' } }}>
        <PhoneSortMenu columns={sortColumns} />
      </Box>
    )}
    {create && <CreateButton label="app.crud.create" />}
    <ExportButton />
  </TopToolbar>
);

/** The listed sources in the table's order: listed fields, then extra columns, unless `columnOrder` says otherwise. */
function listSources(description: ResourceDescription): string[] {
  const sources = [
    ...Object.entries(description.fields)
      .filter(([, spec]) => spec.list)
      .map(([source]) => source),
    ...(description.extraColumns ?? []).map((c) => c.source),
  ];
  const order = description.columnOrder;
  if (!order) return sources;
  const rank = (source: string) => (order.includes(source) ? order.indexOf(source) : order.length);
  return [...sources].sort((a, b) => rank(a) - rank(b));
}

/**
 * A column's heading: its own (resources.<name>.columns.<source>, when the list names it unlike the form: an e-mail
 * template's Name), and the text shown, which is also each card line's name on a phone and the export's heading.
 */
function useHeadings(description: ResourceDescription) {
  const translate = useTranslate();
  const translateLabel = useTranslateLabel();
  const own = (source: string) => {
    const key = `resources.${description.name}.columns.${source}`;
    const text = translate(key, { _: '' });
    return text && text !== key ? text : undefined;
  };
  const text = (source: string) => {
    const label: unknown = translateLabel({ label: own(source), source, resource: description.name });
    return typeof label === 'string' ? label : source;
  };
  return { own, text };
}

/**
 * The field a column sorts by: its own when the server sorts by it; for a reference (`panel_group_id`), its name
 * (`panel_group_name`), as the column shows it; none otherwise.
 */
function sortFieldOf(description: ResourceDescription, source: string): string | undefined {
  const column = description.extraColumns?.find((c) => c.source === source);
  if (column?.sortable === false) return undefined;
  if (description.sortable.includes(source)) return source;
  const byName = description.fields[source]?.type === 'reference' ? source.replace(/_id$/, '_name') : undefined;
  return byName && description.sortable.includes(byName) ? byName : undefined;
}

/** The listed columns that sort, each with its sort field and its heading (the phone's sort menu). */
function useSortColumns(description: ResourceDescription) {
  const headings = useHeadings(description);
  return listSources(description).flatMap((source) => {
    const field = sortFieldOf(description, source);
    return field ? [{ field, label: headings.text(source) }] : [];
  });
}

/**
 * The description's columns, in `listSources`' order. A column's DataTable source is its sort field (the heading's
 * click and `aria-sort` follow it); the cell shows the column's own source.
 */
function useListColumns(description: ResourceDescription): ReactElement[] {
  const headings = useHeadings(description);
  const extra = new Map((description.extraColumns ?? []).map((c) => [c.source, c]));
  return listSources(description).map((source) => {
    const column = extra.get(source);
    const spec = description.fields[source];
    const sortField = sortFieldOf(description, source);
    return (
      <SortedCol
        key={source}
        source={sortField ?? source}
        label={headings.text(source)}
        cellSx={cardLabel(headings.text(source))}
        disableSort={!sortField}
      >
        {column ? (
          <ExtraColumnValue column={column} />
        ) : (
          <FieldColumnValue source={source} spec={spec} display={description.columnDisplay?.[source]} />
        )}
      </SortedCol>
    );
  });
}

/**
 * Export as the list reads: the listed columns under their headings, one line per record, each cell as the list shows
 * it in the user's language (react-admin's own exporter writes every member of the records as stored, a client's whole
 * price matrices among them).
 */
function useListExporter(description: ResourceDescription): Exporter {
  const headings = useHeadings(description);
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<AppDataProvider>();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return async (records: RaRecord[]) => {
    const sources = listSources(description);
    const cells = await exportCells(description, sources, { queryClient, dataProvider, translate, locale });
    const rows = records.map((r) => cells.map((cell) => cell(r as Record<string, unknown>)));
    downloadText(csvText(sources.map(headings.text), rows), `${description.name}.csv`);
  };
}

/** react-admin's page buttons, their landmark named in the user's language (MUI names it 'pagination navigation'). */
const NamedPaginationActions = (props: ComponentProps<typeof PaginationActions>) => {
  const translate = useTranslate();
  return <PaginationActions {...props} aria-label={translate('app.crud.pagination')} />;
};

/**
 * react-admin's pagination. On a phone it is MUI's own, whose arrows are named in English unless told; react-admin
 * passes the naming through (its type leaves it out) and its wider pagination names them itself.
 */
const ListPagination = () => {
  const translate = useTranslate();
  const props = {
    rowsPerPageOptions: PER_PAGE_OPTIONS,
    getItemAriaLabel: (type: string) => translate(`ra.navigation.${type}`, { _: `Go to ${type} page` }),
    actions: NamedPaginationActions,
  };
  return <Pagination {...props} />;
};

/** The list's table: a click on a row opens its form when the user may edit; dimmed and busy while it waits for rows. */
const ResourceTable = ({ canEdit, children }: { canEdit: boolean; children: ReactNode }) => {
  const waiting = useListWaiting();
  return (
    <DataTable rowClick={canEdit ? 'edit' : false} bulkActionButtons={false} aria-busy={waiting} sx={[cardRowsSx(), waiting && WAITING_SX]}>
      {children}
    </DataTable>
  );
};

const ListView = ({ description }: { description: ResourceDescription }) => {
  const translate = useTranslate();
  const exporter = useListExporter(description);
  const { canAccess: canEdit } = useCanAccess({ resource: description.name, action: 'edit' });
  const { canAccess: mayDelete } = useCanAccess({ resource: description.name, action: 'delete' });
  const canDelete = mayDelete && description.actions?.delete !== false;
  const columns = useListColumns(description);
  const sortColumns = useSortColumns(description);

  return (
    <Box>
      <ResourceBreadcrumbs description={description} />
      <List
        resource={description.name}
        title={false}
        filters={[<SearchInput key="q" source="q" alwaysOn placeholder={translate(description.searchPlaceholder)} />]}
        debounce={SEARCH_DEBOUNCE_MS}
        perPage={PER_PAGE_OPTIONS[0]}
        sort={description.defaultSort}
        exporter={exporter}
        actions={<ListActions create={description.actions?.create !== false} sortColumns={sortColumns} />}
        pagination={<ListPagination />}
        error={<ListLoadError />}
        empty={false}
        // A table wider than the screen scrolls inside its card instead of widening the page. On a phone Create is a
        // round button floating over the bottom right corner (56 px wide, 20 px from the edge): the pagination ends
        // above it on a long list, and its arrows keep left of it on a short one, which ends where the button floats.
        sx={{
          '& .RaList-main': { minWidth: 0, pb: { xs: 9, sm: 0 } },
          '& .RaList-main .MuiTablePagination-toolbar': { pr: { xs: '80px', sm: 2 } },
          '& .RaList-content': LIST_SCROLLER_SX,
        }}
      >
        <ResourceTable canEdit={!!canEdit}>
          {columns}
          {(canEdit || canDelete || !!description.rowActions?.length) && (
            <DataTable.Col label="app.crud.action" align="right" sx={ACTION_COLUMN_SX}>
              <Box sx={{ display: 'inline-flex' }} onClick={stopRowClick}>
                {description.rowActions?.map((RowAction, i) => (
                  <RowAction key={i} />
                ))}
                {canEdit && <EditRowButton />}
                {canDelete && (
                  <DeleteRowButton
                    message={description.messages?.deleted}
                    representation={description.recordRepresentation}
                    deletable={description.deletable}
                    notice={description.deleteNotice}
                  />
                )}
              </Box>
            </DataTable.Col>
          )}
        </ResourceTable>
      </List>
    </Box>
  );
};

/**
 * The list screen of any described resource: search (trimmed by the data
 * provider, debounced, back to page 1), Create and Export, a server-paged table, edit and delete per row.
 * Without the permission the user goes to / before anything is fetched.
 */
export const ResourceList = ({ description }: { description: ResourceDescription }) => (
  <CanAccess resource={description.name} action="list" loading={<PageLoading />} accessDenied={<RedirectHome />}>
    <ListView description={description} />
  </CanAccess>
);
