import { permissionFields, permissionRefine } from '../../domain/roles';
import type { ResourceDescription } from '../types';

/** Permissions: Name, Created, Action; names are lower-case snake words, as the server checks. */
export const permissions: ResourceDescription = {
  name: 'permissions',
  fields: permissionFields,
  searchPlaceholder: 'resources.permissions.search',
  breadcrumbs: { create: 'resources.permissions.breadcrumb.create', edit: 'resources.permissions.breadcrumb.edit' },
  recordRepresentation: 'name',
  defaultSort: { field: 'name', order: 'ASC' },
  extraColumns: [{ source: 'created_at', type: 'datetime' }],
  form: { refine: permissionRefine },
};
