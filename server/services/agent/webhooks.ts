import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { WEBHOOK_EVENTS, webhookFields } from '../../../src/domain/webhooks';
import { dataReply, ListsReply, recordErrors } from '../../lib/replies';
import { idArray, scopePredicate, type ResourceDescription } from '../../lib/resource';
import { agentScope } from './scopes';
import { WebhookDeliveryRecord, WebhookRecord } from '../../../src/domain/records';
import { resourceFacts } from '../../../src/domain/resources';

/** 32 random bytes as Standard Webhooks writes a secret: `whsec_` + base64 (its verifiers base64-decode the rest). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * An agent's webhooks. The secret is made here on create and never read from the body; it is
 * returned to holders of `agent` because the receiver needs it to verify the signature.
 */
export const webhooksResource: ResourceDescription = {
  ...resourceFacts('webhooks'),
  model: 'Webhook',
  table: 'webhooks',
  fields: webhookFields,
  record: WebhookRecord,
  searchable: ['endpoint', 'description'],
  defaultSort: { field: 'created_at', order: 'asc' },
  filters: ['agent_id'],
  // Through the agent: an Agent user's own agents, a Client user's agents serving them.
  scope: {
    agent: (ids) => sql<boolean>`agent_id = any(${idArray(ids)})`,
    client: (ids) => sql<boolean>`agent_id in (select id from agents where ${agentScope.client!(ids)})`,
  },
  ownerAgentColumn: 'agent_id',
  lists: { text: 'endpoint', access: 'read' },
  hooks: {
    beforeWrite(columns, _input, { mode }) {
      return mode === 'create' ? { ...columns, secret: newWebhookSecret() } : columns;
    },
  },
};

const LatestDelivery = WebhookDeliveryRecord;

export function webhookEventRoutes(app: FastifyInstance, _opts: unknown, done: () => void) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/webhooks/events',
    {
      config: { access: { permission: 'agent' } },
      schema: {
        tags: ['Webhook'],
        summary: 'The events a webhook may subscribe to, as select choices',
        response: { 200: ListsReply, ...recordErrors },
      },
    },
    () => WEBHOOK_EVENTS.map((e) => ({ text: e.name, value: e.id })),
  );

  r.get(
    '/webhooks/deliveries',
    {
      config: { access: { permission: 'agent' } },
      schema: {
        tags: ['Webhook'],
        summary: "The latest delivery of each of an agent's webhooks (docs/webhooks.md)",
        querystring: z.object({ agent_id: z.coerce.number({ message: 'Agent is required' }).int().positive('Agent is required') }),
        response: { 200: dataReply(z.array(LatestDelivery)), ...recordErrors },
      },
    },
    async (req) => {
      const rows = await sql<
        z.infer<typeof LatestDelivery>
      >`select distinct on (d.webhook_id) d.webhook_id, d.event, d.status, d.attempts, d.last_status,
        d.last_error, d.created_at, d.delivered_at, d.next_attempt_at
      from webhook_deliveries d
      where d.webhook_id in (select id from webhooks where agent_id = ${req.query.agent_id} and ${scopePredicate(req.scope, webhooksResource.scope)})
      order by d.webhook_id, d.id desc`.execute(app.db);
      return { data: rows.rows };
    },
  );
  done();
}
