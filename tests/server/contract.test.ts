import Fastify from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newToken } from '../../server/lib/tokens';
import { issueKioskToken } from '../../server/lib/kiosk';
import { authPlugin } from '../../server/plugins/auth';
import { createTestContext, formData, PASSWORD, type TestContext } from './helper';
import { sampleRecord, scratch } from './scratch-resource';
import { pngImage } from './image-fixtures';
import type { ResourceDefinition } from '../../src/resources/define';

let t: TestContext;
let admin: string;
let agentId: number;
let locationId: number;
/** Secrets that must never appear in a reply. */
let secrets: string[];
beforeAll(async () => {
  t = await createTestContext({}, undefined, undefined, scratch);
  const root = await t.build.user({ roles: ['Super Admin'], email: 'contract.root@example.test' });
  admin = await t.login(root.email);
  // Give the admin an API key too, so its digest exists to leak.
  const apiKeyHash = hashToken(newToken());
  await t.db.updateTable('users').set({ api_key_hash: apiKeyHash }).where('id', '=', root.id).execute();
  const client = await t.build.client();
  agentId = (await t.build.agent({ default_client_id: client.id })).id;
  locationId = (await t.build.location({ agent_id: agentId })).id;
  await t.build.device({ location_id: locationId, agent_id: agentId, default_client_id: client.id });
  const { password_hash } = await t.db.selectFrom('users').select('password_hash').where('id', '=', root.id).executeTakeFirstOrThrow();
  secrets = [password_hash, hashToken(admin), apiKeyHash, PASSWORD, 'password_hash', 'token_hash', 'api_key_hash', '$argon2'];
});

/** A record of a plain definition: its first row, or one the Super Admin creates from its fields. */
const definedSample = async (d: ResourceDefinition) => {
  const first = await sql<{ id: number }>`select min(id)::int as id from ${sql.table(d.table)}`.execute(t.db);
  if (first.rows[0].id !== null) return first.rows[0].id;
  const owner = { agent: agentId, client: (await catalogueIds()).client, location: locationId };
  let n = 0;
  const payload = sampleRecord(d, owner, (prefix) => `${prefix}-contract-${++n}`);
  const res = await t.as(admin, { method: 'POST', url: `/api/${d.service}/${d.path}`, payload });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json<{ id?: number; data?: { id: number } }>();
  return body.id ?? body.data!.id;
};

/** Rows for the user service's routes with an id (a user who is not a Super Admin, so one may impersonate them). */
let samples: { user: number; role: number; permission: number; option: number } | null = null;
const sampleIds = async () => {
  samples ??= {
    user: (await t.build.user({ roles: ['Client'], clients: [(await t.build.client()).id] })).id,
    role: (await t.db.selectFrom('roles').select('id').where('name', '=', 'Agent').executeTakeFirstOrThrow()).id,
    permission: (await t.db.selectFrom('permissions').select('id').where('name', '=', 'scan').executeTakeFirstOrThrow()).id,
    option: (await t.db.selectFrom('options').select('id').where('option_name', '=', 'GST_PERCENT').executeTakeFirstOrThrow()).id,
  };
  return samples;
};

/** Rows for the catalogue's and the e-mail service's routes with an id. */
let catalogue: { client: number; product: number; part: number; panel: number; emailTemplate: number } | null = null;
const catalogueIds = async () => {
  if (!catalogue) {
    const part = (await t.build.part()).id;
    const panelGroup = (await t.build.panelGroup()).id;
    catalogue = {
      client: (await t.build.client()).id,
      product: (await t.build.product()).id,
      part,
      panel: (await t.build.panel({ panel_group_id: panelGroup, part_id: part })).id,
      emailTemplate: (await t.build.emailTemplate()).id,
    };
  }
  return catalogue;
};

/** A registration the built-in plate look-up knows. */
let plate: string | null = null;
const plateNumber = async () => (plate ??= (await t.build.registration()).number);

/** A scan (scan service routes with an id). */
let scanSample: number | null = null;
const scanId = async () =>
  (scanSample ??= (await t.build.scan({ agent_id: agentId, location_id: locationId, license_plate: '1AB2CD' })).id);

let vehicleSample: number | null = null;
const vehicleId = async () => (vehicleSample ??= await t.build.vehicle([await scanId()]));

let quoteSample: number | null = null;
const quoteId = async () =>
  (quoteSample ??= (await t.build.quote((await t.build.scan({ agent_id: agentId, client_id: (await catalogueIds()).client })).id)).id);

