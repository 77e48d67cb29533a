import { messages, type UserAction } from '../../../src/domain/messages';
import { accessWithin, isSuperAdmin, type Principal, ROLE_AGENT, ROLE_CLIENT } from '../../../src/domain/permissions';
import {
  includesSuperAdmin,
  mayGrantRole,
  relationsForRoles,
  rolesInclude,
  setsPasswordOf,
  userFields,
  userRefine,
} from '../../../src/domain/users';
import { definition as users } from '../../../src/resources/users/definition';
import type { Database, Executor } from '../../db/database';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import { type Caller, sessionOf } from '../../lib/caller';
import { describeDefinition, type ResourcePart } from '../../lib/definitions';
import { resourceRepository, type WriteContext } from '../../lib/resource';
import { hashToken, newToken } from '../../lib/tokens';
import type { AuthUser } from '../../plugins/auth';
import { UserRecord } from '../../../src/domain/records';
import {
  countExisting,
  emailTaken,
  knownRoleNames,
  permissionsOfRoles,
  replaceUserRelations,
  revokeOtherTokens,
  setApiKeyHash,
  userScope,
  usersSource,
} from './users-repository';

const TAKEN = messages.taken('Email');
const invalid = messages.choice;

const asStrings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const asIds = (v: unknown) => (Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : []);
const unique = <T>(xs: T[]) => [...new Set(xs)];

/** A stored user (a record of this resource) as a principal: roles, the permissions they grant, agents and clients. */
async function principalOf(trx: Executor, user: Record<string, unknown>): Promise<Principal> {
  const roles = asStrings(user.roles);
  return { roles, permissions: await permissionsOfRoles(trx, roles), agents: asIds(user.agents), clients: asIds(user.clients) };
}

/**
 * Refuses a non-Super-Admin's change to a user whose access exceeds theirs: a Super Admin,
 * a permission they do not hold, an agent or client outside their own. 403: the user is out of reach.
 */
async function guardTarget(me: AuthUser, trx: Executor, target: Record<string, unknown>, action: UserAction) {
  if (isSuperAdmin(me)) return;
  if (includesSuperAdmin(target.roles)) throw new ForbiddenError(messages.superAdminTarget(action));
  if (!accessWithin(await principalOf(trx, target), me)) throw new ForbiddenError(messages.accessExceeds(action));
}

/**
 * Ids the writer may put on a user: a Super Admin any; anyone else only their own agents (clients),
 * plus those the user already has (kept even when the writer does not see them).
 */
function checkAssignable(me: AuthUser, field: 'agents' | 'clients', wanted: number[], current: number[]) {
  if (isSuperAdmin(me)) return;
  const own = me[field];
  if (wanted.some((id) => !own.includes(id) && !current.includes(id)))
    throw new ValidationError({ [field]: invalid(userFields[field].label) });
}

async function checkExisting(trx: Executor, table: 'agents' | 'clients', ids: number[]) {
  if (!ids.length) return;
  if ((await countExisting(trx, table, ids)) !== ids.length) throw new ValidationError({ [table]: invalid(userFields[table].label) });
}

