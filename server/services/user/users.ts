import { messages } from '../../../src/domain/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { accessWithin, isSuperAdmin, type Principal, ROLE_AGENT, ROLE_CLIENT } from '../../../src/domain/permissions';
import { includesSuperAdmin, relationsForRoles, rolesInclude, userFields, userRefine } from '../../../src/domain/users';
import type { Executor } from '../../db/database';
import { revokeLiveAfterReply } from '../../realtime/revocations';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import { dataReply, recordErrors } from '../../lib/replies';
import { describeDefinition, type ResourcePart } from '../../lib/definitions';
import { definition as users } from '../../../src/resources/users/definition';
import { idArray, resourceRepository, type WriteContext } from '../../lib/resource';
import { hashToken, newToken } from '../../lib/tokens';
import { sessionTokenId } from '../../plugins/auth';
import { UserRecord } from '../../../src/domain/records';

// The user as it leaves the server, shared with the browser.

export { UserRecord };

const TAKEN = messages.taken('Email');
const invalid = messages.choice;

const asStrings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const asIds = (v: unknown) => (Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : []);
const unique = <T>(xs: T[]) => [...new Set(xs)];

/** The permissions the named roles grant. */
async function permissionsOf(trx: Executor, roles: string[]) {
  if (!roles.length) return [];
  const r = await sql<{ name: string }>`select distinct p.name from roles r join role_permissions rp on rp.role_id = r.id
    join permissions p on p.id = rp.permission_id where lower(r.name) = any(${roles.map((n) => n.toLowerCase())}::text[])`.execute(trx);
  return r.rows.map((row) => row.name);
}

/** A stored user (a record of this resource) as a principal: roles, the permissions they grant, agents and clients. */
async function principalOf(trx: Executor, user: Record<string, unknown>): Promise<Principal> {
  const roles = asStrings(user.roles);
  return { roles, permissions: await permissionsOf(trx, roles), agents: asIds(user.agents), clients: asIds(user.clients) };
}

/**
 * Refuses a non-Super-Admin's change to a user whose access exceeds theirs: a Super Admin,
 * a permission they do not hold, an agent or client outside their own. 403: the user is out of reach.
 */
async function guardTarget(req: FastifyRequest, trx: Executor, target: Record<string, unknown>, action: string) {
  const me = req.user!;
  if (isSuperAdmin(me)) return;
  if (includesSuperAdmin(target.roles)) throw new ForbiddenError(`Only a Super Admin may ${action} a Super Admin.`);
  if (!accessWithin(await principalOf(trx, target), me))
    throw new ForbiddenError(`You may not ${action} a user whose access exceeds yours.`);
}

/**
 * Ids the writer may put on a user: a Super Admin any; anyone else only their own agents (clients),
 * plus those the user already has (kept even when the writer does not see them).
 */
function checkAssignable(req: FastifyRequest, field: 'agents' | 'clients', wanted: number[], current: number[]) {
  if (isSuperAdmin(req.user!)) return;
  const own = req.user![field];
  if (wanted.some((id) => !own.includes(id) && !current.includes(id)))
    throw new ValidationError({ [field]: invalid(userFields[field].label) });
}

