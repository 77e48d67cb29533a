import { sql } from 'kysely';
import { idArray, type ScopeRule } from '../../lib/resource';

/** A client is a Client user's own; an Agent user sees the clients their agents serve. */
export const clientScope: ScopeRule = {
  client: (ids) => sql<boolean>`id = any(${idArray(ids)})`,
  agent: (ids) => sql<boolean>`(id in (select default_client_id from agents where id = any(${idArray(ids)}))
    or id in (select default_client_id from devices where agent_id = any(${idArray(ids)})))`,
};
