import { messages } from '../../../src/domain/messages';
import { z } from 'zod';
import { isSuperAdmin } from '../../../src/domain/permissions';
import { isBuiltInPermission, isBuiltInRole, isSuperAdminRole, permissionRefine } from '../../../src/domain/roles';
import type { Executor } from '../../db/database';
import { ForbiddenError, ValidationError } from '../../errors';
import type { ResourcePart } from '../../lib/definitions';
import type { WriteContext } from '../../lib/resource';
import {
  countPermissions,
  grantToSuperAdmin,
  knownPermissionNames,
  nameTaken,
  replaceRolePermissions,
  roleUsers,
  rolesSource,
  rolesWithin,
} from './roles-repository';

const TAKEN = messages.taken('Name');
const asStrings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** Names are unique as the code compares them (roles lower-cased); said as a field error, not a 500. */
async function checkUniqueName(trx: Executor, table: 'roles' | 'permissions', name: string, id?: unknown) {
  if (await nameTaken(trx, table, name, id)) throw new ValidationError({ name: TAKEN });
}

export const RoleRecord = z.object({
  id: z.number(),
  name: z.string(),
  display_name: z.string().nullable(),
  description: z.string().nullable(),
  permissions: z.array(z.string()),
  /** Users holding the role, whoever's scope they are in: a delete takes it from all of them. */
  users_count: z.number(),
  created_at: z.date(),
  updated_at: z.date(),
});

export const rolesPart: ResourcePart = {
  record: RoleRecord,
  from: rolesSource,
  // Roles are global: no agent or client owns one, and a change reaches every agent's users.
  // The user form sends role names, so the choices carry names.
  // Only a Super Admin sees (so may edit or choose) the Super Admin role; anyone else sees only the
  // roles whose permissions they all hold, so the user form offers only what they may grant.
  where: (actor) => (isSuperAdmin(actor) ? null : rolesWithin(actor.permissions)),
  hooks: {
    async beforeWrite(columns, input, { actor: me, trx, current }: WriteContext) {
      const name = String(input.name);
      if (current && isBuiltInRole(String(current.name)) && name !== current.name) {
        throw new ValidationError({ name: messages.fixedName('role', String(current.name)) });
      }
      await checkUniqueName(trx, 'roles', name, current?.id);
      const wanted = [...new Set(asStrings(input.permissions))];
      if ((await knownPermissionNames(trx, wanted)).length !== wanted.length)
        throw new ValidationError({ permissions: messages.choice('Permissions') });
      // Nobody grants a permission they do not hold; roles holding more are hidden from them (`where`).
      if (!isSuperAdmin(me) && wanted.some((p) => !me.permissions.includes(p)))
        throw new ValidationError({ permissions: messages.permissionsHeld() });
      if (current && isSuperAdminRole(String(current.name))) {
        // Taking a permission from Super Admin could lock every administrator out of a screen.
        if (wanted.length !== (await countPermissions(trx))) throw new ValidationError({ permissions: messages.superAdminPermissions() });
      }
      return columns;
    },
    async afterWrite(id, input, { revokeLive, trx, mode }) {
      if (mode === 'update') revokeLive({ users: await roleUsers(trx, id) });
      const wanted = [...new Set(asStrings(input.permissions))];
      await replaceRolePermissions(trx, id, wanted);
    },
    async beforeDelete(row, { db, revokeLive }) {
      if (isBuiltInRole(String(row.name))) throw new ForbiddenError(messages.builtInRole(String(row.name)));
      revokeLive({ users: await roleUsers(db, Number(row.id)) });
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
      if (mode === 'create') await grantToSuperAdmin(trx, id);
    },
    beforeDelete(row) {
      if (isBuiltInPermission(String(row.name))) throw new ForbiddenError(messages.builtInPermission(String(row.name)));
    },
  },
};