/** Rows for the agent service's devices, webhooks and panel groups, and a stored file. */
let agentSide: { device: number; webhook: number; panelGroup: number; file: string } | null = null;
const agentSideIds = async () => {
  if (!agentSide) {
    const device = (await t.db.selectFrom('devices').select('id').where('agent_id', '=', agentId).executeTakeFirstOrThrow()).id;
    const upload = await t.as(admin, {
      method: 'POST',
      url: '/api/user/file/upload',
      ...(await formData({ file: { data: await pngImage(), filename: 'a.png' } })),
    });
    agentSide = {
      device,
      webhook: (await t.build.webhook({ agent_id: agentId })).id,
      panelGroup: (await t.build.panelGroup()).id,
      file: upload.json().data.key,
    };
  }
  return agentSide;
};

const expectNoSecrets = (label: string, body: string) => {
  for (const s of secrets) expect(body.includes(s), `${label} contains ${s.slice(0, 12)}…`).toBe(false);
};

/** Full GET paths from `printRoutes`' tree (one segment per line, four columns of indent per level). */
function getRoutes(tree: string): string[] {
  const stack: string[] = [];
  const out: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    if (m[3]?.split(', ').includes('GET')) out.push(stack.join(''));
  }
  return out;
}

const kioskToken = async () => {
  const agent = await t.db
    .selectFrom('agents')
    .select(['pincode_version', 'is_enabled'])
    .where('id', '=', agentId)
    .executeTakeFirstOrThrow();
  expect(agent.is_enabled).toBe(1);
  return issueKioskToken(t.app.signer, agentId, agent.pincode_version).token;
};

