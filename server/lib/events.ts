import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { WebhookEvent } from '../../src/domain/webhooks';
import type { Executor } from '../db/database';
import type { Broadcaster } from '../realtime/broadcaster';

/**
 * The event publisher the services share (scans now, quotes next). Webhooks: an event is written as one
 * `webhook_deliveries` row per subscribed webhook of the agent, in the transaction of the change it reports
 * (transactional outbox: the change and its deliveries commit or roll back together); the agent service's deliverer
 * sends them (services/agent/webhook-delivery.ts, docs/webhooks.md). Live events go out through the broadcaster after
 * the commit.
 */

/**
 * Queues `event` for every webhook of the agent subscribed to it; returns how many deliveries were written. Call it
 * with the transaction that makes the change, so the change and its deliveries commit (or roll back) together.
 */
export async function enqueueWebhooks(db: Executor, agentId: number, event: WebhookEvent, data: unknown) {
  const r = await sql`insert into webhook_deliveries (message_id, webhook_id, event, payload)
    select 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, ${event}, ${JSON.stringify({ type: event, timestamp: new Date().toISOString(), data })}::jsonb
    from webhooks w where w.agent_id = ${agentId} and ${event} = any(w.events)`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** The broadcaster when the app has one (server/realtime decorates it; a service deployed alone may run without). */
export const broadcasterOf = (app: FastifyInstance): Broadcaster | undefined =>
  (app as Partial<Pick<FastifyInstance, 'broadcaster'>>).broadcaster;
