import { beforeAll, describe, expect, it } from 'vitest';
import { type Call, createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestContext();
  const root = await t.build.user({ roles: ['Super Admin'] });
  admin = await t.login(root.email);
});

const notFound = (id: string | number) => ({ error: `No query results for model [Location] ${id}` });
const ids = (rows: { id?: number; value?: number }[]) => rows.map((r) => r.id ?? r.value).sort((a, b) => a! - b!);
const countLocations = async () =>
  (
    await t.db
      .selectFrom('locations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

describe('authentication and permission', () => {
  it('answers 401 {error} without a token on a protected route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/agent/locations' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthenticated.' });
  });

  it('answers 403 on every locations route to a user without `location`, and changes nothing', async () => {
    const client = await t.build.client();
    const u = await t.build.user({ roles: ['Client'], clients: [client.id] });
    const token = await t.login(u.email);
    const loc = await t.build.location({ name: 'Untouchable' });
    const before = await countLocations();
    const calls: Call[] = [
      { method: 'GET', url: '/api/agent/locations' },
      { method: 'GET', url: `/api/agent/locations/${loc.id}` },
      { method: 'POST', url: '/api/agent/locations', payload: { name: 'Sneaky', state: 'VIC' } },
      { method: 'PUT', url: `/api/agent/locations/${loc.id}`, payload: { name: 'Renamed', state: 'NSW' } },
      { method: 'DELETE', url: `/api/agent/locations/${loc.id}` },
    ];
    for (const call of calls) {
      const res = await t.as(token, call);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(res.json()).toEqual({ error: 'This action is unauthorized.' });
    }
    expect(await countLocations()).toBe(before);
    const stored = await t.db.selectFrom('locations').select(['name', 'state']).where('id', '=', loc.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'Untouchable', state: 'VIC' });
  });

  it('lets a user holding only `location` through (they see nothing: no agent or client of their own)', async () => {
    const u = await t.build.user({ permissions: ['location'] });
    const token = await t.login(u.email);
    const list = await t.as(token, { method: 'GET', url: '/api/agent/locations' });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ items: [], total: 0 });
  });
});

