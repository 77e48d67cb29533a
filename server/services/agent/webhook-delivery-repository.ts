import { sql } from 'kysely';
import type { WebhookFailure } from '../../../src/domain/webhooks';
import type { Executor } from '../../db/database';

export interface Due {
  id: number;
  message_id: string;
  payload: unknown;
  attempts: number;
  endpoint: string;
  secret: string;
}

/**
 * Claims up to `limit` due deliveries, at most one per endpoint and none for an endpoint that already has one in
 * flight (in any process): `for update skip locked`, then a claim that lasts the attempt plus a margin.
 */
export async function claimDue(db: Executor, limit: number, claimSeconds: number) {
  const due = await sql<Due>`update webhook_deliveries d set claimed_until = now() + make_interval(secs => ${claimSeconds})
    from webhooks w
    where w.id = d.webhook_id and d.status = 'pending' and (d.claimed_until is null or d.claimed_until <= now())
      and d.id in (
        select id from webhook_deliveries where id in (
          select distinct on (w2.endpoint) d2.id
          from webhook_deliveries d2 join webhooks w2 on w2.id = d2.webhook_id
          where d2.status = 'pending' and d2.next_attempt_at <= now() and (d2.claimed_until is null or d2.claimed_until <= now())
            and not exists (
              select 1 from webhook_deliveries c join webhooks cw on cw.id = c.webhook_id
              where c.claimed_until > now() and c.status = 'pending' and cw.endpoint = w2.endpoint)
          order by w2.endpoint, d2.next_attempt_at, d2.id)
        order by next_attempt_at, id limit ${limit}
        for update skip locked)
    returning d.id, d.message_id, d.payload, d.attempts, w.endpoint, w.secret`.execute(db);
  return due.rows;
}

/** The outcome of an attempt, as recorded. */
interface Outcome {
  attempts: number;
  status: number | null;
  failure: WebhookFailure;
}

/** Delivered: the claim is released. */
export async function recordDelivered(db: Executor, id: number, attempts: number, status: number | null) {
  await sql`update webhook_deliveries set status = 'delivered', attempts = ${attempts}, last_status = ${status}, last_error = null,
      delivered_at = now(), claimed_until = null where id = ${id}`.execute(db);
}

/** Failed for good: the claim is released. */
export async function recordFailed(db: Executor, id: number, o: Outcome) {
  await sql`update webhook_deliveries set status = 'failed', attempts = ${o.attempts}, last_status = ${o.status}, last_error = ${o.failure},
      claimed_until = null where id = ${id}`.execute(db);
}

/** Failed this time: tried again after `delaySeconds`; the claim is released. */
export async function recordRetry(db: Executor, id: number, o: Outcome, delaySeconds: number) {
  await sql`update webhook_deliveries set attempts = ${o.attempts}, last_status = ${o.status}, last_error = ${o.failure}, claimed_until = null,
      next_attempt_at = now() + make_interval(secs => ${delaySeconds}) where id = ${id}`.execute(db);
}
