import { sql } from 'kysely';
import type { ResourcePart } from '../../lib/definitions';
import { idArray } from '../../lib/resource';

/** Agent users see their agents' sites; Client users the sites where a device serves them. */
export const locationsPart: ResourcePart = {
  scope: {
    agent: (ids) => sql<boolean>`agent_id = any(${idArray(ids)})`,
    client: (ids) => sql<boolean>`id in (select location_id from devices where default_client_id = any(${idArray(ids)}))`,
  },
  ownerAgentColumn: 'agent_id',
};
