import type { RouteAccess } from '../../server/plugins/auth';
import type { ResourceDefinition } from '../../src/resources/define';
import { OPTION_NAMES } from '../../src/domain/options';
import type { builders } from './helper';
import { sampleRecord } from './scratch-resource';

/**
 * The access matrix: one entry for every /api route, keyed `METHOD url` as Fastify registered
 * it. `access-matrix.test.ts` walks the app's own route table, so a route without an entry here fails that test.
 *
 * An entry says the route's access on purpose (a route that becomes public, or changes its permission, must be
 * changed here too) and how to call it:
 * - `request` builds the call of a caller who may make it, naming rows within reach of both scoped users (the
 *   `mine` rows: agent `mine.agent` and client `mine.client`, served by it). Calls that change or remove a row
 *   build a fresh one, so every caller gets their own.
 * - `foreign` names rows of another agent and client (`other`): the Agent and Client users get 403 or the
 *   model's 404, and nothing changes. 'global' marks rows nobody owns; 'none' a route naming no row.
 * - An access with `unrestricted` writes a global record: the Agent and Client sides, whatever they hold, get 403
 *   and nothing changes; only the Super Admin's call is made.
 * - `references`: body fields naming other rows, each with a value outside the scoped users' reach (another
 *   agent's or client's row; a missing id for global resources). Each is tried in turn: 422 on that field,
 *   nothing stored. A Super Admin tries a missing id (422 too).
 */

export type Actor = 'superAdmin' | 'agent' | 'client' | 'agentPlus' | 'clientPlus';

/** Rows owned through one agent and one client. */
export interface Owned {
  client: number;
  agent: number;
  location: number;
  device: number;
  webhook: number;
  scan: number;
  /** A user with the Agent and Client roles on this agent and client. */
  user: number;
}

export interface Fixtures {
  mine: Owned;
  other: Owned;
  global: {
    product: number;
    part: number;
    panelGroup: number;
    panel: number;
    emailTemplate: number;
    role: number;
    permission: number;
    option: number;
    /** A file uploaded by the Super Admin. */
    file: string;
  };
  users: Record<Actor, { id: number; email: string }>;
  build: ReturnType<typeof builders>;
  unique(prefix: string): string;
  serial(): string;
  png(): Promise<Buffer>;
  webm(): Buffer;
  form(fields: Record<string, string | number | { data: Buffer; filename: string; type?: string }>): Promise<{
    payload: Buffer;
    headers: Record<string, string>;
  }>;
  /** A file uploaded through file/upload by this actor. */
  upload(who: Actor): Promise<string>;
  /** A new sign-in token of this actor (logout revokes the one it is sent with). */
  token(who: Actor): Promise<string>;
  /** A token of a Super Admin impersonating a fresh user. */
  impersonating(): Promise<string>;
  /** The Agent user's device API key. */
  apiKey: string;
  /** A raw password reset token of a fresh user. */
  resetToken(): Promise<string>;
  /** A fresh role (holding `scan`) and a fresh permission, by name. */
  role(name: string): Promise<number>;
  permission(name: string): Promise<number>;
  /** A fresh scan of `mine.agent` with status metadata, as a device leaves it before uploading. */
  deviceScan(): Promise<number>;
  /** A fresh enabled agent with an enrolled customer portal, and a kiosk token enrolled for it. */
  portalAgent(): Promise<{ id: number; kiosk: string }>;
  /** Creates a record through `POST url` as the actor (201 expected) and gives its id. */
  createAs(who: Actor, url: string, payload: unknown): Promise<number>;
}

export interface Req {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** The bearer token to send instead of the actor's own (never sent on the no-token call). */
  token?: string;
}
type Make = (f: Fixtures, who: Actor) => Req | Promise<Req>;

export interface MatrixEntry {
  access: RouteAccess;
  request: Make;
  /** The Super Admin's status for `request` (public routes: without a token; portal routes: the kiosk). Default 200. */
  status?: number;
  /** 'optional' routes: the status of `request` sent without a token (401, or what a signed link or a kiosk gets). */
  anonymous?: number;
  /** The scoped users' status for `request`, when it is not `status`. */
  scoped?: number | { agent?: number; client?: number };
  foreign: Make | 'global' | 'none';
  references?: Record<string, (f: Fixtures) => unknown>;
  /** A reference field's status when not 422 (the device API's 403 for another agent's device), or per side. */
  referenceStatus?: Record<string, number | { agent?: number; client?: number }>;
}

export const MISSING_ID = 999_999_999;

const path =
  (url: string): Make =>
  () => ({ url });
const body =
  (url: string, payload: (f: Fixtures, who: Actor) => unknown): Make =>
  (f, who) => ({ url, payload: payload(f, who) });
/**
 * A change to a record the other side owns (docs/ARCHITECTURE.md, "Records an agent or a client owns"): that side's
 * user reads it but is refused the change (403) before any field is looked at.
 */
const notTheirs = (side: 'agent' | 'client', fields: string[] = []) => ({
  scoped: { [side]: 403 },
  ...(fields.length ? { referenceStatus: Object.fromEntries(fields.map((name) => [name, { [side]: 403 }])) } : {}),
});

/** A scan's mail (POST emails and its preview): the caller's scan, or another agent's for the scoped users. */
const scanMail = (url: string): MatrixEntry => ({
  access: { permission: 'scan' },
  request: body(url, (f) => ({
    scan_id: f.mine.scan,
    recipients: ['owner@matrix.test'],
    subject: 'Your scan',
    message: '<p>Please find the scan attached.</p>',
  })),
  foreign: (f) => ({
    url,
    payload: { scan_id: f.other.scan, recipients: ['owner@matrix.test'], subject: 'Your scan', message: '<p>Hello</p>' },
  }),
});
const isClientSide = (who: Actor) => who === 'client' || who === 'clientPlus';

const location = (f: Fixtures) => ({ name: f.unique('Matrix site'), state: 'VIC', agent_id: f.mine.agent });
const device = (f: Fixtures) => ({
  location_id: f.mine.location,
  type: 'arch',
  agent_id: f.mine.agent,
  serial: f.serial(),
  default_client_id: f.mine.client,
});
const agent = (f: Fixtures, name = f.unique('Matrix agent')) => ({
  name,
  phone: '0352001234',
  email: 'desk@matrix.test',
  address: '1 Matrix St, Geelong VIC 3220',
  portal_email_address: 'portal@matrix.test',
  abn: '51824753556',
  pincode: '135790',
  default_client_id: f.mine.client,
  language: 'en',
});
const webhook = (f: Fixtures) => ({ agent_id: f.mine.agent, endpoint: 'https://hooks.matrix.test/in', events: ['scan.created'] });
/** A user the writer may make: an Agent user on `mine.agent`, or (client side) a Client user on `mine.client`. */
const user = (f: Fixtures, who: Actor) => ({
  first_name: 'Matrix',
  last_name: 'User',
  email: `${f.unique('matrix').toLowerCase()}@example.test`,
  password: 'matrix-password-1',
  ...(isClientSide(who) ? { roles: ['Client'], clients: [f.mine.client] } : { roles: ['Agent'], agents: [f.mine.agent] }),
});
/** A fresh user both scoped users see (it shares their agent and client). */
const sharedUser = async (f: Fixtures) =>
  (await f.build.user({ roles: ['Agent', 'Client'], agents: [f.mine.agent], clients: [f.mine.client] })).id;
/**
 * A fresh user within the caller's own agents and clients: an Agent user on `mine.agent`, or (client side) a Client
 * user on `mine.client`. A user holding both is beyond either scoped user, who holds only one (docs/server.md).
 */
