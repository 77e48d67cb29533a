import { sql } from 'kysely';
import type { Executor } from '../db/database';

export interface AccessRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  consent: number;
  roles: string[];
  permissions: string[];
  agents: number[];
  clients: number[];
}

const accessColumns = sql<AccessRow>`
  u.id, u.first_name, u.last_name, u.email, u.consent,
  coalesce((select array_agg(r.name order by r.name) from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id), '{}') as roles,
  coalesce((select array_agg(distinct p.name) from user_roles ur join role_permissions rp on rp.role_id = ur.role_id
            join permissions p on p.id = rp.permission_id where ur.user_id = u.id), '{}') as permissions,
  coalesce((select array_agg(ua.agent_id::int order by ua.agent_id) from user_agents ua where ua.user_id = u.id), '{}') as agents,
  coalesce((select array_agg(uc.client_id::int order by uc.client_id) from user_clients uc where uc.user_id = u.id), '{}') as clients`;

type TokenAccessRow = AccessRow & { token_id: number; impersonator_id: number | null; expires_at: Date };

/** The user behind a live (unrevoked, unexpired) bearer token, with roles, permissions, agents and clients. */
export async function findAccessByTokenHash(db: Executor, tokenHash: string): Promise<TokenAccessRow | null> {
  const r = await sql<TokenAccessRow>`
    select ${accessColumns}, t.id as token_id, t.impersonator_id, t.expires_at
    from api_tokens t join users u on u.id = t.user_id
    where t.token_hash = ${tokenHash} and t.revoked_at is null and t.expires_at > now()`.execute(db);
  return r.rows[0] ?? null;
}

export async function findAccessByUserId(db: Executor, userId: number): Promise<AccessRow | null> {
  const r = await sql<AccessRow>`select ${accessColumns} from users u where u.id = ${userId}`.execute(db);
  return r.rows[0] ?? null;
}

/** A device's scanner authenticates with its user's API key; only ingestion routes accept it. */
export async function findAccessByApiKeyHash(db: Executor, keyHash: string): Promise<AccessRow | null> {
  const r = await sql<AccessRow>`select ${accessColumns} from users u where u.api_key_hash = ${keyHash}`.execute(db);
  return r.rows[0] ?? null;
}