describe('scoping of locations', () => {
  let agentA: number;
  let agentA2: number;
  let agentB: number;
  let locA: number;
  let locA2: number;
  let locB: number;
  let locShared: number;
  let agentUser: string;
  beforeAll(async () => {
    agentA = (await t.build.agent({ name: 'Scope Agent A' })).id;
    agentA2 = (await t.build.agent({ name: 'Scope Agent A2' })).id;
    agentB = (await t.build.agent({ name: 'Scope Agent B' })).id;
    locA = (await t.build.location({ name: 'Scope A site', agent_id: agentA })).id;
    locA2 = (await t.build.location({ name: 'Scope A2 site', agent_id: agentA2 })).id;
    locB = (await t.build.location({ name: 'Scope B site', agent_id: agentB })).id;
    locShared = (await t.build.location({ name: 'Scope shared site', agent_id: null })).id;
    const u = await t.build.user({ roles: ['Agent'], agents: [agentA, agentA2] });
    agentUser = await t.login(u.email);
  });

  it("an Agent user sees only their agents' locations in the page, the total and the lists", async () => {
    const page = await t.as(agentUser, { method: 'GET', url: '/api/agent/locations?q=Scope&per_page=100' });
    expect(page.statusCode).toBe(200);
    expect(ids(page.json().items)).toEqual([locA, locA2]);
    expect(page.json().total).toBe(2);
    const lists = await t.as(agentUser, { method: 'GET', url: '/api/agent/locations/lists' });
    expect(ids(lists.json())).toEqual([locA, locA2]);
    // Each site names its agent: the device form offers the chosen owner's sites and the unowned ones.
    expect(lists.json().map((o: { agent_id: unknown }) => o.agent_id)).toEqual([agentA, agentA2]);

    const all = await t.as(admin, { method: 'GET', url: '/api/agent/locations?q=Scope&per_page=100' });
    expect(ids(all.json().items)).toEqual([locA, locA2, locB, locShared]);
  });

  it("the lists narrow to one agent's sites by agent_id, never past the caller's scope", async () => {
    const narrowed = async (token: string, agent: number) =>
      ids((await t.as(token, { method: 'GET', url: `/api/agent/locations/lists?agent_id=${agent}` })).json());
    expect(await narrowed(admin, agentB)).toEqual([locB]);
    expect(await narrowed(agentUser, agentA2)).toEqual([locA2]);
    expect(await narrowed(agentUser, agentB)).toEqual([]);
  });

  it("an Agent user gets the model's 404 for another agent's location on GET, PUT and DELETE", async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      for (const id of [locB, locShared]) {
        const res = await t.as(agentUser, {
          method,
          url: `/api/agent/locations/${id}`,
          ...(method === 'PUT' ? { payload: { name: 'Hijacked', state: 'WA', agent_id: agentA } } : {}),
        });
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json()).toEqual(notFound(id));
      }
    }
    const b = await t.db.selectFrom('locations').select(['name', 'agent_id']).where('id', '=', locB).executeTakeFirstOrThrow();
    expect(b).toEqual({ name: 'Scope B site', agent_id: agentB });
  });

  it("an Agent user's new location defaults to their agent; naming another agent is refused and stores nothing", async () => {
    const created = await t.as(agentUser, { method: 'POST', url: '/api/agent/locations', payload: { name: 'Agent made', state: 'QLD' } });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ name: 'Agent made', agent_id: agentA });

    const own = await t.as(agentUser, {
      method: 'POST',
      url: '/api/agent/locations',
      payload: { name: 'Agent made 2', state: 'QLD', agent_id: agentA2 },
    });
    expect(own.statusCode).toBe(201);
    expect(own.json().data.agent_id).toBe(agentA2);

    const before = await countLocations();
    const foreign = await t.as(agentUser, {
      method: 'POST',
      url: '/api/agent/locations',
      payload: { name: 'Planted', state: 'QLD', agent_id: agentB },
    });
    // An id the writer may not read is the field's fault.
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json()).toEqual({ error: { agent_id: 'The selected agent is invalid' } });
    expect(await countLocations()).toBe(before);
    expect(await t.db.selectFrom('locations').select('id').where('name', '=', 'Planted').execute()).toEqual([]);
  });

  it("an Agent user's update keeps the location's agent when none is sent, and cannot move it to another agent", async () => {
    const keep = await t.as(agentUser, {
      method: 'PUT',
      url: `/api/agent/locations/${locA2}`,
      payload: { name: 'Scope A2 site', state: 'NT' },
    });
    expect(keep.statusCode).toBe(200);
    expect(keep.json().data).toMatchObject({ id: locA2, state: 'NT', agent_id: agentA2 });

    const move = await t.as(agentUser, {
      method: 'PUT',
      url: `/api/agent/locations/${locA}`,
      payload: { name: 'Scope A site', state: 'VIC', agent_id: agentB },
    });
    expect(move.statusCode).toBe(422);
    expect(move.json()).toEqual({ error: { agent_id: 'The selected agent is invalid' } });
    // Clearing the agent would make it a shared site, which only a Super Admin manages.
    const clear = await t.as(agentUser, {
      method: 'PUT',
      url: `/api/agent/locations/${locA}`,
      payload: { name: 'Scope A site', state: 'VIC', agent_id: null },
    });
    expect(clear.statusCode).toBe(403);
    const a = await t.db.selectFrom('locations').select(['agent_id', 'state']).where('id', '=', locA).executeTakeFirstOrThrow();
    expect(a).toEqual({ agent_id: agentA, state: 'VIC' });
  });

  it('an admin update without agent_id keeps the agent', async () => {
    const res = await t.as(admin, { method: 'PUT', url: `/api/agent/locations/${locB}`, payload: { name: 'Scope B site', state: 'SA' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ state: 'SA', agent_id: agentB });
  });

  it('a Client user sees only locations where a device serves their client or where their client has scans', async () => {
    const c = (await t.build.client()).id;
    const other = (await t.build.client()).id;
    const served = (await t.build.location({ name: 'Client served', agent_id: agentB })).id;
    const scanned = (await t.build.location({ name: 'Client scanned', agent_id: agentB })).id;
    const unserved = (await t.build.location({ name: 'Client unserved', agent_id: agentB })).id;
    await t.build.device({ location_id: served, agent_id: agentB, default_client_id: c });
    await t.build.device({ location_id: unserved, agent_id: agentB, default_client_id: other });
    // A site whose device serves another client by default, where a scan was made for this one.
    await t.build.device({ location_id: scanned, agent_id: agentB, default_client_id: other });
    await t.build.scan({ agent_id: agentB, client_id: c, location_id: scanned });
    const u = await t.build.user({ roles: ['Client'], clients: [c], permissions: ['location'] });
    const token = await t.login(u.email);

    const page = await t.as(token, { method: 'GET', url: '/api/agent/locations?q=Client' });
    expect(page.json()).toMatchObject({ total: 2, items: [{ id: scanned }, { id: served }] });
    expect(ids((await t.as(token, { method: 'GET', url: '/api/agent/locations/lists' })).json())).toEqual([served, scanned]);
    expect((await t.as(token, { method: 'GET', url: `/api/agent/locations/${served}` })).statusCode).toBe(200);
    const hidden = await t.as(token, { method: 'GET', url: `/api/agent/locations/${unserved}` });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual(notFound(unserved));
  });
});