const ownUser = async (f: Fixtures, who: Actor) =>
  f.build.user(isClientSide(who) ? { roles: ['Client'], clients: [f.mine.client] } : { roles: ['Agent'], agents: [f.mine.agent] });
/** A fresh site both scoped users see: the Client user sees sites where a device serves their client. */
const sharedLocation = async (f: Fixtures) => {
  const site = (await f.build.location({ agent_id: f.mine.agent })).id;
  await f.build.device({ location_id: site, agent_id: f.mine.agent, default_client_id: f.mine.client, serial: f.serial() });
  return site;
};
const freshScan = async (f: Fixtures) => (await f.build.scan({ agent_id: f.mine.agent, client_id: f.mine.client })).id;
/** A car panel code the catalogue names (edit-damage-count takes no other). */
const knownPanel = async (f: Fixtures) => {
  const code = 'matrix_bonnet';
  await f.build.panel({ panel_group_id: f.global.panelGroup, car_panel: code });
  return code;
};
/** A quote of a fresh scan of these rows' agent and client. */
const freshQuote = async (f: Fixtures, owner: Owned) =>
  (await f.build.quote((await f.build.scan({ agent_id: owner.agent, client_id: owner.client })).id)).id;

export const matrix: Record<string, MatrixEntry> = {
  // ---- System and real time ----
  'GET /api/health': { access: 'public', request: path('/api/health'), foreign: 'none' },
  'GET /api/ready': { access: 'public', request: path('/api/ready'), foreign: 'none' },
  'GET /api/broadcasting/config': { access: 'public', request: path('/api/broadcasting/config'), foreign: 'none' },
  'GET /api/broadcasting/channels': { access: { permission: 'scan' }, request: path('/api/broadcasting/channels'), foreign: 'none' },
  // Optional: the customer portal's kiosk signs its channel without a sign-in; the scan channel needs one.
  'POST /api/broadcasting/auth': {
    access: 'optional',
    anonymous: 401,
    request: body('/api/broadcasting/auth', () => ({ socket_id: '1234.5678', channel_name: 'private-scan' })),
    foreign: 'none',
  },
  // Presence is an editor's: the Client role reads the scan and its quote but holds neither scan_edit nor quote_edit.
  'POST /api/broadcasting/presence': {
    access: { permission: 'scan' },
    scoped: { client: 403 },
    request: body('/api/broadcasting/presence', (f) => ({ scan_id: f.mine.scan, record: 'quote', state: 'here' })),
    foreign: body('/api/broadcasting/presence', (f) => ({ scan_id: f.other.scan, record: 'quote', state: 'here' })),
  },

  // ---- User service: sign-in, profile, files ----
  'POST /api/user/auth/login': {
    access: 'public',
    request: body('/api/user/auth/login', (f) => ({ email: f.users.superAdmin.email, password: 'test-password-1' })),
    foreign: 'none',
  },
  'GET /api/user/auth/user': { access: 'signed-in', request: path('/api/user/auth/user'), foreign: 'none' },
  'POST /api/user/auth/logout': {
    access: 'signed-in',
    request: async (f, who) => ({ url: '/api/user/auth/logout', token: await f.token(who) }),
    foreign: 'none',
  },
  'POST /api/user/auth/forgot-password': {
    access: 'public',
    request: body('/api/user/auth/forgot-password', (f) => ({ email: f.users.client.email })),
    foreign: 'none',
  },
  'POST /api/user/auth/reset-password': {
    access: 'public',
    request: async (f) => ({
      url: '/api/user/auth/reset-password',
      payload: { token: await f.resetToken(), password: 'matrix-password-2', password_confirmation: 'matrix-password-2' },
    }),
    foreign: 'none',
  },
  'POST /api/user/auth/consent': { access: 'signed-in', request: path('/api/user/auth/consent'), foreign: 'none' },
  // The spec's route table gates /update-profile on `user`; without it a user changes their password through the reset mail.
  'PUT /api/user/auth/profile': {
    access: { permission: 'user' },
    request: body('/api/user/auth/profile', (f, who) => ({ first_name: 'Matrix', last_name: 'Tester', email: f.users[who].email })),
    foreign: 'none',
  },
  // Optional: an <img> cannot send a token, and image names are unguessable (docs/server.md, agents and files); exports need
  // their maker's token or a signed link (scans-export.test.ts), documents a token in scope or a signed link
  // (documents.test.ts).
  'GET /api/user/files/:key': {
    access: 'optional',
    anonymous: 200,
    request: (f) => ({ url: `/api/user/files/${f.global.file}` }),
    foreign: 'none',
  },
  'POST /api/user/file/upload': {
    access: 'signed-in',
    request: async (f) => ({ url: '/api/user/file/upload', ...(await f.form({ file: { data: await f.png(), filename: 'a.png' } })) }),
    status: 201,
    foreign: 'none',
  },
  'POST /api/user/file/delete': {
    access: 'signed-in',
    request: async (f, who) => ({ url: '/api/user/file/delete', payload: { key: await f.upload(who) } }),
    // A file another user uploaded.
    foreign: async (f) => ({ url: '/api/user/file/delete', payload: { key: await f.upload('superAdmin') } }),
  },
  'GET /api/user/auth/impersonate/take/:id': {
    access: { permission: 'user' },
    request: async (f) => ({ url: `/api/user/auth/impersonate/take/${await sharedUser(f)}` }),
    // Only a Super Admin impersonates.
    scoped: 403,
    foreign: (f) => ({ url: `/api/user/auth/impersonate/take/${f.other.user}` }),
  },
  'GET /api/user/auth/impersonate/:id/leave': {
    access: 'signed-in',
    request: async (f, who) =>
      who === 'superAdmin'
        ? { url: `/api/user/auth/impersonate/${f.users.superAdmin.id}/leave`, token: await f.impersonating() }
        : { url: `/api/user/auth/impersonate/${f.users.superAdmin.id}/leave` },
    // Only the impersonation token of that admin leaves.
    scoped: 403,
    foreign: 'none',
  },

  // ---- Users, roles, permissions, settings ----
  'GET /api/user/users': { access: { permission: 'user' }, request: path('/api/user/users'), foreign: 'none' },
  'GET /api/user/users/lists': { access: { permission: 'user' }, request: path('/api/user/users/lists'), foreign: 'none' },
  'GET /api/user/users/:id': {
    access: { permission: 'user' },
    request: (f) => ({ url: `/api/user/users/${f.mine.user}` }),
    foreign: (f) => ({ url: `/api/user/users/${f.other.user}` }),
  },
  'POST /api/user/users': {
    access: { permission: 'user' },
    request: body('/api/user/users', user),
    status: 201,
    foreign: 'none',
    references: { agents: (f) => [f.other.agent], clients: (f) => [f.other.client] },
  },
  'PUT /api/user/users/:id': {
    access: { permission: 'user' },
    // The e-mail stays: only a Super Admin changes another user's.
    request: async (f, who) => {
      const { id, email } = await ownUser(f, who);
      return { url: `/api/user/users/${id}`, payload: { ...user(f, who), email, password: '' } };
    },
    foreign: (f, who) => ({ url: `/api/user/users/${f.other.user}`, payload: { ...user(f, who), password: '' } }),
    references: { agents: (f) => [f.other.agent], clients: (f) => [f.other.client] },
  },
  'DELETE /api/user/users/:id': {
    access: { permission: 'user' },
    request: async (f, who) => ({ url: `/api/user/users/${(await ownUser(f, who)).id}` }),
    foreign: (f) => ({ url: `/api/user/users/${f.other.user}` }),
  },
  'GET /api/user/users/:id/apikey': {
    access: { permission: 'user' },
    request: async (f, who) => ({ url: `/api/user/users/${(await ownUser(f, who)).id}/apikey` }),
    foreign: (f) => ({ url: `/api/user/users/${f.other.user}/apikey` }),
  },
  'GET /api/user/roles': { access: { permission: 'role' }, request: path('/api/user/roles'), foreign: 'none' },
  'GET /api/user/roles/lists': { access: 'signed-in', request: path('/api/user/roles/lists'), foreign: 'none' },
  'GET /api/user/roles/:id': {
    access: { permission: 'role' },
    request: (f) => ({ url: `/api/user/roles/${f.global.role}` }),
    foreign: 'global',
  },
  'POST /api/user/roles': {
    access: { permission: 'role', unrestricted: true },
    request: body('/api/user/roles', (f) => ({ name: f.unique('Matrix role'), permissions: ['scan'] })),
    status: 201,
    foreign: 'global',
  },
  'PUT /api/user/roles/:id': {
    access: { permission: 'role', unrestricted: true },
    request: async (f) => {
      const name = f.unique('Matrix role');
      return { url: `/api/user/roles/${await f.role(name)}`, payload: { name, permissions: ['scan', 'location'] } };
    },
    foreign: 'global',
  },
  'DELETE /api/user/roles/:id': {
    access: { permission: 'role', unrestricted: true },
    request: async (f) => ({ url: `/api/user/roles/${await f.role(f.unique('Matrix role'))}` }),
    foreign: 'global',
  },
  'GET /api/user/permissions': { access: { permission: 'permission' }, request: path('/api/user/permissions'), foreign: 'none' },
  'GET /api/user/permissions/lists': { access: 'signed-in', request: path('/api/user/permissions/lists'), foreign: 'none' },
  'GET /api/user/permissions/:id': {
    access: { permission: 'permission' },
    request: (f) => ({ url: `/api/user/permissions/${f.global.permission}` }),
    foreign: 'global',
  },
  'POST /api/user/permissions': {
    access: { permission: 'permission', unrestricted: true },
    request: body('/api/user/permissions', (f) => ({ name: f.unique('matrix').toLowerCase().replace(/-/g, '_') })),
    status: 201,
    foreign: 'global',
  },
  'PUT /api/user/permissions/:id': {
    access: { permission: 'permission', unrestricted: true },
    request: async (f) => {
      const name = f.unique('matrix').toLowerCase().replace(/-/g, '_');
      return { url: `/api/user/permissions/${await f.permission(name)}`, payload: { name, display_name: 'Matrix' } };
    },
    foreign: 'global',
  },
  'DELETE /api/user/permissions/:id': {
    access: { permission: 'permission', unrestricted: true },
    request: async (f) => ({ url: `/api/user/permissions/${await f.permission(f.unique('matrix').toLowerCase().replace(/-/g, '_'))}` }),
    foreign: 'global',
  },
  'GET /api/user/options': { access: { permission: 'user' }, request: path('/api/user/options'), foreign: 'none' },
  'GET /api/user/options/:id': {
    access: { permission: 'user' },
    request: (f) => ({ url: `/api/user/options/${f.global.option}` }),
    foreign: 'global',
  },
  'PUT /api/user/options/:id': {
    access: { permission: 'app_setting', unrestricted: true },
    request: (f) => ({ url: `/api/user/options/${f.global.option}`, payload: { option_value: '10' } }),
    foreign: 'global',
  },
  'POST /api/user/options/search': {
    access: 'signed-in',
    request: body('/api/user/options/search', () => ({ option_name: ['GST_PERCENT'] })),
    foreign: 'none',
  },
  'POST /api/user/options/bulksave': {
    access: { permission: 'email_template', unrestricted: true },
    request: body('/api/user/options/bulksave', () => [{ option_name: OPTION_NAMES.EMAIL_DEFAULT_HEADER, option_value: '<p>Matrix</p>' }]),
    foreign: 'global',
  },

  // ---- Agent service ----
  'GET /api/agent/locations': { access: { permission: 'location' }, request: path('/api/agent/locations'), foreign: 'none' },
  'GET /api/agent/locations/lists': { access: 'signed-in', request: path('/api/agent/locations/lists'), foreign: 'none' },
  'GET /api/agent/locations/:id': {
    access: { permission: 'location' },
    request: (f) => ({ url: `/api/agent/locations/${f.mine.location}` }),
    foreign: (f) => ({ url: `/api/agent/locations/${f.other.location}` }),
  },
  'POST /api/agent/locations': {
    access: { permission: 'location' },
    request: body('/api/agent/locations', location),
    status: 201,
    // A new site has no device serving the Client user's client yet, so it would leave their scope: undone.
    scoped: { client: 403 },
    foreign: 'none',
    references: { agent_id: (f) => f.other.agent },
  },
  'PUT /api/agent/locations/:id': {
    access: { permission: 'location' },
    request: async (f) => ({ url: `/api/agent/locations/${await sharedLocation(f)}`, payload: location(f) }),
    foreign: (f) => ({ url: `/api/agent/locations/${f.other.location}`, payload: location(f) }),
    references: { agent_id: (f) => f.other.agent },
    ...notTheirs('client', ['agent_id']),
  },
  'DELETE /api/agent/locations/:id': {
    access: { permission: 'location' },
    request: async (f) => ({ url: `/api/agent/locations/${(await f.build.location({ agent_id: f.mine.agent })).id}` }),
    // A site without a device is not one the Client user sees.
    scoped: { client: 404 },
    foreign: (f) => ({ url: `/api/agent/locations/${f.other.location}` }),
  },
  'GET /api/agent/devices': { access: { permission: 'device' }, request: path('/api/agent/devices'), foreign: 'none' },
  'GET /api/agent/devices/lists': { access: 'signed-in', request: path('/api/agent/devices/lists'), foreign: 'none' },
  'GET /api/agent/devices/:id': {
    access: { permission: 'device' },
    request: (f) => ({ url: `/api/agent/devices/${f.mine.device}` }),
    foreign: (f) => ({ url: `/api/agent/devices/${f.other.device}` }),
  },
  'POST /api/agent/devices': {
    access: { permission: 'device' },
    request: body('/api/agent/devices', device),
    status: 201,
    scoped: { client: 403 },
    foreign: 'none',
    references: { location_id: (f) => f.other.location, agent_id: (f) => f.other.agent, default_client_id: (f) => f.other.client },
  },
  'PUT /api/agent/devices/:id': {
    access: { permission: 'device' },
    request: async (f) => {
      const id = (
        await f.build.device({ location_id: f.mine.location, agent_id: f.mine.agent, default_client_id: f.mine.client, serial: f.serial() })
      ).id;
      return { url: `/api/agent/devices/${id}`, payload: device(f) };
    },
    foreign: (f) => ({ url: `/api/agent/devices/${f.other.device}`, payload: device(f) }),
    references: { location_id: (f) => f.other.location, agent_id: (f) => f.other.agent, default_client_id: (f) => f.other.client },
    ...notTheirs('client', ['location_id', 'agent_id', 'default_client_id']),
  },
  'DELETE /api/agent/devices/:id': {
    access: { permission: 'device' },
    request: async (f) => ({
      url: `/api/agent/devices/${(await f.build.device({ location_id: f.mine.location, agent_id: f.mine.agent, default_client_id: f.mine.client, serial: f.serial() })).id}`,
    }),
    ...notTheirs('client'),
    foreign: (f) => ({ url: `/api/agent/devices/${f.other.device}` }),
  },
  'GET /api/agent/agents': { access: { permission: 'agent' }, request: path('/api/agent/agents'), foreign: 'none' },
  'GET /api/agent/agents/lists': { access: 'signed-in', request: path('/api/agent/agents/lists'), foreign: 'none' },
  'GET /api/agent/agents/:id': {
    access: { permission: 'agent' },
    request: (f) => ({ url: `/api/agent/agents/${f.mine.agent}` }),
    foreign: (f) => ({ url: `/api/agent/agents/${f.other.agent}` }),
  },
  'POST /api/agent/agents': {
    access: { permission: 'agent' },
    request: body('/api/agent/agents', (f) => agent(f)),
    status: 201,
    // A new agent is not the Agent user's (undone); an agent is no Client user's to create.
    scoped: 403,
    foreign: 'none',
    references: { default_client_id: (f) => f.other.client },
  },
  'PUT /api/agent/agents/:id': {
    access: { permission: 'agent' },
    request: (f) => ({ url: `/api/agent/agents/${f.mine.agent}`, payload: { ...agent(f, 'Matrix own agent'), pincode: '' } }),
    foreign: (f) => ({ url: `/api/agent/agents/${f.other.agent}`, payload: { ...agent(f, 'Taken over'), pincode: '' } }),
    references: { default_client_id: (f) => f.other.client },
    ...notTheirs('client', ['default_client_id']),
  },
  'POST /api/agent/agents/:id': {
    access: { permission: 'agent' },
    request: (f) => ({ url: `/api/agent/agents/${f.mine.agent}?_method=PUT`, payload: { ...agent(f, 'Matrix own agent'), pincode: '' } }),
    foreign: (f) => ({ url: `/api/agent/agents/${f.other.agent}?_method=PUT`, payload: { ...agent(f, 'Taken over'), pincode: '' } }),
    references: { default_client_id: (f) => f.other.client },
    ...notTheirs('client', ['default_client_id']),
  },
  'DELETE /api/agent/agents/:id': {
    access: { permission: 'agent' },
    request: async (f) => ({ url: `/api/agent/agents/${(await f.build.agent({ default_client_id: f.mine.client })).id}` }),
    // The fresh agent is not the Agent user's; it serves the Client user's client, who may not delete it.
    scoped: { agent: 404, client: 403 },
    foreign: (f) => ({ url: `/api/agent/agents/${f.other.agent}` }),
  },
  'GET /api/agent/agents/:id/branding': {
    access: 'signed-in',
    request: (f) => ({ url: `/api/agent/agents/${f.mine.agent}/branding` }),
    foreign: (f) => ({ url: `/api/agent/agents/${f.other.agent}/branding` }),
  },
  // Public: the customer portal is a kiosk; throttled per agent and address.
  'POST /api/agent/agents/:id/validate-pin': {
    access: 'public',
    request: async (f) => ({
      url: `/api/agent/agents/${(await f.build.agent({ is_enabled: 1 })).id}/validate-pin`,
      payload: { pin: '000000' },
    }),
    foreign: 'none',
  },
  // The customer portal (a kiosk): enrolling is public and throttled like validate-pin; the portal's
  // reads need the kiosk token enrolled for that agent.
  'POST /api/agent/agents/:id/portal/enrol': {
    access: 'public',
    request: async (f) => ({ url: `/api/agent/agents/${(await f.portalAgent()).id}/portal/enrol`, payload: { pincode: '000000' } }),
    status: 422,
    foreign: 'none',
  },
  'GET /api/agent/agents/:id/portal': {
    access: 'portal',
    request: async (f) => {
      const agent = await f.portalAgent();
      return { url: `/api/agent/agents/${agent.id}/portal`, headers: { 'x-kiosk-token': agent.kiosk } };
    },
    foreign: async (f) => ({
      url: `/api/agent/agents/${(await f.portalAgent()).id}/portal`,
      headers: { 'x-kiosk-token': (await f.portalAgent()).kiosk },
    }),
  },
  'GET /api/scan/portal/:agentId/scans': {
    access: 'portal',
    request: async (f) => {
      const agent = await f.portalAgent();
      return { url: `/api/scan/portal/${agent.id}/scans`, headers: { 'x-kiosk-token': agent.kiosk } };
    },
    foreign: async (f) => ({
      url: `/api/scan/portal/${(await f.portalAgent()).id}/scans`,
      headers: { 'x-kiosk-token': (await f.portalAgent()).kiosk },
    }),
  },
  // The portal's scan page and Create Scan: the same kiosk access, that agent's scans only.
  'GET /api/scan/portal/:agentId/scans/:scanId': {
    access: 'portal',
    request: async (f) => {
      const agent = await f.portalAgent();
      const scan = await f.build.scan({ agent_id: agent.id });
      return { url: `/api/scan/portal/${agent.id}/scans/${scan.id}`, headers: { 'x-kiosk-token': agent.kiosk } };
    },
    foreign: async (f) => {
      const agent = await f.portalAgent();
      const scan = await f.build.scan({ agent_id: agent.id });
      return { url: `/api/scan/portal/${agent.id}/scans/${scan.id}`, headers: { 'x-kiosk-token': (await f.portalAgent()).kiosk } };
    },
  },
  'POST /api/scan/portal/:agentId/scans': {
    access: 'portal',
    request: async (f) => {
      const agent = await f.portalAgent();
      return { url: `/api/scan/portal/${agent.id}/scans`, payload: {}, headers: { 'x-kiosk-token': agent.kiosk } };
    },
    status: 201,
    foreign: async (f) => ({
      url: `/api/scan/portal/${(await f.portalAgent()).id}/scans`,
      payload: {},
      headers: { 'x-kiosk-token': (await f.portalAgent()).kiosk },
    }),
  },
  'GET /api/agent/webhooks': { access: { permission: 'agent' }, request: path('/api/agent/webhooks'), foreign: 'none' },
  'GET /api/agent/webhooks/lists': { access: { permission: 'agent' }, request: path('/api/agent/webhooks/lists'), foreign: 'none' },
  // A webhook is its agent's users' alone (its signing secret signs what the receiver trusts): the Client side, even
  // holding `agent`, reaches none of them (webhooks.test.ts).
  'GET /api/agent/webhooks/:id': {
    access: { permission: 'agent' },
    request: (f) => ({ url: `/api/agent/webhooks/${f.mine.webhook}` }),
    scoped: { client: 404 },
    foreign: (f) => ({ url: `/api/agent/webhooks/${f.other.webhook}` }),
  },
  'POST /api/agent/webhooks': {
    access: { permission: 'agent' },
    request: body('/api/agent/webhooks', webhook),
    status: 201,
    scoped: { client: 403 },
    foreign: 'none',
    references: { agent_id: (f) => f.other.agent },
  },
  'PUT /api/agent/webhooks/:id': {
    access: { permission: 'agent' },
    request: async (f) => ({ url: `/api/agent/webhooks/${(await f.build.webhook({ agent_id: f.mine.agent })).id}`, payload: webhook(f) }),
    foreign: (f) => ({ url: `/api/agent/webhooks/${f.other.webhook}`, payload: webhook(f) }),
    references: { agent_id: (f) => f.other.agent },
    scoped: { client: 404 },
    referenceStatus: { agent_id: { client: 404 } },
  },
  'DELETE /api/agent/webhooks/:id': {
    access: { permission: 'agent' },
    request: async (f) => ({ url: `/api/agent/webhooks/${(await f.build.webhook({ agent_id: f.mine.agent })).id}` }),
    scoped: { client: 404 },
    foreign: (f) => ({ url: `/api/agent/webhooks/${f.other.webhook}` }),
  },
  'GET /api/agent/webhooks/events': { access: { permission: 'agent' }, request: path('/api/agent/webhooks/events'), foreign: 'none' },
  'GET /api/agent/webhooks/deliveries': {
    access: { permission: 'agent' },
    request: (f) => ({ url: `/api/agent/webhooks/deliveries?agent_id=${f.mine.agent}` }),
    // A filter, not a row: another agent's deliveries are simply none (webhooks.test.ts).
    foreign: 'none',
  },

  // ---- Quotes (quote service, scoped like scans): reads need `scan`, every change `quote_edit` (the Client role holds
  // `scan` alone, so its users get 403 on each change: docs/ARCHITECTURE.md, "Access model") ----
  'GET /api/quote/quotes': { access: { permission: 'scan' }, request: path('/api/quote/quotes'), foreign: 'none' },
  'GET /api/quote/quotes/export-quote-report': {
    access: { permission: 'scan' },
    request: path('/api/quote/quotes/export-quote-report'),
    foreign: 'none',
  },
  'POST /api/quote/quotes/search': {
    access: { permission: 'scan' },
    request: body('/api/quote/quotes/search', (f) => ({ scan_id: f.mine.scan })),
    foreign: (f) => ({ url: '/api/quote/quotes/search', payload: { scan_id: f.other.scan } }),
  },
  'POST /api/quote/quotes': {
    access: { permission: 'quote_edit' },
    request: async (f) => ({ url: '/api/quote/quotes', payload: { scan_id: await freshScan(f), client_id: f.mine.client } }),
    status: 201,
    foreign: (f) => ({ url: '/api/quote/quotes', payload: { scan_id: f.other.scan, client_id: f.other.client } }),
    references: { client_id: (f) => f.other.client },
  },
  'GET /api/quote/quotes/:id': {
    access: { permission: 'scan' },
    request: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.mine)}` }),
    foreign: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.other)}` }),
  },
  'GET /api/quote/quotes/:id/revisions': {
    access: { permission: 'scan' },
    request: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.mine)}/revisions` }),
    foreign: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.other)}/revisions` }),
  },
  'DELETE /api/quote/quotes/:id': {
    access: { permission: 'quote_edit' },
    request: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.mine)}` }),
    foreign: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.other)}` }),
  },
  'PUT /api/quote/quotes/:id/manual_check': {
    access: { permission: 'quote_edit' },
    request: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.mine)}/manual_check`, payload: { manual_check: 1 } }),
    foreign: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.other)}/manual_check`, payload: { manual_check: 1 } }),
  },
  'PUT /api/quote/quotes/:id/delete_vehicle_photo': {
    access: { permission: 'quote_edit' },
    request: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.mine)}/delete_vehicle_photo` }),
    foreign: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.other)}/delete_vehicle_photo` }),
  },
  'POST /api/quote/quotes/:id/approval': {
    access: { permission: 'quote_edit' },
    request: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.mine)}/approval`, payload: { recipient: 'a@example.test' } }),
    foreign: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.other)}/approval`, payload: { recipient: 'a@example.test' } }),
  },
  'DELETE /api/quote/quotes/:id/approval': {
    access: { permission: 'quote_edit' },
    request: async (f) => {
      const id = await freshQuote(f, f.mine);
      await f.build.approvalLink(id);
      return { url: `/api/quote/quotes/${id}/approval` };
    },
    foreign: async (f) => {
      const id = await freshQuote(f, f.other);
      await f.build.approvalLink(id);
      return { url: `/api/quote/quotes/${id}/approval` };
    },
  },
  // The public approval page: the link's token alone opens it (approvals.test.ts has the refusals).
  'GET /api/quote/approvals/:token': {
    access: 'public',
    request: async (f) => ({ url: `/api/quote/approvals/${await f.build.approvalLink(await freshQuote(f, f.mine))}` }),
    foreign: 'none',
  },
  'POST /api/quote/approvals/:token': {
    access: 'public',
    request: async (f) => ({
      url: `/api/quote/approvals/${await f.build.approvalLink(await freshQuote(f, f.mine))}`,
      // The built quote has no priced line: nothing to decide.
      payload: {
        decisions: [],
        terms_accepted: true,
        signer_name: 'Matrix Signer',
        signature: `data:image/png;base64,${(await f.png()).toString('base64')}`,
      },
    }),
    foreign: 'none',
  },
  'GET /api/quote/quotes/:id/history': {
    access: { permission: 'scan' },
    request: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.mine)}/history` }),
    foreign: async (f) => ({ url: `/api/quote/quotes/${await freshQuote(f, f.other)}/history?format=csv` }),
  },

  // ---- Scan service: reads (search and evaluate included) need `scan`, every change `scan_edit` (not the Client role's) ----
  'GET /api/scan/scans': { access: { permission: 'scan' }, request: path('/api/scan/scans'), foreign: 'none' },
  // The dashboard: any signed-in user, rows inside their scope (dashboard-statistics.test.ts).
  'GET /api/scan/scans/agent-statistics': { access: 'signed-in', request: path('/api/scan/scans/agent-statistics'), foreign: 'none' },
  'GET /api/scan/scans/location-statistics': { access: 'signed-in', request: path('/api/scan/scans/location-statistics'), foreign: 'none' },
  'GET /api/scan/scans/export-scan-report': {
    access: { permission: 'scan' },
    request: path('/api/scan/scans/export-scan-report'),
    foreign: 'none',
  },
  'GET /api/scan/scans/:id': {
    access: { permission: 'scan' },
    request: (f) => ({ url: `/api/scan/scans/${f.mine.scan}` }),
    foreign: (f) => ({ url: `/api/scan/scans/${f.other.scan}` }),
  },
  'GET /api/scan/scans/:id/comparison': {
    access: { permission: 'scan' },
    request: (f) => ({ url: `/api/scan/scans/${f.mine.scan}/comparison` }),
    foreign: (f) => ({ url: `/api/scan/scans/${f.other.scan}/comparison` }),
  },
  'GET /api/scan/scans/:id/tyre-wear': {
    access: { permission: 'scan' },
    request: (f) => ({ url: `/api/scan/scans/${f.mine.scan}/tyre-wear` }),
    foreign: (f) => ({ url: `/api/scan/scans/${f.other.scan}/tyre-wear` }),
  },
  'GET /api/quote/quotes/approval-statistics': {
    access: { permission: 'scan' },
    request: path('/api/quote/quotes/approval-statistics'),
    foreign: 'none',
  },
  'GET /api/scan/vehicles': { access: { permission: 'scan' }, request: path('/api/scan/vehicles'), foreign: 'none' },
  'GET /api/scan/vehicles/export-vehicle-report': {
    access: { permission: 'scan' },
    request: path('/api/scan/vehicles/export-vehicle-report'),
    foreign: 'none',
  },
  'GET /api/scan/vehicles/:id': {
    access: { permission: 'scan' },
    request: async (f) => ({ url: `/api/scan/vehicles/${await f.build.vehicle([await freshScan(f)])}` }),
    foreign: async (f) => ({
      url: `/api/scan/vehicles/${await f.build.vehicle([(await f.build.scan({ agent_id: f.other.agent, client_id: f.other.client })).id])}`,
    }),
  },
  'PUT /api/scan/scans/:id': {
    access: { permission: 'scan_edit' },
    request: async (f) => ({ url: `/api/scan/scans/${await freshScan(f)}`, payload: { make: 'Kia', client_id: f.mine.client } }),
    foreign: (f) => ({ url: `/api/scan/scans/${f.other.scan}`, payload: { make: 'Kia' } }),
    references: { client_id: (f) => f.other.client },
  },
  'DELETE /api/scan/scans/:id': {
    access: { permission: 'scan_edit' },
    request: async (f) => ({ url: `/api/scan/scans/${await freshScan(f)}` }),
    foreign: (f) => ({ url: `/api/scan/scans/${f.other.scan}` }),
  },
  'POST /api/scan/scans': {
    access: { permission: 'scan_edit' },
    request: body('/api/scan/scans', (f) => ({ agent_id: f.mine.agent, client_id: f.mine.client })),
    status: 201,
    foreign: 'none',
    references: { agent_id: (f) => f.other.agent, client_id: (f) => f.other.client },
  },
  'POST /api/scan/scans/:id/refresh': {
    access: { permission: 'scan_edit' },
    request: (f) => ({ url: `/api/scan/scans/${f.mine.scan}/refresh` }),
    foreign: (f) => ({ url: `/api/scan/scans/${f.other.scan}/refresh` }),
  },
  // The scan page: every route acts on one scan, held to the scan's scope.
  'GET /api/scan/meta/:id': {
    access: { permission: 'scan' },
    request: (f) => ({ url: `/api/scan/meta/${f.mine.scan}` }),
    foreign: (f) => ({ url: `/api/scan/meta/${f.other.scan}` }),
  },
  'GET /api/scan/archData/search': {
    access: { permission: 'scan' },
    request: (f) => ({ url: `/api/scan/archData/search?scan_id=${f.mine.scan}` }),
    foreign: (f) => ({ url: `/api/scan/archData/search?scan_id=${f.other.scan}` }),
  },
  'POST /api/scan/scans/arch/edit-damage-count': {
    access: { permission: 'scan_edit' },
    request: async (f) => ({
      url: '/api/scan/scans/arch/edit-damage-count',
      payload: { scan_id: await freshScan(f), car_panel: await knownPanel(f), dents: { light: 2 }, scratchs: { heavy: 1 } },
    }),
    foreign: async (f) => ({
      url: '/api/scan/scans/arch/edit-damage-count',
      payload: { scan_id: f.other.scan, car_panel: await knownPanel(f), dents: { light: 3 } },
    }),
  },
  'POST /api/scan/scans/:id/annotates': {
    access: { permission: 'scan_edit' },
    request: async (f) => ({
      url: `/api/scan/scans/${await freshScan(f)}/annotates`,
      ...(await f.form({ file: { data: await f.png(), filename: 'crop.png', type: 'image/png' } })),
    }),
    status: 201,
    foreign: async (f) => ({
      url: `/api/scan/scans/${f.other.scan}/annotates`,
      ...(await f.form({ file: { data: await f.png(), filename: 'crop.png', type: 'image/png' } })),
    }),
  },
  'DELETE /api/scan/scans/:id/annotates/:imageId': {
    access: { permission: 'scan_edit' },
    request: async (f) => {
      const scan = await freshScan(f);
      return { url: `/api/scan/scans/${scan}/annotates/${(await f.build.annotate({ scan_id: scan })).id}` };
    },
    foreign: async (f) => ({ url: `/api/scan/scans/${f.other.scan}/annotates/${(await f.build.annotate({ scan_id: f.other.scan })).id}` }),
  },
  'PUT /api/scan/scans/:id/tyre-repairs': {
    access: { permission: 'scan_edit' },
    request: async (f) => {
      const scan = await freshScan(f);
      await f.build.tyre({ scan_id: scan });
      return { url: `/api/scan/scans/${scan}/tyre-repairs`, payload: { row: 1, direction: 'L', repair_type: 'replace' } };
    },
    foreign: async (f) => {
      await f.build.tyre({ scan_id: f.other.scan }).catch(() => {});
      return { url: `/api/scan/scans/${f.other.scan}/tyre-repairs`, payload: { row: 1, direction: 'L', repair_type: 'replace' } };
    },
  },
  'GET /api/scan/scans/:id/history': {
    access: { permission: 'scan' },
    request: (f) => ({ url: `/api/scan/scans/${f.mine.scan}/history` }),
    foreign: (f) => ({ url: `/api/scan/scans/${f.other.scan}/history?format=csv` }),
  },
  // Registrations belong to no agent or client: any holder of `scan` looks them up.
  'POST /api/scan/license-plates/search': {
    access: { permission: 'scan' },
    request: body('/api/scan/license-plates/search', () => ({ number: '1ab' })),
    foreign: 'none',
  },
  'GET /api/scan/license-plates/fetch/:number': {
    access: { permission: 'scan' },
    request: async (f) => {
      const reg = await f.build.registration();
      return { url: `/api/scan/license-plates/fetch/${reg.number}?state=${reg.state}` };
    },
    foreign: 'none',
  },
  'GET /api/scan/scans/:id/evaluate': {
    access: { permission: 'scan' },
    request: (f) => ({ url: `/api/scan/scans/${f.mine.scan}/evaluate` }),
    foreign: (f) => ({ url: `/api/scan/scans/${f.other.scan}/evaluate` }),
  },
  'POST /api/scan/scans/search': {
    access: { permission: 'scan' },
    request: body('/api/scan/scans/search', (f) => ({ scan_id: f.mine.scan })),
    foreign: 'none',
  },
  // Device routes take the API key of a user (the Agent user's here), never a sign-in token (docs/ingestion.md).
  'GET /api/scan/ingest/devices': { access: 'device', request: path('/api/scan/ingest/devices'), foreign: 'none' },
  'POST /api/scan/ingest/scans': {
    access: 'device',
    request: body('/api/scan/ingest/scans', (f) => ({ scan_id: f.unique('matrix-scan'), device_id: f.mine.device, type: 'arch' })),
    status: 201,
    foreign: 'none',
    references: { device_id: (f) => f.other.device, client_id: (f) => f.other.client },
    // docs/ingestion.md: another agent's device is 403.
    referenceStatus: { device_id: 403 },
  },
  'PUT /api/scan/ingest/scans/:id/results': {
    access: 'device',
    request: async (f) => ({ url: `/api/scan/ingest/scans/${await f.deviceScan()}/results`, payload: { arch: { panels_scanned: 1 } } }),
    foreign: (f) => ({ url: `/api/scan/ingest/scans/${f.other.scan}/results`, payload: { arch: { panels_scanned: 1 } } }),
  },
  'POST /api/scan/ingest/scans/:id/images': {
    access: 'device',
    request: async (f) => ({
      url: `/api/scan/ingest/scans/${await f.deviceScan()}/images`,
      ...(await f.form({ kind: 'thumbnail', file: { data: await f.png(), filename: 'a.png', type: 'image/png' } })),
    }),
    foreign: async (f) => ({
      url: `/api/scan/ingest/scans/${f.other.scan}/images`,
      ...(await f.form({ kind: 'thumbnail', file: { data: await f.png(), filename: 'a.png', type: 'image/png' } })),
    }),
  },
  'POST /api/scan/ingest/scans/:id/videos': {
    access: 'device',
    request: async (f) => ({
      url: `/api/scan/ingest/scans/${await f.deviceScan()}/videos`,
      ...(await f.form({ video_id: 'v-1', file: { data: f.webm(), filename: 'a.webm', type: 'video/webm' } })),
    }),
    foreign: async (f) => ({
      url: `/api/scan/ingest/scans/${f.other.scan}/videos`,
      ...(await f.form({ video_id: 'v-1', file: { data: f.webm(), filename: 'a.webm', type: 'video/webm' } })),
    }),
  },
  'POST /api/scan/ingest/scans/:id/status': {
    access: 'device',
    request: async (f) => ({ url: `/api/scan/ingest/scans/${await f.deviceScan()}/status`, payload: { status: 'ready' } }),
    foreign: (f) => ({ url: `/api/scan/ingest/scans/${f.other.scan}/status`, payload: { status: 'ready' } }),
  },

  // ---- Quote service ----
  'GET /api/quote/clients': { access: { permission: 'client' }, request: path('/api/quote/clients'), foreign: 'none' },
  'GET /api/quote/clients/lists': { access: 'signed-in', request: path('/api/quote/clients/lists'), foreign: 'none' },
  'GET /api/quote/clients/:id': {
    access: { permission: 'client' },
    request: (f) => ({ url: `/api/quote/clients/${f.mine.client}` }),
    foreign: (f) => ({ url: `/api/quote/clients/${f.other.client}` }),
  },
  'POST /api/quote/clients': {
    access: { permission: 'client' },
    request: body('/api/quote/clients', (f) => ({ name: f.unique('Matrix client'), sc_threshold: 5, products: [], parts: [] })),
    status: 201,
    // A new client is nobody's yet: outside a scoped writer's reach, undone.
    scoped: 403,
    foreign: 'none',
    references: { products: () => [MISSING_ID], parts: () => [MISSING_ID] },
  },
  'PUT /api/quote/clients/:id': {
    access: { permission: 'client' },
    request: (f) => ({
      url: `/api/quote/clients/${f.mine.client}`,
      payload: { name: 'Matrix own client', sc_threshold: 5, products: [], parts: [] },
    }),
    foreign: (f) => ({ url: `/api/quote/clients/${f.other.client}`, payload: { name: 'Taken over', sc_threshold: 5 } }),
    references: { products: () => [MISSING_ID], parts: () => [MISSING_ID] },
    ...notTheirs('agent', ['products', 'parts']),
  },
  'DELETE /api/quote/clients/:id': {
    access: { permission: 'client' },
    request: async (f) => ({ url: `/api/quote/clients/${(await f.build.client()).id}` }),
    // A fresh client is served by nobody, so no scoped user sees it.
    scoped: 404,
    foreign: (f) => ({ url: `/api/quote/clients/${f.other.client}` }),
  },
  'POST /api/quote/clients/calculate-category': {
    access: { permission: 'scan' },
    request: body('/api/quote/clients/calculate-category', (f) => ({ client_id: f.mine.client, categories: { light: 2 } })),
    // Not a write: a client outside the scope is the model's 404 (clients.test.ts).
    foreign: (f) => ({ url: '/api/quote/clients/calculate-category', payload: { client_id: f.other.client, categories: { light: 2 } } }),
  },
  'GET /api/quote/products': { access: { permission: 'product' }, request: path('/api/quote/products'), foreign: 'none' },
  'GET /api/quote/products/lists': { access: 'signed-in', request: path('/api/quote/products/lists'), foreign: 'none' },
  'POST /api/quote/products/lists': { access: 'signed-in', request: body('/api/quote/products/lists', () => ({})), foreign: 'none' },
  'GET /api/quote/products/:id': {
    access: { permission: 'product' },
    request: (f) => ({ url: `/api/quote/products/${f.global.product}` }),
    foreign: 'global',
  },
  'POST /api/quote/products': {
    access: { permission: 'product' },
    request: body('/api/quote/products', (f) => ({ name: f.unique('Matrix product'), price: 10 })),
    status: 201,
    foreign: 'global',
  },
  'PUT /api/quote/products/:id': {
    access: { permission: 'product' },
    request: async (f) => ({
      url: `/api/quote/products/${(await f.build.product()).id}`,
      payload: { name: f.unique('Matrix product'), price: 12 },
    }),
    foreign: 'global',
  },
  'DELETE /api/quote/products/:id': {
    access: { permission: 'product' },
    request: async (f) => ({ url: `/api/quote/products/${(await f.build.product()).id}` }),
    foreign: 'global',
  },
  'GET /api/quote/parts': { access: { permission: 'part' }, request: path('/api/quote/parts'), foreign: 'none' },
  'GET /api/quote/parts/lists': { access: 'signed-in', request: path('/api/quote/parts/lists'), foreign: 'none' },
  'POST /api/quote/parts/lists': { access: 'signed-in', request: body('/api/quote/parts/lists', () => ({})), foreign: 'none' },
  'GET /api/quote/parts/:id': {
    access: { permission: 'part' },
    request: (f) => ({ url: `/api/quote/parts/${f.global.part}` }),
    foreign: 'global',
  },
  'POST /api/quote/parts': {
    access: { permission: 'part' },
    request: body('/api/quote/parts', (f) => ({ name: f.unique('Matrix part'), type: 'arch' })),
    status: 201,
    foreign: 'global',
  },
  'PUT /api/quote/parts/:id': {
    access: { permission: 'part' },
    request: async (f) => ({
      url: `/api/quote/parts/${(await f.build.part()).id}`,
      payload: { name: f.unique('Matrix part'), type: 'tire' },
    }),
    foreign: 'global',
  },
  'DELETE /api/quote/parts/:id': {
    access: { permission: 'part' },
    request: async (f) => ({ url: `/api/quote/parts/${(await f.build.part()).id}` }),
    foreign: 'global',
  },
  'GET /api/quote/panelGroups': { access: { permission: 'part' }, request: path('/api/quote/panelGroups'), foreign: 'none' },
  'GET /api/quote/panelGroups/lists': { access: 'signed-in', request: path('/api/quote/panelGroups/lists'), foreign: 'none' },
  'GET /api/quote/panelGroups/positions': { access: 'signed-in', request: path('/api/quote/panelGroups/positions'), foreign: 'none' },
  'GET /api/quote/panelGroups/:id': {
    access: { permission: 'panelgroup' },
    request: (f) => ({ url: `/api/quote/panelGroups/${f.global.panelGroup}` }),
    foreign: 'global',
  },
  'POST /api/quote/panelGroups': {
    access: { permission: 'panelgroup' },
    request: async (f) => ({
      url: '/api/quote/panelGroups',
      ...(await f.form({
        name: f.unique('Matrix view'),
        position: 9,
        imageFile: { data: await f.png(), filename: 'v.png', type: 'image/png' },
      })),
    }),
    status: 201,
    foreign: 'global',
  },
  'PUT /api/quote/panelGroups/:id': {
    access: { permission: 'panelgroup' },
    request: async (f) => ({
      url: `/api/quote/panelGroups/${(await f.build.panelGroup()).id}`,
      payload: { name: f.unique('Matrix view'), position: 8 },
    }),
    foreign: 'global',
  },
  'POST /api/quote/panelGroups/:id': {
    access: { permission: 'panelgroup' },
    request: async (f) => ({
      url: `/api/quote/panelGroups/${(await f.build.panelGroup()).id}?_method=PUT`,
      payload: { name: f.unique('Matrix view'), position: 7 },
    }),
    foreign: 'global',
  },
  'DELETE /api/quote/panelGroups/:id': {
    access: { permission: 'panelgroup' },
    request: async (f) => ({ url: `/api/quote/panelGroups/${(await f.build.panelGroup()).id}` }),
    foreign: 'global',
  },
  'GET /api/quote/panels': { access: { permission: 'part' }, request: path('/api/quote/panels'), foreign: 'none' },
  'GET /api/quote/panels/lists': { access: 'signed-in', request: path('/api/quote/panels/lists'), foreign: 'none' },
  'POST /api/quote/panels/lists': { access: 'signed-in', request: body('/api/quote/panels/lists', () => ({})), foreign: 'none' },
  'GET /api/quote/panels/:id': {
    access: { permission: 'panel' },
    request: (f) => ({ url: `/api/quote/panels/${f.global.panel}` }),
    foreign: 'global',
  },
  'POST /api/quote/panels': {
    access: { permission: 'panel' },
    request: body('/api/quote/panels', (f) => ({
      panel_group_id: f.global.panelGroup,
      name: f.unique('Matrix panel'),
      label: 'M',
      type: 'D',
      position: 3,
      part_id: f.global.part,
    })),
    status: 201,
    foreign: 'global',
    references: { panel_group_id: () => MISSING_ID, part_id: () => MISSING_ID },
  },
  'PUT /api/quote/panels/:id': {
    access: { permission: 'panel' },
    request: async (f) => ({
      url: `/api/quote/panels/${(await f.build.panel({ panel_group_id: f.global.panelGroup })).id}`,
      payload: {
        panel_group_id: f.global.panelGroup,
        name: f.unique('Matrix panel'),
        label: 'N',
        type: 'D',
        position: 4,
        part_id: f.global.part,
      },
    }),
    foreign: 'global',
    references: { panel_group_id: () => MISSING_ID, part_id: () => MISSING_ID },
  },
  'DELETE /api/quote/panels/:id': {
    access: { permission: 'panel' },
    request: async (f) => ({ url: `/api/quote/panels/${(await f.build.panel({ panel_group_id: f.global.panelGroup })).id}` }),
    foreign: 'global',
  },

  // ---- E-mail service ----
  'POST /api/email/emails': { ...scanMail('/api/email/emails'), status: 201 },
  'POST /api/email/emails/preview': scanMail('/api/email/emails/preview'),
  'GET /api/email/merge-fields': { access: 'signed-in', request: path('/api/email/merge-fields'), foreign: 'none' },
  'GET /api/email/emailTemplates': {
    access: { permission: 'email_template' },
    request: path('/api/email/emailTemplates'),
    foreign: 'none',
  },
  'GET /api/email/emailTemplates/lists': { access: 'signed-in', request: path('/api/email/emailTemplates/lists'), foreign: 'none' },
  'GET /api/email/emailTemplates/:id': {
    access: { permission: 'email_template' },
    request: (f) => ({ url: `/api/email/emailTemplates/${f.global.emailTemplate}` }),
    foreign: 'global',
  },
  'POST /api/email/emailTemplates': {
    access: { permission: 'email_template', unrestricted: true },
    request: body('/api/email/emailTemplates', (f) => ({ templateName: f.unique('Matrix template'), templateBody: '<p>Hello</p>' })),
    status: 201,
    foreign: 'global',
  },
  'PUT /api/email/emailTemplates/:id': {
    access: { permission: 'email_template', unrestricted: true },
    request: async (f) => ({
      url: `/api/email/emailTemplates/${(await f.build.emailTemplate()).id}`,
      payload: { templateName: f.unique('Matrix template'), templateBody: '<p>Hi again</p>' },
    }),
    foreign: 'global',
  },
  'DELETE /api/email/emailTemplates/:id': {
    access: { permission: 'email_template', unrestricted: true },
    request: async (f) => ({ url: `/api/email/emailTemplates/${(await f.build.emailTemplate()).id}` }),
    foreign: 'global',
  },
};

/** The row a scoped reference field may not name: the other side's record of that resource. */
const FOREIGN_REFERENCE: Record<string, (f: Fixtures) => number> = {
  agents: (f) => f.other.agent,
  clients: (f) => f.other.client,
  locations: (f) => f.other.location,
  devices: (f) => f.other.device,
};

const sampleBody = (f: Fixtures, d: ResourceDefinition, owner: Owned) => sampleRecord(d, owner, (prefix) => f.unique(prefix));

/**
 * The entries of a plain definition (no server part), derived as the routes are: the access its definition gives
 * each route, a row of the caller's own side, a row of the other side as the foreign call, and each reference field
 * tried with the other side's record. A side its scope names no column for sees none of its rows: its reads of one
 * are 404, its creates 403 (the new row would be hidden from its writer).
 */
export function definedEntries(d: ResourceDefinition): Record<string, MatrixEntry> {
  const base = `/api/${d.service}/${d.path}`;
  const read = { permission: d.list ?? d.permission };
  const write = { permission: d.edit ?? d.permission, ...(d.global ? { unrestricted: true as const } : {}) };
  const scope = typeof d.scope === 'object' ? d.scope : null;
  const blind = scope ? (['agent', 'client'] as const).filter((kind) => !scope[kind]) : [];
  const blindStatus = (code: number) => (blind.length ? Object.fromEntries(blind.map((kind) => [kind, code])) : undefined);
  const row = async (f: Fixtures, owner: Owned) => f.createAs('superAdmin', base, sampleBody(f, d, owner));
  const foreign = (make: (f: Fixtures, id: number) => Req): MatrixEntry['foreign'] =>
    scope ? async (f) => make(f, await row(f, f.other)) : 'global';
  const referenceFields = Object.entries(d.fields).filter(([, spec]) => spec.type === 'reference');
  const references = Object.fromEntries(
    referenceFields.flatMap(([name, spec]) => {
      const other = FOREIGN_REFERENCE[(spec as { reference: string }).reference];
      return other ? [[name, other]] : [];
    }),
  );
  const referenceStatus = (blindCode: number) =>
    blind.length ? Object.fromEntries(referenceFields.map(([name]) => [name, blindStatus(blindCode)!])) : undefined;
  return {
    [`GET ${base}`]: { access: read, request: path(base), foreign: 'none' },
    [`GET ${base}/lists`]: { access: 'signed-in', request: path(`${base}/lists`), foreign: 'none' },
    [`GET ${base}/:id`]: {
      access: read,
      request: async (f) => ({ url: `${base}/${await row(f, f.mine)}` }),
      scoped: blindStatus(404),
      foreign: foreign((_, id) => ({ url: `${base}/${id}` })),
    },
    [`POST ${base}`]: {
      access: write,
      request: (f) => ({ url: base, payload: sampleBody(f, d, f.mine) }),
      status: 201,
      scoped: blindStatus(403),
      // Creating a row of the other side is naming its records: the references below try that (422 on the field).
      foreign: 'none',
      references,
      referenceStatus: referenceStatus(422),
    },
    [`PUT ${base}/:id`]: {
      access: write,
      request: async (f) => ({ url: `${base}/${await row(f, f.mine)}`, payload: sampleBody(f, d, f.mine) }),
      scoped: blindStatus(404),
      foreign: foreign((f, id) => ({ url: `${base}/${id}`, payload: sampleBody(f, d, f.other) })),
      references,
      referenceStatus: referenceStatus(404),
    },
    [`DELETE ${base}/:id`]: {
      access: write,
      request: async (f) => ({ url: `${base}/${await row(f, f.mine)}` }),
      scoped: blindStatus(404),
      foreign: foreign((_, id) => ({ url: `${base}/${id}` })),
    },
  };
}
