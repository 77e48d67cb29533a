import { roleFields } from '../../domain/roles';
import type { ResourceDescription } from '../types';

/** Roles: Name, Created, Action; the permissions input offers permission names from permissions/lists. */
export const roles: ResourceDescription = {
  name: 'roles',
  fields: roleFields,
  searchPlaceholder: 'resources.roles.search',
  breadcrumbs: { create: 'resources.roles.breadcrumb.create', edit: 'resources.roles.breadcrumb.edit' },
  recordRepresentation: 'name',
  defaultSort: { field: 'name', order: 'ASC' },
  extraColumns: [{ source: 'created_at', type: 'datetime' }],
};
