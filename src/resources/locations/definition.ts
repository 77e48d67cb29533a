import { locationFields } from '../../domain/locations';
import { defineResource } from '../define';

/** Sites; a Client user sees the sites where a device serves them (the server part's scope). */
export const definition = defineResource({
  name: 'locations',
  service: 'agent',
  path: 'locations',
  permission: 'location',
  model: 'Location',
  table: 'locations',
  fields: locationFields,
  searchable: ['name', 'state'],
  sortable: ['name', 'state', 'created_at'],
  defaultSort: { field: 'name', order: 'asc' },
  scope: 'server',
  owner: 'agent',
  lists: { text: 'name', filters: ['agent_id'], extra: ['agent_id'] },
  menu: { group: 'setting', icon: 'Place', position: 2, label: 'app.menu.locations' },
  recordRepresentation: 'name',
  pageCache: true,
  server: true,
});

declare module '../define' {
  interface Definitions {
    locations: typeof definition;
  }
}