async function checkExisting(trx: Executor, table: 'agents' | 'clients', ids: number[]) {
  if (!ids.length) return;
  const found = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where id = any(${idArray(ids)})`.execute(trx);
  if (found.rows[0].n !== ids.length) throw new ValidationError({ [table]: invalid(userFields[table].label) });
}

async function beforeWrite(columns: Record<string, unknown>, input: Record<string, unknown>, ctx: WriteContext) {
  const { req, trx, current } = ctx;
  const me = req.user!;
  if (current) await guardTarget(req, trx, current, 'edit');

  const email = String(input.email);
  // The e-mail is where a reset mail goes: whoever changes it can set the password. Only a Super Admin changes it here;
  // a user changes their own on the profile, with the current password.
  if (current && !isSuperAdmin(me) && email.toLowerCase() !== String(current.email).toLowerCase())
    throw new ForbiddenError(messages.othersEmail());
  const taken = await sql<{
    id: number;
  }>`select id from users where lower(email) = ${email.toLowerCase()} ${current ? sql`and id <> ${current.id}` : sql``}`.execute(trx);
  if (taken.rows.length) throw new ValidationError({ email: TAKEN });

  // A password is set here only on create, or by a Super Admin for someone else: a user changes their own on the
  // profile (with the current one) or through the reset mail.
  if (current && typeof input.password === 'string' && input.password) {
    if (current.id === me.id) throw new ValidationError({ password: messages.ownPassword() });
    if (!isSuperAdmin(me)) throw new ValidationError({ password: messages.othersPassword() });
  }

  const roles = unique(asStrings(input.roles).map((r) => r.trim().toLowerCase()));
  const known = await sql<{ name: string }>`select name from roles where lower(name) = any(${roles}::text[])`.execute(trx);
  if (known.rows.length !== roles.length) throw new ValidationError({ roles: invalid(userFields.roles.label) });
  // The Super Admin role is neither offered to nor assignable by anyone else.
  if (!isSuperAdmin(me) && includesSuperAdmin(roles)) throw new ValidationError({ roles: messages.grantSuperAdmin() });
  // A Super Admin cannot demote themselves, so an installation always keeps one.
  if (current && current.id === me.id && includesSuperAdmin(current.roles) && !includesSuperAdmin(roles)) {
    throw new ValidationError({ roles: messages.keepSuperAdmin() });
  }
  if (!isSuperAdmin(me) && current && current.id === me.id) {
    const had = unique(asStrings(current.roles).map((r) => r.toLowerCase()));
    if (had.length !== roles.length || had.some((r) => !roles.includes(r))) throw new ValidationError({ roles: messages.ownRoles() });
  }
  const permissions = await permissionsOf(trx, roles);
  if (!isSuperAdmin(me) && permissions.some((p) => !me.permissions.includes(p))) throw new ValidationError({ roles: messages.rolesHeld() });

  const { agents, clients } = relationsForRoles(input.roles, input.agents, input.clients);
  checkAssignable(req, 'agents', agents, asIds(current?.agents));
  checkAssignable(req, 'clients', clients, asIds(current?.clients));
  await checkExisting(trx, 'agents', unique(agents));
  await checkExisting(trx, 'clients', unique(clients));
  // The user as written must not see data the writer cannot (an Agent-only user for a writer held to clients too).
  const after: Principal = {
    roles,
    permissions,
    agents: mergeRelation(req, 'agents', agents, rolesInclude(roles, ROLE_AGENT), asIds(current?.agents)),
    clients: mergeRelation(req, 'clients', clients, rolesInclude(roles, ROLE_CLIENT), asIds(current?.clients)),
  };
  if (!accessWithin(after, me)) throw new ValidationError({ roles: messages.scopeWithin() });
  return columns;
}

/**
 * The new set of a relation: what was sent, plus what the user had outside the writer's own ids
 * (a restricted writer cannot see, so cannot remove, those); nothing once the role is deselected.
 */
function mergeRelation(req: FastifyRequest, field: 'agents' | 'clients', wanted: number[], hasRole: boolean, current: number[]) {
  if (!hasRole) return [];
  if (isSuperAdmin(req.user!)) return unique(wanted);
  const own = req.user![field];
  return unique([...wanted, ...current.filter((id) => !own.includes(id))]);
}

async function afterWrite(id: number, input: Record<string, unknown>, ctx: WriteContext) {
  const { req, trx, current, mode } = ctx;
  const roles = unique(asStrings(input.roles).map((r) => r.trim().toLowerCase()));
  const { agents, clients } = relationsForRoles(input.roles, input.agents, input.clients);
  const newAgents = mergeRelation(req, 'agents', agents, rolesInclude(input.roles, ROLE_AGENT), asIds(current?.agents));
  const newClients = mergeRelation(req, 'clients', clients, rolesInclude(input.roles, ROLE_CLIENT), asIds(current?.clients));

  await sql`delete from user_roles where user_id = ${id}`.execute(trx);
  await sql`insert into user_roles (user_id, role_id) select ${id}, id from roles where lower(name) = any(${roles}::text[])`.execute(trx);
  await sql`delete from user_agents where user_id = ${id}`.execute(trx);
  if (newAgents.length) await sql`insert into user_agents (user_id, agent_id) select ${id}, unnest(${idArray(newAgents)})`.execute(trx);
  await sql`delete from user_clients where user_id = ${id}`.execute(trx);
  if (newClients.length) await sql`insert into user_clients (user_id, client_id) select ${id}, unnest(${idArray(newClients)})`.execute(trx);

  // Their live subscriptions were signed for the old roles, agents and clients: reconnecting signs them anew.
  if (mode === 'update') revokeLiveAfterReply(req, { users: [id] });
  // A new password signs the user out everywhere else, as a reset does.
  if (mode === 'update' && typeof input.password === 'string' && input.password) {
    await sql`update api_tokens set revoked_at = now() where user_id = ${id} and revoked_at is null and id <> ${sessionTokenId(req)}`.execute(
      trx,
    );
  }
}

export const usersPart: ResourcePart = {
  record: UserRecord,
  from: sql`(select u.id, u.first_name, u.last_name, u.email, u.created_at, u.updated_at,
      u.first_name || ' ' || u.last_name as full_name,
      (u.api_key_hash is not null) as has_api_key,
      coalesce((select array_agg(r.name order by r.name) from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id), '{}') as roles,
      coalesce((select array_agg(ua.agent_id::int order by ua.agent_id) from user_agents ua where ua.user_id = u.id), '{}') as agents,
      coalesce((select array_agg(uc.client_id::int order by uc.client_id) from user_clients uc where uc.user_id = u.id), '{}') as clients
    from users u) as users`,
  // An Agent user sees the users sharing one of their agents; a Client user those sharing one of their clients.
  scope: {
    agent: (ids) => sql<boolean>`id in (select user_id from user_agents where agent_id = any(${idArray(ids)}))`,
    client: (ids) => sql<boolean>`id in (select user_id from user_clients where client_id = any(${idArray(ids)}))`,
  },
  refine: userRefine,
  // checkAssignable: a writer may also keep the ids a user already has, visible to them or not.
  referencesCheckedByHooks: ['agents', 'clients'],
  hooks: {
    beforeWrite,
    afterWrite,
    async beforeDelete(row, { req }) {
      if (row.id === req.user!.id) throw new ForbiddenError('You cannot delete your own account.');
      await guardTarget(req, req.server.db, row, 'delete');
      revokeLiveAfterReply(req, { users: [Number(row.id)] });
    },
  },
};

const ApiKeyReply = dataReply(z.object({ token: z.string() }));

/**
 * GET users/{id}/apikey: a new key, shown once; only its SHA-256 is kept, so the
 * previous key stops working at once. The device ingestion routes accept it.
 */
export function userKeyRoutes(app: FastifyInstance, _opts: unknown, done: () => void) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const repo = resourceRepository(describeDefinition(users, usersPart));
  r.get(
    '/users/:id/apikey',
    {
      config: { access: { permission: 'user' } },
      schema: {
        tags: ['User'],
        summary: "Generate a user's API key (shown once; replaces the previous one)",
        params: z.object({ id: z.string() }),
        response: { 200: ApiKeyReply, ...recordErrors },
      },
    },
    async (req) => {
      const raw = req.params.id;
      if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError('User', raw);
      const user = await repo.find(app.db, req.scope, Number(raw));
      if (!user) throw new NotFoundError('User', raw);
      await guardTarget(req, app.db, user, 'generate an API key for');
      const token = newToken();
      await app.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ api_key_hash: hashToken(token), updated_at: new Date() })
          .where('id', '=', user.id as number)
          .execute();
        await trx
          .insertInto('audit_log')
          .values({ action: 'user.apikey', actor_id: req.user!.id, subject_id: user.id as number })
          .execute();
      });
      return { data: { token } };
    },
  );
  done();
}