describe('the X_SNG_AGENTS selector', () => {
  let a: number;
  let b: number;
  let locA: number;
  let locB: number;
  beforeAll(async () => {
    a = (await t.build.agent()).id;
    b = (await t.build.agent()).id;
    locA = (await t.build.location({ name: 'Header A', agent_id: a })).id;
    locB = (await t.build.location({ name: 'Header B', agent_id: b })).id;
  });
  const page = (token: string, header?: string) =>
    t.as(token, { method: 'GET', url: '/api/agent/locations?q=Header', headers: header === undefined ? {} : { X_SNG_AGENTS: header } });

  it("narrows an admin's view", async () => {
    expect(ids((await page(admin)).json().items)).toEqual([locA, locB]);
    const narrowed = await page(admin, String(a));
    expect(narrowed.json()).toMatchObject({ total: 1, items: [{ id: locA }] });
    expect(ids((await page(admin, `${a},${b}`)).json().items)).toEqual([locA, locB]);
    expect(ids((await page(admin, `[${b}]`)).json().items)).toEqual([locB]);
    const single = await t.as(admin, { method: 'GET', url: `/api/agent/locations/${locB}`, headers: { X_SNG_AGENTS: String(a) } });
    expect(single.statusCode).toBe(404);
  });

  it("never widens an Agent user's view", async () => {
    const u = await t.build.user({ roles: ['Agent'], agents: [a] });
    const token = await t.login(u.email);
    expect((await page(token, String(b))).json()).toEqual({ items: [], total: 0 });
    expect(ids((await page(token, `${a},${b}`)).json().items)).toEqual([locA]);
    expect(ids((await page(token, 'all')).json().items)).toEqual([locA]);
  });

  it('treats `all` as no selection', async () => {
    expect(ids((await page(admin, 'all')).json().items)).toEqual([locA, locB]);
  });

  it('refuses a malformed header with 422 naming it', async () => {
    for (const bad of ['abc', '1,x', '-3', '0']) {
      const res = await page(admin, bad);
      expect(res.statusCode, bad).toBe(422);
      expect(res.json()).toEqual({ error: { X_SNG_AGENTS: expect.any(String) } });
    }
    const clients = await t.as(admin, { method: 'GET', url: '/api/agent/locations', headers: { X_SNG_CLIENTS: 'abc' } });
    expect(clients.statusCode).toBe(422);
    expect(Object.keys(clients.json().error)).toEqual(['X_SNG_CLIENTS']);
  });
});

