import { sql } from 'kysely';
import type { DataScope } from '../../../src/domain/permissions';
import type { Executor } from '../../db/database';
import { scopePredicate } from '../../lib/resource';
import { agentScope } from './scopes';

/** What agent records are read from: never the pincode hash, only whether one is set, and the default client's name. */
export const agentsSource = sql`(select a.*, a.pincode_hash is not null as has_pincode, c.name as default_client_name
    from agents a left join clients c on c.id = a.default_client_id) as agents`;

/** An agent's colours and logo, when the scope reaches it. */
export async function findBranding(db: Executor, id: number, scope: DataScope) {
  const rows = await sql<{
    id: number;
    name: string;
    primary_color: string;
    text_color: string;
    logo: string | null;
  }>`select id, name, primary_color, text_color, logo from agents
      where id = ${id} and ${scopePredicate(scope, agentScope)}`.execute(db);
  return rows.rows[0];
}

/** What the customer portal shows of an agent. */
export const findPortalFace = (db: Executor, id: number) =>
  db
    .selectFrom('agents')
    .select(['id', 'name', 'primary_color', 'text_color', 'logo', 'blurb', 'portal_mode'])
    .where('id', '=', id)
    .executeTakeFirst();

/** An enabled agent's pincode hash (null when none is set). */
export const findEnabledPincode = (db: Executor, id: number) =>
  db.selectFrom('agents').select(['id', 'pincode_hash']).where('id', '=', id).where('is_enabled', '=', 1).executeTakeFirst();
