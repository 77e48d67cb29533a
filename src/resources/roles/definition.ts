import { roleFields } from '../../domain/roles';
import { defineResource } from '../define';

/** Roles and the permissions they grant; shared by every agent and client. */
export const definition = defineResource({
  name: 'roles',
  service: 'user',
  path: 'roles',
  permission: 'role',
  global: true,
  model: 'Role',
  table: 'roles',
  fields: roleFields,
  searchable: ['name', 'display_name'],
  sortable: ['name', 'created_at'],
  defaultSort: { field: 'name', order: 'asc' },
  scope: 'global',
  lists: { text: 'name', value: 'name' },
  menu: { group: 'configuration', icon: 'AdminPanelSettings', position: 2, label: 'app.menu.roles' },
  recordRepresentation: 'name',
  server: true,
});

declare module '../define' {
  interface Definitions {
    roles: typeof definition;
  }
}
