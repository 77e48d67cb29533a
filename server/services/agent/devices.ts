import { sql } from 'kysely';
import { z } from 'zod';
import { deviceFields } from '../../../src/domain/devices';
import { messages } from '../../../src/domain/messages';
import { ValidationError } from '../../errors';
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
  hooks: {
    // A device stands at a site of its owner (or at a site no agent owns): its scans carry both, and another agent's
    // site would show in its owner's lists under a name its users cannot open.
    async beforeWrite(columns, _input, { trx, current }) {
      if (columns.location_id === undefined && columns.agent_id === undefined) return columns;
      const locationId = Number(columns.location_id ?? current?.location_id);
      const agentId = Number(columns.agent_id ?? current?.agent_id);
      const site = await trx.selectFrom('locations').select('agent_id').where('id', '=', locationId).executeTakeFirst();
      if (site && site.agent_id !== null && site.agent_id !== agentId)
        throw new ValidationError({ location_id: messages.siteOfOwner(deviceFields.location_id.label) });
      return columns;
    },
  },
};
