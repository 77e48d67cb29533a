import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestContext();
  await t.build.user({ roles: ['Super Admin'], email: 'root@example.test' });
  admin = await t.login('root@example.test');
});

describe('locations: a resource registered by description', () => {
  it('creates, reads, pages, searches, updates and deletes', async () => {
    const created = await t.as(admin, { method: 'POST', url: '/api/agent/locations', payload: { name: '  Geelong Lane ', state: 'VIC' } });
    expect(created.statusCode).toBe(201);
    const loc = created.json().data;
    expect(loc).toMatchObject({ name: 'Geelong Lane', state: 'VIC', agent_id: null });

    const one = await t.as(admin, { method: 'GET', url: `/api/agent/locations/${loc.id}` });
    expect(one.json()).toEqual({ data: loc });

    const page = await t.as(admin, { method: 'GET', url: '/api/agent/locations?page=1&per_page=5&q=geelong' });
    expect(page.json()).toEqual({ items: [loc], total: 1 });

    const updated = await t.as(admin, {
      method: 'PUT',
      url: `/api/agent/locations/${loc.id}`,
      payload: { name: 'Geelong West', state: 'VIC' },
    });
    expect(updated.json().data.name).toBe('Geelong West');

    const deleted = await t.as(admin, { method: 'DELETE', url: `/api/agent/locations/${loc.id}` });
    expect(deleted.statusCode).toBe(200);
    const gone = await t.as(admin, { method: 'GET', url: `/api/agent/locations/${loc.id}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: `No query results for model [Location] ${loc.id}` });
  });

  it('stores VIC as VIC and refuses a state outside the eight', async () => {
    const ok = await t.as(admin, { method: 'POST', url: '/api/agent/locations', payload: { name: 'Ballarat', state: 'VIC' } });
    const stored = await t.db.selectFrom('locations').select('state').where('id', '=', ok.json().data.id).executeTakeFirstOrThrow();
    expect(stored.state).toBe('VIC');
    const bad = await t.as(admin, { method: 'POST', url: '/api/agent/locations', payload: { name: 'Nowhere', state: 'XX' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: { state: 'The selected state is invalid' } });
  });

  it('answers 422 with a field map and stores nothing', async () => {
    const before = await t.db
      .selectFrom('locations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await t.as(admin, { method: 'POST', url: '/api/agent/locations', payload: { name: '   ' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { name: 'Name is required', state: 'State is required' } });
    const after = await t.db
      .selectFrom('locations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('pages with a total and sorts on the server', async () => {
    for (const name of ['Zeta', 'Alpha', 'Mu']) await t.build.location({ name: `Sort ${name}` });
    const res = await t.as(admin, { method: 'GET', url: '/api/agent/locations?per_page=2&q=Sort&sort=name&order=desc' });
    expect(res.json().total).toBe(3);
    expect(res.json().items.map((l: { name: string }) => l.name)).toEqual(['Sort Zeta', 'Sort Mu']);
    // Exactly the record's fields: the page query's own total column stays in the database reply.
    expect(Object.keys(res.json().items[0]).sort()).toEqual(['agent_id', 'created_at', 'id', 'name', 'state', 'updated_at']);
    const p2 = await t.as(admin, { method: 'GET', url: '/api/agent/locations?per_page=2&page=2&q=Sort&sort=name&order=desc' });
    expect(p2.json().items.map((l: { name: string }) => l.name)).toEqual(['Sort Alpha']);
    const badSort = await t.as(admin, { method: 'GET', url: '/api/agent/locations?sort=password_hash' });
    expect(badSort.statusCode).toBe(422);
    expect(Object.keys(badSort.json().error)).toEqual(['sort']);
  });

  it('treats a search term literally (no LIKE wildcards)', async () => {
    await t.build.location({ name: 'Percent Site' });
    await t.build.location({ name: '100% Site' });
    const res = await t.as(admin, { method: 'GET', url: '/api/agent/locations?q=%25' });
    expect(res.json().items.map((l: { name: string }) => l.name)).toEqual(['100% Site']);
  });
});

describe('an update from a stale copy (If-Match)', () => {
  it('saves from the current copy, refuses (409) one made before another save, and names a malformed header', async () => {
    const created = await t.as(admin, { method: 'POST', url: '/api/agent/locations', payload: { name: 'Stale Lane', state: 'VIC' } });
    const opened = created.json().data as { id: number; updated_at: string };
    const url = `/api/agent/locations/${opened.id}`;
    // Another user saves first, from the same copy.
    const first = await t.as(admin, {
      method: 'PUT',
      url,
      payload: { name: 'Stale Lane North', state: 'VIC' },
      headers: { 'if-match': `"${opened.updated_at}"` },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.updated_at).not.toBe(opened.updated_at);

    const stale = await t.as(admin, {
      method: 'PUT',
      url,
      payload: { name: 'Stale Lane South', state: 'NSW' },
      headers: { 'if-match': `W/"${opened.updated_at}"`, 'x-message-keys': '1' },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      error: 'Someone else saved this record after you opened it. Reload the page to see their changes, then make yours again.',
      message: { key: 'app.errors.saved_since' },
    });
    const now = (await t.as(admin, { method: 'GET', url })).json().data;
    expect(now).toMatchObject({ name: 'Stale Lane North', state: 'VIC' });

    // From the copy the first save returned, the next save goes through; without the header, the last save wins.
    const fresh = await t.as(admin, {
      method: 'PUT',
      url,
      payload: { name: 'Stale Lane East', state: 'VIC' },
      headers: { 'if-match': `"${now.updated_at as string}"` },
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect((await t.as(admin, { method: 'PUT', url, payload: { name: 'Stale Lane West', state: 'VIC' } })).statusCode).toBe(200);

    const bad = await t.as(admin, { method: 'PUT', url, payload: { name: 'Nope', state: 'VIC' }, headers: { 'if-match': 'yesterday' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: { 'if-match': "If-Match must be the record's updated_at in double quotes" } });
    expect((await t.as(admin, { method: 'GET', url })).json().data.name).toBe('Stale Lane West');
  });
});

describe('the order of a text column', () => {
  it('ignores case, as people read names: aardvark, Beta, zeta', async () => {
    for (const name of ['Case zeta', 'Case Beta', 'Case aardvark'])
      expect((await t.as(admin, { method: 'POST', url: '/api/agent/locations', payload: { name, state: 'VIC' } })).statusCode).toBe(201);
    for (const order of ['asc', 'desc']) {
      const page = await t.as(admin, { method: 'GET', url: `/api/agent/locations?q=Case&sort=name&order=${order}&per_page=10` });
      const names = page.json().items.map((l: { name: string }) => l.name);
      const expected = ['Case aardvark', 'Case Beta', 'Case zeta'];
      expect(names, order).toEqual(order === 'asc' ? expected : [...expected].reverse());
    }
  });
});
