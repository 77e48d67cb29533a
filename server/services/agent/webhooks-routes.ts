import { fromDecimalText } from '../../../src/domain/text';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WebhookDeliveryRecord } from '../../../src/domain/records';
import { WEBHOOK_EVENTS } from '../../../src/domain/webhooks';
import { callerOf } from '../../lib/caller';
import { dataReply, ListsReply, recordErrors } from '../../lib/replies';
import type { webhooksService } from './webhooks-service';

/** The events a webhook may subscribe to, and each webhook's latest delivery. */
export function webhookEventRoutes(app: FastifyInstance, opts: { webhooks: ReturnType<typeof webhooksService> }, done: () => void) {
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
        querystring: z.object({
          agent_id: fromDecimalText(z.number({ message: 'Agent is required' }).int().positive('Agent is required')),
        }),
        response: { 200: dataReply(z.array(WebhookDeliveryRecord)), ...recordErrors },
      },
    },
    async (req) => ({ data: await opts.webhooks.latestDeliveries(callerOf(req), req.query.agent_id) }),
  );
  done();
}
