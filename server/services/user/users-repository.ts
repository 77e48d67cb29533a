import { sql } from 'kysely';
import { idArray, type ScopeRule } from '../../lib/resource';
import type { Executor } from '../../db/database';

/** What user records are read from: the user with their roles, agents and clients, never a hash. */
export const usersSource = sql`(select u.id, u.first_name, u.last_name, u.email, u.created_at, u.updated_at,
      u.first_name || ' ' || u.last_name as full_name,
      (u.api_key_hash is not null) as has_api_key,
      coalesce((select array_agg(r.name order by r.name) from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id), '{}') as roles,
      coalesce((select array_agg(ua.agent_id::int order by ua.agent_id) from user_agents ua where ua.user_id = u.id), '{}') as agents,
      coalesce((select array_agg(uc.client_id::int order by uc.client_id) from user_clients uc where uc.user_id = u.id), '{}') as clients
    from users u) as users`;

/** An Agent user sees the users sharing one of their agents; a Client user those sharing one of their clients. */
export const userScope: ScopeRule = {
  agent: (ids) => sql<boolean>`id in (select user_id from user_agents where agent_id = any(${idArray(ids)}))`,
  client: (ids) => sql<boolean>`id in (select user_id from user_clients where client_id = any(${idArray(ids)}))`,
};

/** The permissions the named roles grant. */
export async function permissionsOfRoles(db: Executor, roles: string[]) {
  if (!roles.length) return [];
  const r = await sql<{ name: string }>`select distinct p.name from roles r join role_permissions rp on rp.role_id = r.id
    join permissions p on p.id = rp.permission_id where lower(r.name) = any(${roles.map((n) => n.toLowerCase())}::text[])`.execute(db);
  return r.rows.map((row) => row.name);
}

/** Whether another user (not `exceptId`) has this e-mail, compared lower-cased. */
export async function emailTaken(db: Executor, email: string, exceptId?: unknown) {
  const taken = await sql<{
    id: number;
  }>`select id from users where lower(email) = ${email.toLowerCase()} ${exceptId === undefined ? sql`` : sql`and id <> ${exceptId}`}`.execute(
    db,
  );
  return taken.rows.length > 0;
}

/** The roles among `names` (lower-cased) that exist. */
export async function knownRoleNames(db: Executor, names: string[]) {
  const known = await sql<{ name: string }>`select name from roles where lower(name) = any(${names}::text[])`.execute(db);
  return known.rows.map((r) => r.name);
}

/** How many of `ids` are rows of `table`. */
export async function countExisting(db: Executor, table: 'agents' | 'clients', ids: number[]) {
  const found = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where id = any(${idArray(ids)})`.execute(db);
  return found.rows[0].n;
}

/** Replaces a user's roles (by lower-cased name), agents and clients. */
export async function replaceUserRelations(trx: Executor, id: number, r: { roles: string[]; agents: number[]; clients: number[] }) {
  await sql`delete from user_roles where user_id = ${id}`.execute(trx);
  await sql`insert into user_roles (user_id, role_id) select ${id}, id from roles where lower(name) = any(${r.roles}::text[])`.execute(trx);
  await sql`delete from user_agents where user_id = ${id}`.execute(trx);
  if (r.agents.length) await sql`insert into user_agents (user_id, agent_id) select ${id}, unnest(${idArray(r.agents)})`.execute(trx);
  await sql`delete from user_clients where user_id = ${id}`.execute(trx);
  if (r.clients.length) await sql`insert into user_clients (user_id, client_id) select ${id}, unnest(${idArray(r.clients)})`.execute(trx);
}

/** Revokes a user's sign-in tokens but `keepTokenId`. */
export async function revokeOtherTokens(trx: Executor, userId: number, keepTokenId: number) {
  await sql`update api_tokens set revoked_at = now() where user_id = ${userId} and revoked_at is null and id <> ${keepTokenId}`.execute(
    trx,
  );
}

/**
 * Stores a user's new API key hash and records who made it (the audit log says when). The record's `updated_at` stays:
 * the key is no field of the user's form, and the form open beside the key's button saves from that copy (If-Match).
 */
export async function setApiKeyHash(trx: Executor, userId: number, keyHash: string, actorId: number) {
  await trx.updateTable('users').set({ api_key_hash: keyHash }).where('id', '=', userId).execute();
  await trx.insertInto('audit_log').values({ action: 'user.apikey', actor_id: actorId, subject_id: userId }).execute();
}
