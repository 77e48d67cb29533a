import { Box } from '@mui/material';
import {
  CanAccess,
  CreateButton,
  DataTable,
  ExportButton,
  List,
  Pagination,
  SearchInput,
  TopToolbar,
  useCanAccess,
  useTranslate,
} from 'react-admin';
import { PageLoading } from '../../components/PageLoading';
import { RedirectHome } from '../../components/RequirePermission';
import { PER_PAGE_OPTIONS, SEARCH_DEBOUNCE_MS } from '../../config';
import type { ResourceDescription } from '../types';
import { DeleteRowButton } from './DeleteRowButton';
import { EditRowButton } from './EditRowButton';
import { FieldColumnValue } from './FieldColumnValue';
import { ResourceBreadcrumbs } from './ResourceBreadcrumbs';

const ListActions = () => (
  <TopToolbar>
    <CreateButton label="app.crud.create" />
    <ExportButton />
  </TopToolbar>
);

const ListView = ({ description }: { description: ResourceDescription }) => {
  const translate = useTranslate();
  const { canAccess: canEdit } = useCanAccess({ resource: description.name, action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: description.name, action: 'delete' });
  const columns = Object.entries(description.fields).filter(([, spec]) => spec.list);

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
        actions={<ListActions />}
        pagination={<Pagination rowsPerPageOptions={PER_PAGE_OPTIONS} />}
        empty={false}
      >
        <DataTable rowClick={false} bulkActionButtons={false}>
          {columns.map(([source, spec]) => (
            <DataTable.Col key={source} source={source} disableSort={!description.sortable.includes(source)}>
              <FieldColumnValue source={source} spec={spec} />
            </DataTable.Col>
          ))}
          {(canEdit || canDelete) && (
            <DataTable.Col label="app.crud.action" align="right">
              <Box sx={{ display: 'inline-flex' }}>
                {canEdit && <EditRowButton />}
                {canDelete && <DeleteRowButton />}
              </Box>
            </DataTable.Col>
          )}
        </DataTable>
      </List>
    </Box>
  );
};

/**
 * The list screen of any described resource (spec 1 §2 list pattern): search (trimmed by the data
 * provider, debounced, back to page 1), Create and Export, a server-paged table, edit and delete per row.
 * Without the permission the user goes to / before anything is fetched.
 */
export const ResourceList = ({ description }: { description: ResourceDescription }) => (
  <CanAccess resource={description.name} action="list" loading={<PageLoading />} accessDenied={<RedirectHome />}>
    <ListView description={description} />
  </CanAccess>
);
