import type { Identifier } from 'react-admin';
import type { WebhookDelivery } from '../../domain/records';
import type { Request, SelectOption } from '../http';

/** The agent service's calls beyond its resources: an agent's branding and its webhooks' state. */
export const agentCalls = (request: Request) => ({
  /** The agent's colours and logo for the theme. */
  agentBranding: (agentId: Identifier) => request('agent', `agents/${agentId}/branding`),
  /** The latest delivery of each of the agent's webhooks. */
  webhookDeliveries: (agentId: number) => request<WebhookDelivery[]>('agent', 'webhooks/deliveries', { query: { agent_id: agentId } }),
  /** The events a webhook can subscribe to. */
  webhookEvents: () => request<SelectOption[]>('agent', 'webhooks/events'),
});
