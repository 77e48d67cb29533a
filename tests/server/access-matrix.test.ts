import fs from 'node:fs';
import { hash } from '@node-rs/argon2';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describedResources, referenceFields, registerResource } from '../../server/lib/resource';
import { hashToken, newToken } from '../../server/lib/tokens';
import { type ApiRoute, authPlugin } from '../../server/plugins/auth';
import { SAMPLE_VIDEO_PATH } from '../../server/scans-generator/images';
import { issueKioskToken } from '../../server/lib/kiosk';
import { findAccessByUserId } from '../../server/lib/access';
import { PERMISSIONS } from '../../src/domain/permissions';
import {
  type Actor,
  definedEntries,
  type Fixtures,
  matrix as handMatrix,
  type MatrixEntry,
  MISSING_ID,
  type Owned,
  type Req,
} from './access-matrix';
import { createTestContext, formData } from './helper';
import { scratch } from './scratch-resource';
import { pngImage } from './image-fixtures';

/**
 * Every registered /api route, taken from the app's own route table (`app.apiRoutes`, kept by
 * the auth plugin's onRoute hook), called without a token, by a Client user, an Agent user, a user holding every
 * permission but the route's, the Agent and Client users given every permission (so that their scope, not a
 * permission, is what refuses), and a Super Admin. What each call must get is in `access-matrix.ts`.
 */
const t = await createTestContext({ RATE_LIMIT_PER_MINUTE: '1000000' }, undefined, undefined, scratch);
/** The hand-written entries, and those derived for every plain definition the app serves (the scratch one included). */
const matrix: Record<string, MatrixEntry> = {
  ...Object.fromEntries(t.app.definitions.filter((d) => !d.server).flatMap((d) => Object.entries(definedEntries(d)))),
  ...handMatrix,
};

