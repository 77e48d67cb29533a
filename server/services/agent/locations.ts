import { sql } from 'kysely';
import type { ResourcePart } from '../../lib/definitions';
import { idArray } from '../../lib/resource';

/**
 * Agent users see their agents' sites; Client users the sites where a device serves them and those where their clients
 * have scans (a scan's client may differ from its device's default), read from the dashboard's yearly counts
 * (`scan_stats`, a few rows per site) rather than the scans themselves.
 */
export const locationsPart: ResourcePart = {
  scope: {
    agent: (ids) => sql<boolean>`agent_id = any(${idArray(ids)})`,
    client: (ids) => sql<boolean>`(id in (select location_id from devices where default_client_id = any(${idArray(ids)}))
      or id in (select location_id from scan_stats where grain = 'y' and n > 0 and client_id = any(${idArray(ids)})))`,
  },
  ownerAgentColumn: 'agent_id',
};
