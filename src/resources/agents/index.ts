import { lazyComponent } from '../../components/lazyComponent';
import { agentFields } from '../../domain/agents';
import type { ResourceDescription } from '../types';

/** Agents: described list and form, the portal link per row and the webhooks panel when editing. */
export const agents: ResourceDescription = {
  name: 'agents',
  fields: agentFields,
  searchPlaceholder: 'resources.agents.search',
  breadcrumbs: { create: 'resources.agents.breadcrumb.create', edit: 'resources.agents.breadcrumb.edit' },
  recordRepresentation: 'name',
  defaultSort: { field: 'name', order: 'ASC' },
  extraColumns: [{ source: 'default_client_name', type: 'text' }],
  rowActions: [lazyComponent(() => import('./PortalLink'), 'PortalLink')],
  form: {
    // The pincode is write-only: required on create, blank on edit keeps the current one.
    helperTexts: { pincode: { create: 'resources.agents.helper.pincode_create', edit: 'resources.agents.helper.pincode_edit' } },
    below: lazyComponent(() => import('./WebhooksPanel'), 'WebhooksPanel'),
  },
};