let seq = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++seq}`;

/** A sign-in token made the way login makes one, without the password hashing (fast). */
async function mint(userId: number, impersonatorId: number | null = null) {
  const token = newToken();
  await t.db
    .insertInto('api_tokens')
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      impersonator_id: impersonatorId,
      expires_at: new Date(Date.now() + 3_600_000),
    })
    .execute();
  return token;
}

async function owned(tag: string): Promise<Owned> {
  const client = (await t.build.client({ name: `Matrix ${tag} client` })).id;
  // calculate-category needs a complete method.
  await t.db.updateTable('clients').set({ sc_threshold: 5 }).where('id', '=', client).execute();
  const agent = (await t.build.agent({ name: `Matrix ${tag} agent`, default_client_id: client })).id;
  const location = (await t.build.location({ agent_id: agent })).id;
  const device = (await t.build.device({ location_id: location, agent_id: agent, default_client_id: client, serial: unique(tag) })).id;
  return {
    client,
    agent,
    location,
    device,
    webhook: (await t.build.webhook({ agent_id: agent })).id,
    scan: (await t.build.scan({ agent_id: agent, client_id: client, location_id: location, device_id: device, status: 'metadata' })).id,
    user: (await t.build.user({ roles: ['Agent', 'Client'], agents: [agent], clients: [client] })).id,
  };
}

const portalPinHash = await hash('246810');
const mine = await owned('mine');
const other = await owned('other');
const everyPermission = [...PERMISSIONS];
const actorUsers: Record<Actor, { id: number; email: string }> = {
  superAdmin: await t.build.user({ roles: ['Super Admin'] }),
  agent: await t.build.user({ roles: ['Agent'], agents: [mine.agent] }),
  client: await t.build.user({ roles: ['Client'], clients: [mine.client] }),
  agentPlus: await t.build.user({ roles: ['Agent'], agents: [mine.agent], permissions: everyPermission }),
  clientPlus: await t.build.user({ roles: ['Client'], clients: [mine.client], permissions: everyPermission }),
};
const tokens = Object.fromEntries(
  await Promise.all(Object.entries(actorUsers).map(async ([who, u]) => [who, await mint(u.id)] as const)),
) as Record<Actor, string>;
const permissionsOf = Object.fromEntries(
  await Promise.all(
    Object.entries(actorUsers).map(async ([who, u]) => [who, (await findAccessByUserId(t.db, u.id))?.permissions ?? []] as const),
  ),
) as Record<Actor, string[]>;
/** For each permission, a user holding every other one. */
const withoutPermission = Object.fromEntries(
  await Promise.all(
    PERMISSIONS.map(async (p) => [p, await mint((await t.build.user({ permissions: PERMISSIONS.filter((q) => q !== p) })).id)] as const),
  ),
) as Record<string, string>;
const apiKey = newToken();
await t.db
  .updateTable('users')
  .set({ api_key_hash: hashToken(apiKey) })
  .where('id', '=', actorUsers.agent.id)
  .execute();

const png = await pngImage();
const webm = fs.readFileSync(SAMPLE_VIDEO_PATH);
const upload = async (who: Actor) => {
  const res = await t.as(tokens[who], {
    method: 'POST',
    url: '/api/user/file/upload',
    ...(await formData({ file: { data: png, filename: 'a.png' } })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.key as string;
};
const panelGroup = (await t.build.panelGroup()).id;
const part = (await t.build.part()).id;

const f: Fixtures = {
  async createAs(who, url, payload) {
    const res = await t.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: { authorization: `Bearer ${tokens[who]}` },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<{ id?: number; data?: { id: number } }>();
    return body.id ?? body.data!.id;
  },
  mine,
  other,
  global: {
    product: (await t.build.product()).id,
    part,
    panelGroup,
    panel: (await t.build.panel({ panel_group_id: panelGroup, part_id: part })).id,
    emailTemplate: (await t.build.emailTemplate()).id,
    role: (await t.db.selectFrom('roles').select('id').where('name', '=', 'Agent').executeTakeFirstOrThrow()).id,
    permission: (await t.db.selectFrom('permissions').select('id').where('name', '=', 'scan').executeTakeFirstOrThrow()).id,
    option: (await t.db.selectFrom('options').select('id').where('option_name', '=', 'GST_PERCENT').executeTakeFirstOrThrow()).id,
    file: await upload('superAdmin'),
  },
  users: actorUsers,
  build: t.build,
  unique,
  serial: () => String(1_000_000_000 + ++seq),
  png: () => Promise.resolve(png),
  webm: () => webm,
  form: formData,
  upload,
  token: (who) => mint(actorUsers[who].id),
  impersonating: async () => mint((await t.build.user({ roles: ['Client'], clients: [mine.client] })).id, actorUsers.superAdmin.id),
  apiKey,
  async resetToken() {
    const token = newToken();
    const user = await t.build.user();
    await t.db
      .insertInto('password_resets')
      .values({ user_id: user.id, token_hash: hashToken(token), expires_at: new Date(Date.now() + 600_000) })
      .execute();
    return token;
  },
  async role(name) {
    const role = await t.db.insertInto('roles').values({ name }).returning('id').executeTakeFirstOrThrow();
    await sql`insert into role_permissions (role_id, permission_id) select ${role.id}, id from permissions where name = 'scan'`.execute(
      t.db,
    );
    return role.id;
  },
  async permission(name) {
    return (await t.db.insertInto('permissions').values({ name }).returning('id').executeTakeFirstOrThrow()).id;
  },
  async portalAgent() {
    const agent = await t.build.agent({ is_enabled: 1, pincode_hash: portalPinHash, default_client_id: mine.client });
    const row = await t.db.selectFrom('agents').select('pincode_version').where('id', '=', agent.id).executeTakeFirstOrThrow();
    return { id: agent.id, kiosk: issueKioskToken(t.app.signer, agent.id, row.pincode_version).token };
  },
  async deviceScan() {
    return (await t.build.scan({ agent_id: mine.agent, client_id: mine.client, device_id: mine.device, status: 'metadata' })).id;
  },
};

// ---- "Nothing changed": every table's rows (and the file store) before and after the refused calls ----

/** Tables a refused call may touch: none so far (tokens are minted before the calls). */
const tables = (
  await sql<{ tablename: string }>`select tablename from pg_tables where schemaname = 'public' order by 1`.execute(t.db)
).rows.map((r) => r.tablename);
/** Per table: its row count and the sum of its rows' hashes (order-free, so no sort). */
async function snapshot() {
  const parts = tables.map(
    (name) => sql<{ name: string; digest: string }>`select ${name}::text as name,
      count(*) || ':' || coalesce(sum(hashtextextended(x::text, 0)::numeric), 0) as digest from ${sql.table(name)} x`,
  );
  const rows = (await sql<{ name: string; digest: string }>`${sql.join(parts, sql` union all `)}`.execute(t.db)).rows;
  return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
}
const stored: string[] = [];
const put = t.app.storage.put.bind(t.app.storage);
t.app.storage.put = async (data, type) => {
  const key = await put(data, type);
  stored.push(key);
  return key;
};

// ---- The history: each write of a scan or a quote leaves exactly one event, every other call none ----

/** The scan and quote services' writes that change a scan or a quote (the history's subjects). */
const RECORDED = new Set([
  'PUT /api/scan/scans/:id',
  'DELETE /api/scan/scans/:id',
  'POST /api/scan/scans',
  'POST /api/scan/scans/:id/refresh',
  'POST /api/scan/scans/arch/edit-damage-count',
  'POST /api/scan/scans/:id/annotates',
  'DELETE /api/scan/scans/:id/annotates/:imageId',
  'PUT /api/scan/scans/:id/tyre-repairs',
  'POST /api/quote/quotes',
  'DELETE /api/quote/quotes/:id',
  'PUT /api/quote/quotes/:id/manual_check',
  'PUT /api/quote/quotes/:id/delete_vehicle_photo',
  'POST /api/quote/quotes/:id/approval',
  'DELETE /api/quote/quotes/:id/approval',
  'POST /api/quote/approvals/:token',
]);
/** Reads that record one event: the approval page's first opening (`quote.viewed`; the matrix opens a fresh link each time). */
const RECORDED_READS = new Set(['GET /api/quote/approvals/:token']);
/**
 * The other non-GET routes of those services: searches (reads sent as POST), the catalogue (no scan or quote), and
 * the scans a device or a kiosk writes itself, whose history starts with the first user's change.
 */
const UNRECORDED =
  /^POST \/api\/(scan\/(scans|license-plates)\/search|quote\/quotes\/search)$|^\w+ \/api\/quote\/(?!quotes\b|approvals\b)|^\w+ \/api\/scan\/(ingest|portal)\//;
const eventCount = async () => Number((await sql<{ n: string }>`select count(*)::text as n from events`.execute(t.db)).rows[0].n);

// ---- Calls ----

const key = (r: ApiRoute) => `${r.method} ${r.url}`;
type Caller = { who: Actor | 'no token' | 'kiosk' | `without ${string}` | 'sign-in token'; bearer: string | null };
const kiosk: Caller = { who: 'kiosk', bearer: null };
const withoutKiosk = (req: Req): Req => ({
  ...req,
  headers: Object.fromEntries(Object.entries(req.headers ?? {}).filter(([h]) => h !== 'x-kiosk-token')),
});

function send(route: ApiRoute, caller: Caller, req: Req, useOverride: boolean) {
  const bearer = useOverride && req.token ? req.token : caller.bearer;
  return t.app.inject({
    method: route.method as 'GET',
    url: req.url,
    payload: req.payload as string | undefined,
    headers: { ...req.headers, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
  });
}
const describeCall = (route: ApiRoute, caller: Caller, req: Req, res: LightMyRequestResponse) =>
  `${caller.who}: ${route.method} ${req.url} -> ${res.statusCode} ${res.body.slice(0, 300)}`;

/** The caller standing for the Agent (or Client) side: the plain role when it may call the route, else the one with every permission. */
function side(entry: MatrixEntry, kind: 'agent' | 'client'): Caller {
  if (entry.access === 'device') return { who: 'agent', bearer: apiKey };
  const permission = typeof entry.access === 'object' ? entry.access.permission : null;
  const who: Actor = !permission || permissionsOf[kind].includes(permission) ? kind : kind === 'agent' ? 'agentPlus' : 'clientPlus';
  return { who, bearer: tokens[who] };
}
const sides = (entry: MatrixEntry) =>
  entry.access === 'portal' ? [kiosk] : entry.access === 'device' ? [side(entry, 'agent')] : [side(entry, 'agent'), side(entry, 'client')];
const as = (who: Actor): Caller => ({ who, bearer: tokens[who] });
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);

/** A write to a record every agent and client shares: only an unrestricted scope (Super Admin) makes it. */
const globalWrite = (entry: MatrixEntry) => typeof entry.access === 'object' && entry.access.unrestricted === true;

interface Refusal {
  caller: Caller;
  req: Req;
  check(res: LightMyRequestResponse): string | null;
}
const status =
  (...codes: number[]) =>
  (res: LightMyRequestResponse) =>
    codes.includes(res.statusCode) ? null : `expected ${codes.join(' or ')}`;
/** 403, or the model's 404 ('No query results for model [Scan] 12'): a foreign row is never told apart from a missing one otherwise. */
const forbiddenOrNotFound = (res: LightMyRequestResponse) => {
  if (res.statusCode === 403) return null;
  if (res.statusCode === 404 && /^No query results for model \[\w+\] /.test(res.json().error)) return null;
  return "expected 403 or the model's 404";
};
const onField = (field: string, code: number) => (res: LightMyRequestResponse) => {
  if (res.statusCode !== code) return `expected ${code} on ${field}`;
  if (code === 422 && typeof res.json().error?.[field] !== 'string') return `expected a message on ${field}`;
  return null;
};

async function refusals(route: ApiRoute, entry: MatrixEntry): Promise<Refusal[]> {
  const out: Refusal[] = [];
  const base = () => entry.request(f, 'superAdmin');
  const anonymousRefused = entry.access === 'optional' ? entry.anonymous === 401 : entry.access !== 'public' && entry.access !== 'portal';
  if (anonymousRefused) out.push({ caller: { who: 'no token', bearer: null }, req: await base(), check: status(401) });
  // A portal without its kiosk token, or with the token of another agent's kiosk: 401, the pincode is asked again.
  if (entry.access === 'portal') out.push({ caller: kiosk, req: withoutKiosk(await base()), check: status(401) });
  if (entry.access === 'device')
    out.push({ caller: { who: 'sign-in token', bearer: tokens.superAdmin }, req: await base(), check: status(401) });
  if (typeof entry.access === 'object') {
    const p = entry.access.permission;
    out.push({ caller: { who: `without ${p}`, bearer: withoutPermission[p] }, req: await base(), check: status(403) });
    for (const who of ['agent', 'client'] as const)
      if (!permissionsOf[who].includes(p)) out.push({ caller: as(who), req: await entry.request(f, who), check: status(403) });
  }
  if (typeof entry.foreign === 'function')
    for (const caller of sides(entry))
      out.push({
        caller,
        req: await entry.foreign(f, caller.who as Actor),
        check: entry.access === 'portal' ? status(401) : forbiddenOrNotFound,
      });
  if (globalWrite(entry))
    for (const caller of sides(entry)) out.push({ caller, req: await entry.request(f, caller.who as Actor), check: status(403) });
  for (const [field, foreignValue] of Object.entries(entry.references ?? {})) {
    const given = entry.referenceStatus?.[field] ?? 422;
    for (const caller of sides(entry)) {
      const code = typeof given === 'number' ? given : (given[caller.who.startsWith('agent') ? 'agent' : 'client'] ?? 422);
      const req = await entry.request(f, caller.who as Actor);
      if (isPlainObject(req.payload) && field in req.payload)
        out.push({ caller, req: { ...req, payload: { ...req.payload, [field]: foreignValue(f) } }, check: onField(field, code) });
    }
    // An id that names no row at all: 422 for everyone, a Super Admin included.
    const caller = entry.access === 'device' ? side(entry, 'agent') : as('superAdmin');
    const req = await entry.request(f, caller.who as Actor);
    if (isPlainObject(req.payload) && field in req.payload) {
      const missing = Array.isArray(req.payload[field]) ? [MISSING_ID] : MISSING_ID;
      out.push({ caller, req: { ...req, payload: { ...req.payload, [field]: missing } }, check: onField(field, 422) });
    }
  }
  return out;
}

async function check(route: ApiRoute, entry: MatrixEntry) {
  const label = key(route);
  expect(route.access, `${label}: the route declares other access than access-matrix.ts says`).toEqual(entry.access);
  const failures: string[] = [];

  // Refused calls: each gets its status, and together they change nothing.
  const refused = await refusals(route, entry);
  // An earlier route's permitted call may have left work running after its reply (the signed PDF of an approval
  // writes its link's row): it must not land between the two snapshots and count as this route's change.
  await t.app.background.settled();
  const before = refused.length ? await snapshot() : {};
  stored.length = 0;
  for (const r of refused) {
    const res = await send(route, r.caller, r.req, false);
    const problem = r.check(res);
    if (problem) failures.push(`${problem}: ${describeCall(route, r.caller, r.req, res)}`);
  }
  const after = refused.length ? await snapshot() : {};
  const changed = tables.filter((name) => before[name] !== after[name]);
  if (changed.length) failures.push(`refused calls changed ${changed.join(', ')}`);
  if (stored.length) failures.push(`refused calls stored ${stored.length} file(s)`);

  // Permitted calls: the Super Admin (public routes: nobody), then the Agent and Client sides.
  const permitted: { caller: Caller; expected: number }[] =
    entry.access === 'public'
      ? [{ caller: { who: 'no token', bearer: null }, expected: entry.status ?? 200 }]
      : entry.access === 'portal'
        ? [{ caller: kiosk, expected: entry.status ?? 200 }]
        : entry.access === 'device'
          ? [{ caller: side(entry, 'agent'), expected: entry.status ?? 200 }]
          : [
              { caller: as('superAdmin'), expected: entry.status ?? 200 },
              ...(globalWrite(entry) ? [] : (['agent', 'client'] as const)).map((kind) => ({
                caller: side(entry, kind),
                expected: (typeof entry.scoped === 'number' ? entry.scoped : entry.scoped?.[kind]) ?? entry.status ?? 200,
              })),
              ...(entry.access === 'optional' && entry.anonymous !== 401
                ? [{ caller: { who: 'no token', bearer: null } as Caller, expected: entry.anonymous ?? 200 }]
                : []),
            ];
  for (const { caller, expected } of permitted) {
    const req = await entry.request(f, caller.who === 'no token' ? 'superAdmin' : (caller.who as Actor));
    const events = await eventCount();
    const res = await send(route, caller, req, true);
    if (res.statusCode !== expected) failures.push(`expected ${expected}: ${describeCall(route, caller, req, res)}`);
    const recorded = (await eventCount()) - events;
    const due = (RECORDED.has(label) || RECORDED_READS.has(label)) && res.statusCode < 300 ? 1 : 0;
    if (recorded !== due) failures.push(`expected ${due} event(s), got ${recorded}: ${describeCall(route, caller, req, res)}`);
  }
  expect(failures, label).toEqual([]);
}

const routes = t.app.apiRoutes;

describe('the access matrix', () => {
  it('has an entry for every registered /api route, and none for a route that is gone', () => {
    expect(routes.length).toBeGreaterThan(100);
    const missing = routes.map(key).filter((k) => !matrix[k]);
    expect(missing, `add these routes to tests/server/access-matrix.ts: ${missing.join(', ')}`).toEqual([]);
    const gone = Object.keys(matrix).filter((k) => !routes.some((r) => key(r) === k));
    expect(gone, `remove these entries from tests/server/access-matrix.ts: ${gone.join(', ')}`).toEqual([]);
  });

  it('knows of every write of the scan and quote services whether it leaves an event', () => {
    const writes = routes.map(key).filter((k) => /^(POST|PUT|PATCH|DELETE) \/api\/(scan|quote)\//.test(k));
    expect(writes.filter((k) => RECORDED.has(k) === UNRECORDED.test(k))).toEqual([]);
    expect([...RECORDED].filter((k) => !writes.includes(k))).toEqual([]);
  });

  it("tries every reference field of every described resource's writes", () => {
    const unlisted: string[] = [];
    for (const d of describedResources(t.app.definitions.map((r) => r.path))) {
      const fields = referenceFields(d.fields);
      const writes = routes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE' && new RegExp(`/${d.path}(/:id)?$`).test(r.url));
      expect(writes.length, d.path).toBeGreaterThan(0);
      for (const r of writes) for (const field of fields) if (!matrix[key(r)]?.references?.[field]) unlisted.push(`${key(r)} ${field}`);
    }
    expect(unlisted, 'add these reference fields to the entries in tests/server/access-matrix.ts').toEqual([]);
  });

  for (const route of routes) {
    const entry = matrix[key(route)];
    if (entry) it(key(route), () => check(route, entry));
  }
});

describe('reference fields name registered resources', () => {
  it('refuses to start when a reference field names no described resource (its writes could not be checked)', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(authPlugin);
    registerResource(app, {
      path: 'matrixGhosts',
      model: 'MatrixGhost',
      table: 'matrix_ghosts',
      permission: 'location',
      fields: { haunt_id: { type: 'reference', label: 'Haunt', reference: 'haunts' } },
      record: z.object({ id: z.number() }),
      searchable: [],
      sortable: ['id'],
      defaultSort: { field: 'id', order: 'asc' },
      scope: 'global',
      lists: { text: 'id' },
    });
    await expect(app.ready()).rejects.toThrow("MatrixGhost.haunt_id references 'haunts', which no resource describes");
    await app.close().catch(() => {});
  });
});
