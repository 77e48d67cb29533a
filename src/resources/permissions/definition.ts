import { permissionFields } from '../../domain/roles';
import { defineResource } from '../define';

/** Permissions; shared by every agent and client. */
export const definition = defineResource({
  name: 'permissions',
  service: 'user',
  path: 'permissions',
  permission: 'permission',
  global: true,
  model: 'Permission',
  table: 'permissions',
  fields: permissionFields,
  searchable: ['name', 'display_name'],
  sortable: ['name', 'created_at'],
  defaultSort: { field: 'name', order: 'asc' },
  scope: 'global',
  lists: { text: 'name', value: 'name' },
  menu: { group: 'configuration', icon: 'VpnKey', position: 3, label: 'app.menu.permissions' },
  recordRepresentation: 'name',
  pageCache: true,
  server: true,
});

declare module '../define' {
  interface Definitions {
    permissions: typeof definition;
  }
}
