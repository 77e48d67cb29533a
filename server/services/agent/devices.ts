import { sql } from 'kysely';
import { z } from 'zod';
import { deviceFields } from '../../../src/domain/devices';
import { idArray, type ResourceDescription } from '../../lib/resource';
import { resourceFacts } from '../../../src/domain/resources';

/** Devices: the list shows Location Name, Type and Owner (the agent's name). */
export const devicesResource: ResourceDescription = {
  ...resourceFacts('devices'),
  model: 'Device',
  table: 'devices',
  fields: deviceFields,
  record: z.object({
    id: z.number(),
    location_id: z.number(),
    location_name: z.string(),
    type: z.string(),
    agent_id: z.number(),
    owner: z.string(),
    serial: z.string(),
    default_client_id: z.number(),
    default_client_name: z.string(),
    created_at: z.date(),
    updated_at: z.date(),
  }),
  from: sql`(select d.*, l.name as location_name, a.name as owner, c.name as default_client_name
    from devices d join locations l on l.id = d.location_id join agents a on a.id = d.agent_id join clients c on c.id = d.default_client_id) as devices`,
  searchable: ['serial', 'location_name', 'owner'],
  defaultSort: { field: 'location_name', order: 'asc' },
  filters: ['agent_id', 'location_id', 'default_client_id'],
  // Agent users see their agents' devices; Client users the devices serving their clients.
  scope: {
    agent: (ids) => sql<boolean>`agent_id = any(${idArray(ids)})`,
    client: (ids) => sql<boolean>`default_client_id = any(${idArray(ids)})`,
  },
  ownerAgentColumn: 'agent_id',
  // Location, owner and default client must be rows the writer may read (registerResource's reference check, 422).
  lists: { text: 'serial' },
};
