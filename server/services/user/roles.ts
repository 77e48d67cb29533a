import { messages } from '../../../src/domain/messages';
import { sql } from 'kysely';
import { z } from 'zod';
import { isSuperAdmin, ROLE_SUPER_ADMIN } from '../../../src/domain/permissions';
import { isBuiltInPermission, isBuiltInRole, isSuperAdminRole, permissionRefine } from '../../../src/domain/roles';
import type { Executor } from '../../db/database';
import { revokeLiveAfterReply } from '../../realtime/revocations';
import { ForbiddenError, ValidationError } from '../../errors';
import type { ResourcePart } from '../../lib/definitions';
import type { WriteContext } from '../../lib/resource';

const TAKEN = messages.taken('Name');
const asStrings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** Names are unique as the code compares them (roles lower-cased); said as a field error, not a 500. */
async function checkUniqueName(trx: Executor, table: 'roles' | 'permissions', name: string, id?: unknown) {
  const other = await sql<{ id: number }>`select id from ${sql.table(table)} where lower(name) = ${name.toLowerCase()}
    ${id === undefined ? sql`` : sql`and id <> ${id}`}`.execute(trx);
  if (other.rows.length) throw new ValidationError({ name: TAKEN });
}

/** The users holding a role: their live subscriptions go when its permissions change. */
async function roleUsers(db: Executor, roleId: number) {
  const rows = await sql<{ user_id: number }>`select user_id::int as user_id from user_roles where role_id = ${roleId}`.execute(db);
  return rows.rows.map((r) => r.user_id);
}

export const RoleRecord = z.object({
  id: z.number(),
  name: z.string(),
  display_name: z.string().nullable(),
  description: z.string().nullable(),
  permissions: z.array(z.string()),
  created_at: z.date(),
  updated_at: z.date(),
});

export const rolesPart: ResourcePart = {
  record: RoleRecord,
  from: sql`(select r.*, coalesce((select array_agg(p.name order by p.name) from role_permissions rp join permissions p on p.id = rp.permission_id
      where rp.role_id = r.id), '{}') as permissions from roles r) as roles`,
  // Roles are global: no agent or client owns one, and a change reaches every agent's users.
  // The user form sends role names, so the choices carry names.
  // Only a Super Admin sees (so may edit or choose) the Super Admin role; anyone else sees only the
  // roles whose permissions they all hold, so the user form offers only what they may grant.
  where: (req) =>
    isSuperAdmin(req.user!)
      ? null
      : sql<boolean>`(lower(name) <> ${ROLE_SUPER_ADMIN.toLowerCase()} and permissions <@ ${req.user!.permissions}::text[])`,
  hooks: {
    async beforeWrite(columns, input, { req, trx, current }: WriteContext) {
      const name = String(input.name);
      if (current && isBuiltInRole(String(current.name)) && name !== current.name) {
        throw new ValidationError({ name: messages.fixedName('role', String(current.name)) });
      }
      await checkUniqueName(trx, 'roles', name, current?.id);
      const wanted = [...new Set(asStrings(input.permissions))];
      const known = await sql<{ name: string }>`select name from permissions where name = any(${wanted}::text[])`.execute(trx);
      if (known.rows.length !== wanted.length) throw new ValidationError({ permissions: messages.choice('Permissions') });
      // Nobody grants a permission they do not hold; roles holding more are hidden from them (`where`).
      const me = req.user!;
      if (!isSuperAdmin(me) && wanted.some((p) => !me.permissions.includes(p)))
        throw new ValidationError({ permissions: messages.permissionsHeld() });
      if (current && isSuperAdminRole(String(current.name))) {
        // Taking a permission from Super Admin could lock every administrator out of a screen.
        const all = await sql<{ n: number }>`select count(*)::int as n from permissions`.execute(trx);
        if (wanted.length !== all.rows[0].n) throw new ValidationError({ permissions: messages.superAdminPermissions() });
      }
      return columns;
    },
    async afterWrite(id, input, { req, trx, mode }) {
      if (mode === 'update') revokeLiveAfterReply(req, { users: await roleUsers(trx, id) });
      const wanted = [...new Set(asStrings(input.permissions))];
      await sql`delete from role_permissions where role_id = ${id}`.execute(trx);
      await sql`insert into role_permissions (role_id, permission_id) select ${id}, id from permissions where name = any(${wanted}::text[])`.execute(
        trx,
      );
    },
    async beforeDelete(row, { req }) {
      if (isBuiltInRole(String(row.name))) throw new ForbiddenError(`The ${String(row.name)} role cannot be deleted.`);
      revokeLiveAfterReply(req, { users: await roleUsers(req.server.db, Number(row.id)) });
    },
  },
};

export const PermissionRecord = z.object({
  id: z.number(),
  name: z.string(),
  display_name: z.string().nullable(),
  description: z.string().nullable(),
  created_at: z.date(),
  updated_at: z.date(),
});

export const permissionsPart: ResourcePart = {
  record: PermissionRecord,
  // The role form sends permission names, so the choices carry names.
  refine: permissionRefine,
  hooks: {
    async beforeWrite(columns, input, { trx, current }: WriteContext) {
      const name = String(input.name);
      // Routes check the product's permission names in code: renaming one would lock its screen for everybody.
      if (current && isBuiltInPermission(String(current.name)) && name !== current.name) {
        throw new ValidationError({ name: messages.fixedName('permission', String(current.name)) });
      }
      await checkUniqueName(trx, 'permissions', name, current?.id);
      return columns;
    },
    async afterWrite(id, _input, { trx, mode }) {
      // The Super Admin role holds every permission, new ones included.
      if (mode === 'create') {
        await sql`insert into role_permissions (role_id, permission_id) select r.id, ${id} from roles r
          where lower(r.name) = ${ROLE_SUPER_ADMIN.toLowerCase()} on conflict do nothing`.execute(trx);
      }
    },
    beforeDelete(row) {
      if (isBuiltInPermission(String(row.name))) throw new ForbiddenError(`The ${String(row.name)} permission cannot be deleted.`);
    },
  },
};
