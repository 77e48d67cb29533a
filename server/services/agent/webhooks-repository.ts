import { sql } from 'kysely';
import type { z } from 'zod';
import type { WebhookDeliveryRecord } from '../../../src/domain/records';
import type { DataScope } from '../../../src/domain/permissions';
import type { Executor } from '../../db/database';
import { idArray, type ScopeRule, scopePredicate } from '../../lib/resource';

/** Through the agent; reads keep to the agent's own users (`ownerReads`), so no `client` rule is ever consulted. */
export const webhookScope: ScopeRule = {
  agent: (ids) => sql<boolean>`agent_id = any(${idArray(ids)})`,
};

/** The latest delivery of each of an agent's webhooks the scope reaches. */
export async function latestDeliveries(db: Executor, agentId: number, scope: DataScope) {
  const rows = await sql<
    z.infer<typeof WebhookDeliveryRecord>
  >`select distinct on (d.webhook_id) d.webhook_id, d.event, d.status, d.attempts, d.last_status,
        d.last_error, d.created_at, d.delivered_at, d.next_attempt_at
      from webhook_deliveries d
      where d.webhook_id in (select id from webhooks where agent_id = ${agentId} and ${scopePredicate(scope, webhookScope)})
      order by d.webhook_id, d.id desc`.execute(db);
  return rows.rows;
}