async function beforeWrite(columns: Record<string, unknown>, input: Record<string, unknown>, ctx: WriteContext) {
  const { actor: me, trx, current } = ctx;
  if (current) await guardTarget(me, trx, current, 'edit');

  const email = String(input.email);
  // The e-mail is where a reset mail goes: whoever changes it can set the password. Only a Super Admin changes it here;
  // a user changes their own on the profile, with the current password.
  if (current && !isSuperAdmin(me)) {
    if (email.toLowerCase() !== String(current.email).toLowerCase()) throw new ForbiddenError(messages.othersEmail());
    // The same address in other letters is no change here either: what is stored stays as it is.
    columns = { ...columns, email: current.email };
  }
  if (await emailTaken(trx, email, current?.id)) throw new ValidationError({ email: TAKEN });

  // A password is set here only on create, or by a Super Admin for someone else: a user changes their own on the
  // profile (with the current one) or through the reset mail.
  if (current && typeof input.password === 'string' && input.password && !setsPasswordOf(me, current.id)) {
    throw new ValidationError({ password: current.id === me.id ? messages.ownPassword() : messages.othersPassword() });
  }

  const roles = unique(asStrings(input.roles).map((r) => r.trim().toLowerCase()));
  if ((await knownRoleNames(trx, roles)).length !== roles.length) throw new ValidationError({ roles: invalid(userFields.roles.label) });
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
  // The user's current roles may stay: guardTarget has found the user's access within the writer's.
  if (roles.some((r) => !mayGrantRole(me, r, current?.roles))) throw new ValidationError({ roles: messages.rolesHeld() });
  const permissions = await permissionsOfRoles(trx, roles);

  // Agents scope only an Agent user and clients only a Client user: sent without the role, they would be dropped unseen.
  const scopeWithoutRole: Record<string, string> = {};
  if (!rolesInclude(input.roles, ROLE_AGENT) && asIds(input.agents).length)
    scopeWithoutRole.agents = messages.scopeWithoutRole('Agents', 'Agent');
  if (!rolesInclude(input.roles, ROLE_CLIENT) && asIds(input.clients).length)
    scopeWithoutRole.clients = messages.scopeWithoutRole('Clients', 'Client');
  if (Object.keys(scopeWithoutRole).length) throw new ValidationError(scopeWithoutRole);
  const { agents, clients } = relationsForRoles(input.roles, input.agents, input.clients);
  checkAssignable(me, 'agents', agents, asIds(current?.agents));
  checkAssignable(me, 'clients', clients, asIds(current?.clients));
  await checkExisting(trx, 'agents', unique(agents));
  await checkExisting(trx, 'clients', unique(clients));
  // The user as written must not see data the writer cannot (an Agent-only user for a writer held to clients too).
  const after: Principal = {
    roles,
    permissions,
    agents: mergeRelation(me, 'agents', agents, rolesInclude(roles, ROLE_AGENT), asIds(current?.agents)),
    clients: mergeRelation(me, 'clients', clients, rolesInclude(roles, ROLE_CLIENT), asIds(current?.clients)),
  };
  if (!accessWithin(after, me)) throw new ValidationError({ roles: messages.scopeWithin() });
  return columns;
}

/**
 * The new set of a relation: what was sent, plus what the user had outside the writer's own ids
 * (a restricted writer cannot see, so cannot remove, those); nothing once the role is deselected.
 */
function mergeRelation(me: AuthUser, field: 'agents' | 'clients', wanted: number[], hasRole: boolean, current: number[]) {
  if (!hasRole) return [];
  if (isSuperAdmin(me)) return unique(wanted);
  const own = me[field];
  return unique([...wanted, ...current.filter((id) => !own.includes(id))]);
}

async function afterWrite(id: number, input: Record<string, unknown>, ctx: WriteContext) {
  const { actor, trx, current, mode } = ctx;
  const roles = unique(asStrings(input.roles).map((r) => r.trim().toLowerCase()));
  const { agents, clients } = relationsForRoles(input.roles, input.agents, input.clients);
  const newAgents = mergeRelation(actor, 'agents', agents, rolesInclude(input.roles, ROLE_AGENT), asIds(current?.agents));
  const newClients = mergeRelation(actor, 'clients', clients, rolesInclude(input.roles, ROLE_CLIENT), asIds(current?.clients));

  await replaceUserRelations(trx, id, { roles, agents: newAgents, clients: newClients });

  // Their live subscriptions were signed for the old roles, agents and clients: reconnecting signs them anew.
  if (mode === 'update') ctx.revokeLive({ users: [id] });
  // A new password signs the user out everywhere else, as a reset does.
  if (mode === 'update' && typeof input.password === 'string' && input.password) {
    await revokeOtherTokens(trx, id, sessionOf(ctx));
  }
}

export const usersPart: ResourcePart = {
  record: UserRecord,
  from: usersSource,
  scope: userScope,
  refine: userRefine,
  // checkAssignable: a writer may also keep the ids a user already has, visible to them or not.
  referencesCheckedByHooks: ['agents', 'clients'],
  hooks: {
    beforeWrite,
    afterWrite,
    async beforeDelete(row, { actor, db, revokeLive }) {
      if (row.id === actor.id) throw new ForbiddenError(messages.ownAccount());
      await guardTarget(actor, db, row, 'delete');
      revokeLive({ users: [Number(row.id)] });
    },
  },
};

/** The users' service beyond their described routes: API keys. */
export function usersService(deps: { db: Database }) {
  const { db } = deps;
  const repo = resourceRepository(describeDefinition(users, usersPart));
  return {
    /**
     * A new API key for a user in the caller's reach, shown once; only its SHA-256 is kept, so the previous key stops
     * working at once. The device ingestion routes accept it.
     */
    async newApiKey(caller: Pick<Caller, 'actor' | 'scope'>, userId: number) {
      const user = await repo.find(db, caller.scope, userId);
      if (!user) throw new NotFoundError('User', userId);
      await guardTarget(caller.actor, db, user, 'api_key');
      const token = newToken();
      await db.transaction().execute((trx) => setApiKeyHash(trx, user.id as number, hashToken(token), caller.actor.id));
      return token;
    },
  };
}
