/**
 * Permission names; the server checks them on every route, the browser uses them for the menu and routes.
 * `scan` reads scans and quotes; `scan_edit` and `quote_edit` change them (docs/ARCHITECTURE.md, "Access model").
 */
export const PERMISSIONS = [
  'scan',
  'scan_edit',
  'quote_edit',
  'user',
  'role',
  'permission',
  'device',
  'location',
  'client',
  'agent',
  'product',
  'part',
  'panelgroup',
  'panel',
  'email_template',
  'app_setting',
  'dashboard_statistics',
] as const;
export type PermissionName = (typeof PERMISSIONS)[number];

export const ROLE_SUPER_ADMIN = 'Super Admin';
export const ROLE_AGENT = 'Agent';
export const ROLE_CLIENT = 'Client';

/** What a signed-in user is, as far as access goes. */
export interface Principal {
  roles: string[];
  permissions: string[];
  agents: number[];
  clients: number[];
}

const lower = (s: string) => s.trim().toLowerCase();

/** Role names are compared lower-cased. */
export const hasRole = (p: Pick<Principal, 'roles'>, role: string) => p.roles.some((r) => lower(r) === lower(role));
export const isSuperAdmin = (p: Pick<Principal, 'roles'>) => hasRole(p, ROLE_SUPER_ADMIN);
export const isAgentUser = (p: Pick<Principal, 'roles'>) => hasRole(p, ROLE_AGENT);
export const isClientUser = (p: Pick<Principal, 'roles'>) => hasRole(p, ROLE_CLIENT);

/**
 * A change is made to what the user can see: an edit permission counts only beside the permission reading its records
 * (each resource's `edit` and `permission` in ./resources, which imports this module, so the pairs are written here).
 */
const READ_BEFORE_EDIT: Readonly<Record<string, PermissionName>> = { scan_edit: 'scan', quote_edit: 'scan' };

export const can = (p: Pick<Principal, 'permissions'> | null | undefined, permission: string | null | undefined): boolean => {
  if (!permission) return true;
  if (!p?.permissions.includes(permission)) return false;
  const read = READ_BEFORE_EDIT[permission];
  return read === undefined || p.permissions.includes(read);
};

/**
 * The rows a request may see: each filter is a list of ids the row's agent (or client) must be in,
 * or null for "no constraint". Both filters must hold. Super Admin starts unconstrained; an Agent
 * user is held to their agents, a Client user to their clients; a user who is neither sees nothing.
 * The X_SNG_* selections only narrow (intersect), never widen.
 */
export interface DataScope {
  agents: number[] | null;
  clients: number[] | null;
}

const intersect = (base: number[] | null, narrow: number[] | null): number[] | null => {
  if (narrow === null) return base;
  if (base === null) return [...narrow];
  return base.filter((id) => narrow.includes(id));
};

export function dataScope(p: Principal, selectedAgents: number[] | null = null, selectedClients: number[] | null = null): DataScope {
  let agents: number[] | null = null;
  let clients: number[] | null = null;
  if (!isSuperAdmin(p)) {
    const agentUser = isAgentUser(p);
    const clientUser = isClientUser(p);
    if (agentUser) agents = [...p.agents];
    if (clientUser) clients = [...p.clients];
    if (!agentUser && !clientUser) agents = [];
  }
  return { agents: intersect(agents, selectedAgents), clients: intersect(clients, selectedClients) };
}

/**
 * Is `a`'s access within `b`'s (nobody grants or edits beyond their own)? A Super Admin holds everything;
 * otherwise `a` is no Super Admin, holds only permissions `b` holds, has only agents and clients `b` has (an agent's
 * user holds its devices' API key whatever their roles, so every one counts, and a dimension `b` lacks is empty, not
 * open), and sees no data `b` cannot: on each dimension (agents, clients) `b` is held to, `a` is held to a subset. A
 * user who is neither Agent nor Client sees no data.
 */
export function accessWithin(a: Principal, b: Principal): boolean {
  if (isSuperAdmin(b)) return true;
  if (isSuperAdmin(a)) return false;
  if (!a.permissions.every((p) => b.permissions.includes(p))) return false;
  const held = (x: number[], y: number[]) => x.every((id) => y.includes(id));
  if (!held(a.agents, b.agents) || !held(a.clients, b.clients)) return false;
  if (!isAgentUser(a) && !isClientUser(a)) return true;
  const sa = dataScope(a);
  const sb = dataScope(b);
  const within = (x: number[] | null, y: number[] | null) => y === null || (x !== null && x.every((id) => y.includes(id)));
  return within(sa.agents, sb.agents) && within(sa.clients, sb.clients);
}

export const isUnrestricted = (s: DataScope) => s.agents === null && s.clients === null;

/**
 * The scope a write of records an agent (a client) owns keeps to: the writer's own agents (clients). A user scoped to
 * clients only reaches no agent's records this way, and the reverse; an unrestricted scope stays so.
 */
export function ownerScope(s: DataScope, owner: 'agent' | 'client' | undefined): DataScope {
  if (!owner || isUnrestricted(s)) return s;
  return owner === 'agent' ? { agents: s.agents ?? [], clients: null } : { agents: null, clients: s.clients ?? [] };
}

/** Whether a scope holds any row at all (no dimension narrowed to nothing). */
export const reachesAny = (s: DataScope) => s.agents?.length !== 0 && s.clients?.length !== 0;

/** Is a row with this agent and client inside the scope? Used for single-record checks and real-time events. */
export function inScope(s: DataScope, row: { agent_id?: number | null; client_id?: number | null }): boolean {
  if (s.agents !== null && (row.agent_id == null || !s.agents.includes(row.agent_id))) return false;
  if (s.clients !== null && (row.client_id == null || !s.clients.includes(row.client_id))) return false;
  return true;
}

/**
 * Parses an X_SNG_AGENTS / X_SNG_CLIENTS header: absent, empty or "all" means no selection;
 * otherwise one id, a comma-separated list, or a JSON array of ids. Returns undefined when malformed.
 */
export function parseSelectionHeader(value: string | string[] | undefined): number[] | null | undefined {
  if (value === undefined) return null;
  const raw = (Array.isArray(value) ? value.join(',') : value).trim();
  if (raw === '' || raw.toLowerCase() === 'all' || raw === 'null' || raw === '[]') return null;
  let parts: unknown[];
  if (raw.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!Array.isArray(parsed)) return undefined;
      parts = parsed;
    } catch {
      return undefined;
    }
  } else {
    parts = raw.split(',').map((s) => s.trim());
  }
  const ids: number[] = [];
  for (const part of parts) {
    const n = typeof part === 'number' ? part : typeof part === 'string' && /^\d{1,10}$/.test(part) ? Number(part) : NaN;
    if (!Number.isSafeInteger(n) || n <= 0) return undefined;
    ids.push(n);
  }
  return ids.length ? ids : null;
}

/**
 * Calls whose path names agents or clients (the header selectors themselves) ignore the
 * X_SNG_* selection. The browser leaves the headers off such calls; the server reads them in the
 * full scope. A query string is not part of the path.
 */
export const ignoresSelection = (path: string) =>
  path
    .split('?')[0]
    .split('/')
    .some((segment) => segment === 'agents' || segment === 'clients');