describe('the header selectors are scoped per role', () => {
  it('/api/agent/agents/lists and /api/quote/clients/lists', async () => {
    const c1 = (await t.build.client({ name: 'Sel client 1' })).id;
    const c2 = (await t.build.client({ name: 'Sel client 2' })).id;
    const c3 = (await t.build.client({ name: 'Sel client 3' })).id;
    const a1 = (await t.build.agent({ name: 'Sel agent 1', default_client_id: c1 })).id;
    const a2 = (await t.build.agent({ name: 'Sel agent 2' })).id;
    const a3 = (await t.build.agent({ name: 'Sel agent 3' })).id;
    // Agent 2 serves client 2 through a device.
    const site = (await t.build.location({ agent_id: a2 })).id;
    await t.build.device({ location_id: site, agent_id: a2, default_client_id: c2 });

    const agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [a1] })).email);
    const agent2User = await t.login((await t.build.user({ roles: ['Agent'], agents: [a2] })).email);
    const clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [c2] })).email);
    const nobody = await t.login((await t.build.user({ permissions: ['scan'] })).email);

    const agentsFor = async (token: string, headers: Record<string, string> = {}) =>
      ids((await t.as(token, { method: 'GET', url: '/api/agent/agents/lists', headers })).json()).filter((id) =>
        [a1, a2, a3].includes(id!),
      );
    const clientsFor = async (token: string) =>
      ids((await t.as(token, { method: 'GET', url: '/api/quote/clients/lists' })).json()).filter((id) => [c1, c2, c3].includes(id!));

    expect(await agentsFor(admin)).toEqual([a1, a2, a3]);
    expect(await agentsFor(agentUser)).toEqual([a1]);
    expect(await agentsFor(clientUser)).toEqual([a2]);
    expect(await agentsFor(nobody)).toEqual([]);
    // The selector lists what the user may choose from, whatever is selected now.
    expect(await agentsFor(agentUser, { X_SNG_AGENTS: String(a3) })).toEqual([a1]);

    expect(await clientsFor(admin)).toEqual([c1, c2, c3]);
    expect(await clientsFor(agentUser)).toEqual([c1]);
    expect(await clientsFor(agent2User)).toEqual([c2]);
    expect(await clientsFor(clientUser)).toEqual([c2]);
    expect(await clientsFor(nobody)).toEqual([]);

    const lists = await t.as(agentUser, { method: 'GET', url: '/api/agent/agents/lists' });
    expect(lists.json()).toEqual([{ text: 'Sel agent 1', value: a1 }]);

    // Branding of an agent outside the user's scope is not found.
    expect((await t.as(agentUser, { method: 'GET', url: `/api/agent/agents/${a1}/branding` })).statusCode).toBe(200);
    const foreign = await t.as(agentUser, { method: 'GET', url: `/api/agent/agents/${a3}/branding` });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: `No query results for model [Agent] ${a3}` });
    const malformed = await t.as(agentUser, { method: 'GET', url: `/api/agent/agents/${'9'.repeat(25)}/branding` });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toEqual({ error: `No query results for model [Agent] ${'9'.repeat(25)}` });
  });
});

describe('not found', () => {
  it('answers a non-numeric or out-of-range id with the model text', async () => {
    for (const id of ['abc', '0', '1.5', '99999999', '-3', 'x'.repeat(41), '1234567890123456789']) {
      const res = await t.as(admin, { method: 'GET', url: `/api/agent/locations/${id}` });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual(notFound(id));
    }
  });

  it('answers an unknown /api path with JSON 404', async () => {
    for (const url of ['/api/nothing/here', '/api/agent/unknown']) {
      const res = await t.as(admin, { method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
    const anon = await t.app.inject({ method: 'POST', url: '/api/user/nothing' });
    expect(anon.statusCode).toBe(404);
    expect(anon.json()).toEqual({ error: expect.any(String) });
  });
});
