import type { FieldSpecs, FormMode } from './fields';
import { messages } from './messages';
import { PASSWORD_MIN } from './password-rules';
import { isSuperAdmin, ROLE_AGENT, ROLE_CLIENT, ROLE_SUPER_ADMIN, type Principal } from './permissions';

/** The user form: names, e-mail, roles by name, agents/clients by id, password on create only. */
export const userFields = {
  first_name: { type: 'text', label: 'First Name', required: true, max: 255, list: true },
  last_name: { type: 'text', label: 'Last Name', required: true, max: 255, list: true },
  email: { type: 'text', label: 'Email', required: true, email: true, max: 255, list: true },
  roles: { type: 'references', label: 'Roles', reference: 'roles', by: 'name', required: true, virtual: true, list: true },
  agents: { type: 'references', label: 'Agents', reference: 'agents', virtual: true },
  clients: { type: 'references', label: 'Clients', reference: 'clients', virtual: true },
  /** Blank on edit means unchanged; stored as an argon2 hash in users.password_hash. */
  password: { type: 'secret', label: 'Password', requiredOnCreate: true, min: PASSWORD_MIN },
} satisfies FieldSpecs;

const lower = (s: string) => s.trim().toLowerCase();
const holds = (roles: unknown, role: string) =>
  Array.isArray(roles) && roles.some((r) => typeof r === 'string' && lower(r) === lower(role));
const isEmpty = (v: unknown) => !Array.isArray(v) || v.length === 0;

/** Role names are compared lower-cased. */
export const rolesInclude = (roles: unknown, role: string) => holds(roles, role);
export const includesSuperAdmin = (roles: unknown) => holds(roles, ROLE_SUPER_ADMIN);

/**
 * Whether `me` may put `role` on a user who has `currentRoles` (none on create): a Super Admin any; anyone else only a
 * role they hold, or one the user has already (keeping a role is not granting it).
 */
export const mayGrantRole = (me: Pick<Principal, 'roles'>, role: string, currentRoles?: unknown) =>
  isSuperAdmin(me) || holds(me.roles, role) || holds(currentRoles, role);

/** Whether `me` may set the password of the user `id` from the user form: a Super Admin, for someone else. */
export const setsPasswordOf = (me: (Pick<Principal, 'roles'> & { id: number }) | null, id: unknown) =>
  !!me && isSuperAdmin(me) && id !== me.id;

/** Agents are required with the Agent role, clients with the Client role. */
export function userRefine(body: Record<string, unknown>, _mode?: FormMode): Record<string, string> | null {
  const errors: Record<string, string> = {};
  if (holds(body.roles, ROLE_AGENT) && isEmpty(body.agents)) errors.agents = messages.required(userFields.agents.label);
  if (holds(body.roles, ROLE_CLIENT) && isEmpty(body.clients)) errors.clients = messages.required(userFields.clients.label);
  return Object.keys(errors).length ? errors : null;
}

/** Deselecting the Agent role clears the agents, deselecting Client clears the clients. */
export function relationsForRoles(roles: unknown, agents: unknown, clients: unknown): { agents: number[]; clients: number[] } {
  const ids = (v: unknown) => (Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : []);
  return {
    agents: holds(roles, ROLE_AGENT) ? ids(agents) : [],
    clients: holds(roles, ROLE_CLIENT) ? ids(clients) : [],
  };
}
