import { sql } from 'kysely';
import { z } from 'zod';
import type { ResourcePart } from '../../lib/definitions';

/** Devices: the list shows Location Name, Type and Owner (the agent's name). */
export const devicesPart: ResourcePart = {
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
  filters: ['agent_id', 'location_id', 'default_client_id'],
  reads: ['locations', 'agents', 'clients'],
  // Location, owner and default client must be rows the writer may read (registerResource's reference check, 422).
};
