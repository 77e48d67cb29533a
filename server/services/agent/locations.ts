import { sql } from 'kysely';
import { z } from 'zod';
import { locationFields } from '../../../src/domain/locations';
import { idArray, type ResourceDescription } from '../../lib/resource';
import { resourceFacts } from '../../../src/domain/resources';

export const locationsResource: ResourceDescription = {
  ...resourceFacts('locations'),
  model: 'Location',
  table: 'locations',
  fields: locationFields,
  record: z.object({
    id: z.number(),
    name: z.string(),
    state: z.string(),
    agent_id: z.number().nullable(),
    created_at: z.date(),
    updated_at: z.date(),
  }),
  searchable: ['name', 'state'],
  defaultSort: { field: 'name', order: 'asc' },
  // Agent users see their agents' sites; Client users the sites where a device serves them.
  scope: {
    agent: (ids) => sql<boolean>`agent_id = any(${idArray(ids)})`,
    client: (ids) => sql<boolean>`id in (select location_id from devices where default_client_id = any(${idArray(ids)}))`,
  },
  ownerAgentColumn: 'agent_id',
  lists: { text: 'name' },
};
