import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import { roleFields } from '../../domain/roles';
import type { ResourceDescription } from '../types';

/** Roles (spec 1 §2, §5): Name, Created, Action; the permissions input offers permission names from permissions/lists. */
export const roles: ResourceDescription = {
  name: 'roles',
  icon: AdminPanelSettingsIcon,
  fields: roleFields,
  searchPlaceholder: 'resources.roles.search',
  breadcrumbs: { create: 'resources.roles.breadcrumb.create', edit: 'resources.roles.breadcrumb.edit' },
  recordRepresentation: 'name',
  sortable: ['name', 'created_at'],
  defaultSort: { field: 'name', order: 'ASC' },
  extraColumns: [{ source: 'created_at', type: 'datetime', sortable: true }],
};