describe('no reply carries a secret', () => {
  it('sweeps every registered GET route as a Super Admin', async () => {
    const routes = getRoutes(t.app.printRoutes({ commonPrefix: false, method: 'GET' }));
    // Sanity: the parser sees the routes we know of.
    expect(routes).toEqual(
      expect.arrayContaining(['/api/health', '/api/user/auth/user', '/api/agent/locations', '/api/agent/locations/:id', '/api/docs/json']),
    );
    const swept: string[] = [];
    for (const route of routes) {
      if (route.endsWith('*')) continue;
      // Leaving impersonation needs an impersonation token; impersonation.test.ts checks its reply.
      if (route.endsWith('/leave')) continue;
      // The Pusher WebSocket endpoint answers only upgrades (a plain GET is 404); realtime.test.ts covers it.
      if (route === '/app/:key') continue;
      // Device routes take an API key, not a sign-in token; ingestion.test.ts checks their replies.
      if (route.includes('/ingest/')) continue;
      let url = route
        .replace(/\/locations\/:id/, `/locations/${locationId}`)
        .replace(/\/agents\/:id/, `/agents/${agentId}`)
        .replace(/\/clients\/:id/, `/clients/${(await catalogueIds()).client}`)
        .replace(/\/products\/:id/, `/products/${(await catalogueIds()).product}`)
        .replace(/\/parts\/:id/, `/parts/${(await catalogueIds()).part}`)
        .replace(/\/panels\/:id/, `/panels/${(await catalogueIds()).panel}`)
        .replace(/\/emailTemplates\/:id/, `/emailTemplates/${(await catalogueIds()).emailTemplate}`)
        .replace(/\/(users|impersonate\/take)\/:id/, `/$1/${(await sampleIds()).user}`)
        .replace(/\/roles\/:id/, `/roles/${(await sampleIds()).role}`)
        .replace(/\/permissions\/:id/, `/permissions/${(await sampleIds()).permission}`)
        .replace(/\/options\/:id/, `/options/${(await sampleIds()).option}`)
        .replace(/\/devices\/:id/, `/devices/${(await agentSideIds()).device}`)
        .replace(/\/webhooks\/:id/, `/webhooks/${(await agentSideIds()).webhook}`)
        .replace(/\/panelGroups\/:id/, `/panelGroups/${(await agentSideIds()).panelGroup}`)
        .replace(/\/files\/:key/, `/files/${(await agentSideIds()).file}`)
        .replace(/\/vehicles\/:id/, `/vehicles/${await vehicleId()}`)
        .replace(/\/scans\/:id/, `/scans/${await scanId()}`)
        .replace(/\/meta\/:id/, `/meta/${await scanId()}`)
        .replace(/\/license-plates\/fetch\/:number/, `/license-plates/fetch/${await plateNumber()}`)
        .replace(/\/quotes\/:id/, `/quotes/${await quoteId()}`)
        .replace(/\/approvals\/:token$/, `/approvals/${await t.build.approvalLink(await quoteId())}`)
        .replace(/\/portal\/:agentId\//, `/portal/${agentId}/`)
        .replace(/\/scans\/:scanId$/, `/scans/${await scanId()}`)
        // Routes that need a query of their own.
        .replace(/\/webhooks\/deliveries$/, `/webhooks/deliveries?agent_id=${agentId}`)
        .replace(/\/archData\/search$/, `/archData/search?scan_id=${await scanId()}`);
      // A plain definition's record: its first row, or one made from its fields (a new resource needs no line here).
      for (const d of t.app.definitions)
        if (url.endsWith(`/${d.service}/${d.path}/:id`)) url = url.replace(/:id$/, String(await definedSample(d)));
      // A new route with a parameter must be taught to this sweep.
      expect(url, `add a sample id for ${route}`).not.toMatch(/:\w+/);
      // The customer portal's routes take a kiosk token instead of a sign-in (portal-kiosk.test.ts checks refusals).
      const headers = /\/portal(\/|$)/.test(url) ? { 'x-kiosk-token': await kioskToken() } : {};
      const res = await t.as(admin, { method: 'GET', url, headers });
      // The documentation UI redirects between its own pages.
      if (url.startsWith('/api/docs')) expect(res.statusCode, url).toBeLessThan(400);
      else expect(res.statusCode, url).toBe(200);
      expectNoSecrets(url, res.body);
      swept.push(url);
    }
    expect(swept.length).toBeGreaterThanOrEqual(10);
  });

  it('sweeps the auth replies and the location writes', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/user/auth/login',
      payload: { email: 'contract.root@example.test', password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().data.token as string;
    secrets.push(hashToken(token));
    const replies = [
      login,
      await t.app.inject({
        method: 'POST',
        url: '/api/user/auth/login',
        payload: { email: 'contract.root@example.test', password: 'wrong-one' },
      }),
      await t.as(token, { method: 'GET', url: '/api/user/auth/user' }),
      await t.as(token, {
        method: 'PUT',
        url: '/api/user/auth/profile',
        payload: { first_name: 'Root', last_name: 'Admin', email: 'contract.root@example.test' },
      }),
      await t.as(token, { method: 'POST', url: '/api/user/auth/consent' }),
      await t.as(token, { method: 'POST', url: '/api/agent/locations', payload: { name: 'Contract site', state: 'WA' } }),
      await t.as(token, {
        method: 'PUT',
        url: `/api/agent/locations/${locationId}`,
        payload: { name: 'Contract site 2', state: 'WA', agent_id: agentId },
      }),
      await t.as(token, { method: 'POST', url: '/api/user/auth/forgot-password', payload: { email: 'contract.root@example.test' } }),
    ];
    for (const r of replies) {
      expect(r.statusCode, r.body).toBeLessThan(500);
      expectNoSecrets(`${r.raw.req.method} ${r.raw.req.url}`, r.body);
    }
    expect(replies.map((r) => r.statusCode)).toEqual([200, 422, 200, 200, 200, 201, 200, 200]);
  });
});

describe('the error shape', () => {
  it('answers a server failure with a generic message and a request id, never the cause', async () => {
    await sql`alter table locations rename to locations_away`.execute(t.db);
    try {
      const res = await t.as(admin, { method: 'GET', url: '/api/agent/locations' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: 'Server Error', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(res.body).not.toMatch(/locations|relation|stack|at \w+ \(/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await sql`alter table locations_away rename to locations`.execute(t.db);
    }
    expect((await t.as(admin, { method: 'GET', url: '/api/agent/locations' })).statusCode).toBe(200);
  });

  it('answers invalid JSON with 422 on `body`', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { body: expect.any(String) } });
  });
});

describe('system routes and documentation', () => {
  it('reports liveness and readiness without a token', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('publishes an OpenAPI document of the API', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/agent/locations', '/api/agent/locations/{id}', '/api/user/auth/login']),
    );
    expect(doc.paths['/api/user/auth/login'].post).toBeDefined();
    expect(doc.paths['/api/agent/locations'].get.responses['200']).toBeDefined();
  });

  it('sends security headers', async () => {
    for (const res of [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/api/nowhere' }),
      await t.app.inject({ method: 'GET', url: '/api/agent/locations' }),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    }
  });
});

describe('every /api route declares its access', () => {
  const handler = async () => ({ ok: true });

  it('refuses to build an app with an /api route that does not say who may call it', async () => {
    const app = Fastify();
    await app.register(authPlugin);
    await expect(async () => {
      app.get('/api/forgotten', handler);
      await app.ready();
    }).rejects.toThrow('Route GET /api/forgotten does not declare its access (config.access)');
    await app.close().catch(() => {});
  });

  it('builds when every /api route declares it (and routes outside /api need not)', async () => {
    const app = Fastify();
    await app.register(authPlugin);
    app.get('/api/declared', { config: { access: 'public' } }, handler);
    app.get('/not-api', handler);
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/api/declared' })).json()).toEqual({ ok: true });
    await app.close();
  });

  it('the real app holds the signed-in routes behind a token, HEAD included', async () => {
    for (const url of [
      '/api/user/auth/user',
      '/api/agent/locations',
      '/api/agent/locations/lists',
      `/api/agent/locations/${locationId}`,
      '/api/agent/agents/lists',
      `/api/agent/agents/${agentId}/branding`,
      '/api/quote/clients/lists',
    ]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    }
  });
});
