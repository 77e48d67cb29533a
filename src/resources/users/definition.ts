import { userFields } from '../../domain/users';
import { defineResource } from '../define';

/** Users of the back office: roles, agents and clients, impersonation and the API key (server part: user service). */
export const definition = defineResource({
  name: 'users',
  service: 'user',
  path: 'users',
  permission: 'user',
  model: 'User',
  table: 'users',
  fields: userFields,
  searchable: ['first_name', 'last_name', 'full_name', 'email'],
  sortable: ['first_name', 'last_name', 'email', 'created_at'],
  defaultSort: { field: 'created_at', order: 'desc' },
  scope: 'server',
  lists: { text: 'full_name', access: 'read' },
  menu: { group: 'configuration', icon: 'People', position: 1, label: 'app.menu.users' },
  recordRepresentation: 'full_name',
  server: true,
});

declare module '../define' {
  interface Definitions {
    users: typeof definition;
  }
}
