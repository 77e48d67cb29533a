import { agentFields } from '../../domain/agents';
import { defineResource } from '../define';

/** Agents (scanning businesses), their portal pincode and webhooks (server part: agent service). */
export const definition = defineResource({
  name: 'agents',
  service: 'agent',
  path: 'agents',
  permission: 'agent',
  model: 'Agent',
  table: 'agents',
  fields: agentFields,
  searchable: ['name', 'email', 'phone', 'abn', 'address', 'default_client_name'],
  sortable: ['name', 'email', 'phone', 'is_enabled', 'language', 'default_client_name', 'created_at'],
  defaultSort: { field: 'name', order: 'asc' },
  scope: 'server',
  owner: 'agent',
  lists: { text: 'name' },
  menu: { group: 'setting', icon: 'SupportAgent', position: 4, label: 'app.menu.agents' },
  recordRepresentation: 'name',
  pageCache: true,
  server: true,
});

declare module '../define' {
  interface Definitions {
    agents: typeof definition;
  }
}
