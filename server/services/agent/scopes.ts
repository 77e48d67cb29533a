import { sql } from 'kysely';
import { idArray, type ScopeRule } from '../../lib/resource';

/** An agent is an Agent user's own; a Client user sees the agents that serve their clients. */
export const agentScope: ScopeRule = {
  agent: (ids) => sql<boolean>`id = any(${idArray(ids)})`,
  client: (ids) => sql<boolean>`(default_client_id = any(${idArray(ids)})
    or id in (select agent_id from devices where default_client_id = any(${idArray(ids)})))`,
};
