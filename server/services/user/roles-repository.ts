import { sql } from 'kysely';
import { ROLE_SUPER_ADMIN } from '../../../src/domain/permissions';
import type { Executor } from '../../db/database';
import { uniqueValueTaken } from '../../lib/unique-value';

/** What role records are read from: each role with its permissions' names and how many users hold it. */
export const rolesSource = sql`(select r.*, coalesce((select array_agg(p.name order by p.name) from role_permissions rp join permissions p on p.id = rp.permission_id
      where rp.role_id = r.id), '{}') as permissions,
      (select count(*) from user_roles ur where ur.role_id = r.id)::int as users_count from roles r) as roles`;

/** The roles the Super Admin role is hidden from, and those granting a permission `held` lacks. */
export const rolesWithin = (held: string[]) =>
  sql<boolean>`(lower(name) <> ${ROLE_SUPER_ADMIN.toLowerCase()} and permissions <@ ${held}::text[])`;

/** Whether another row (not `exceptId`) of `table` has this name, compared as unique names are (`uniqueValueTaken`). */
export const nameTaken = (trx: Executor, table: 'roles' | 'permissions', name: string, exceptId?: unknown) =>
  uniqueValueTaken(trx, { key: `${table}.name`, source: sql.table(table), column: 'name' }, name, exceptId);

/** The users holding a role. */
export async function roleUsers(db: Executor, roleId: number) {
  const rows = await sql<{ user_id: number }>`select user_id::int as user_id from user_roles where role_id = ${roleId}`.execute(db);
  return rows.rows.map((r) => r.user_id);
}

/** The permissions among `names` that exist. */
export async function knownPermissionNames(db: Executor, names: string[]) {
  const known = await sql<{ name: string }>`select name from permissions where name = any(${names}::text[])`.execute(db);
  return known.rows.map((r) => r.name);
}

export async function countPermissions(db: Executor) {
  const all = await sql<{ n: number }>`select count(*)::int as n from permissions`.execute(db);
  return all.rows[0].n;
}

/** Replaces a role's permissions by name. */
export async function replaceRolePermissions(trx: Executor, roleId: number, names: string[]) {
  await sql`delete from role_permissions where role_id = ${roleId}`.execute(trx);
  await sql`insert into role_permissions (role_id, permission_id) select ${roleId}, id from permissions where name = any(${names}::text[])`.execute(
    trx,
  );
}

/** Gives the Super Admin role a permission. */
export async function grantToSuperAdmin(trx: Executor, permissionId: number) {
  await sql`insert into role_permissions (role_id, permission_id) select r.id, ${permissionId} from roles r
    where lower(r.name) = ${ROLE_SUPER_ADMIN.toLowerCase()} on conflict do nothing`.execute(trx);
}
