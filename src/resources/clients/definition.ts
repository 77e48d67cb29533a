import { clientFields } from '../../domain/client-fields';
import { defineResource } from '../define';

/** Clients with their price matrices (server part: quote service). */
export const definition = defineResource({
  name: 'clients',
  service: 'quote',
  path: 'clients',
  permission: 'client',
  model: 'Client',
  table: 'clients',
  fields: clientFields,
  searchable: ['name', 'email', 'phone'],
  sortable: ['name', 'currency', 'calculation_method', 'created_at'],
  defaultSort: { field: 'name', order: 'asc' },
  scope: 'server',
  owner: 'client',
  lists: { text: 'name' },
  menu: { group: 'setting', icon: 'Business', position: 3, label: 'app.menu.clients' },
  recordRepresentation: 'name',
  unique: ['name'],
  server: true,
});

declare module '../define' {
  interface Definitions {
    clients: typeof definition;
  }
}
