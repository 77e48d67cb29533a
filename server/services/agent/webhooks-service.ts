import { randomBytes } from 'node:crypto';
import { webhookFields } from '../../../src/domain/webhooks';
import { WebhookRecord } from '../../../src/domain/records';
import { resourceFacts } from '../../../src/domain/resources';
import { messages } from '../../../src/domain/fields';
import { ValidationError } from '../../errors';
import type { Database } from '../../db/database';
import type { Caller } from '../../lib/caller';
import type { ResourceDescription } from '../../lib/resource';
import { readScopeOf } from '../../lib/resource-description';
import { internalEndpoint, resolvesInward } from './webhook-address';
import { latestDeliveries, webhookScope } from './webhooks-repository';

/** 32 random bytes as Standard Webhooks writes a secret: `whsec_` + base64 (its verifiers base64-decode the rest). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * An agent's webhooks. The secret is made here on create and never read from the body; it is
 * returned to holders of `agent` because the receiver needs it to verify the signature.
 */
export const webhooksResource = (opts: { allowPrivate: boolean }): ResourceDescription => ({
  ...resourceFacts('webhooks'),
  model: 'Webhook',
  table: 'webhooks',
  fields: webhookFields,
  record: WebhookRecord,
  searchable: ['endpoint', 'description'],
  defaultSort: { field: 'created_at', order: 'asc' },
  filters: ['agent_id'],
  scope: webhookScope,
  ownerAgentColumn: 'agent_id',
  lists: { text: 'endpoint', access: 'read' },
  hooks: {
    async beforeWrite(columns, _input, { mode }) {
      // Delivery refuses internal addresses anyway (webhook-delivery.ts); an endpoint that names one, or whose name
      // resolves to one now, is refused here so the form says so, rather than a list of failed deliveries later.
      // WEBHOOK_ALLOW_PRIVATE allows them.
      const endpoint = columns.endpoint;
      if (!opts.allowPrivate && typeof endpoint === 'string' && (internalEndpoint(endpoint) || (await resolvesInward(endpoint)))) {
        throw new ValidationError({ endpoint: messages.publicAddress(webhookFields.endpoint.label) });
      }
      return mode === 'create' ? { ...columns, secret: newWebhookSecret() } : columns;
    },
  },
});

/** The webhooks' service beyond their described routes: what was last delivered. */
export function webhooksService(deps: { db: Database }) {
  return {
    /** The latest delivery of each of an agent's webhooks in the caller's scope (docs/webhooks.md). */
    latestDeliveries: (caller: Pick<Caller, 'actor' | 'scope'>, agentId: number) =>
      latestDeliveries(deps.db, agentId, readScopeOf(resourceFacts('webhooks'), caller)),
  };
}
