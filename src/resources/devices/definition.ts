import { deviceFields } from '../../domain/devices';
import { defineResource } from '../define';

/** Scanning devices with their site, owner and default client's names (server part: agent service). */
export const definition = defineResource({
  name: 'devices',
  service: 'agent',
  path: 'devices',
  permission: 'device',
  model: 'Device',
  table: 'devices',
  fields: deviceFields,
  searchable: ['serial', 'location_name', 'owner'],
  unique: ['serial'],
  sortable: ['serial', 'type', 'location_name', 'owner', 'default_client_name', 'created_at'],
  defaultSort: { field: 'location_name', order: 'asc' },
  scope: { agent: 'agent_id', client: 'default_client_id' },
  owner: 'agent',
  lists: { text: 'serial' },
  menu: { group: 'setting', icon: 'Sensors', position: 1, label: 'app.menu.devices' },
  recordRepresentation: 'serial',
  pageCache: true,
  server: true,
});

declare module '../define' {
  interface Definitions {
    devices: typeof definition;
  }
}
