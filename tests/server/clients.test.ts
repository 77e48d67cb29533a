import { beforeAll, describe, expect, it } from 'vitest';
import { type Call, createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
let partA: number;
let partB: number;
let productA: number;
let productB: number;
beforeAll(async () => {
  t = await createTestContext();
  await t.build.user({ roles: ['Super Admin'], email: 'clients.root@example.test' });
  admin = await t.login('clients.root@example.test');
  partA = (await t.build.part({ name: 'Bonnet' })).id;
  partB = (await t.build.part({ name: 'Roof' })).id;
  productA = (await t.build.product({ name: 'Wheel Alignment', price: 129 })).id;
  productB = (await t.build.product({ name: 'Tyre Rotation', price: 49 })).id;
});

const dentRow = (base: number) => ({
  light: base,
  medium: base + 50,
  heavy: base + 120,
  severe: base + 250,
  oversize: base + 400,
  p2p: 180,
  aluminium: 25,
  conventional: 720.5,
  replacement: 1450,
});
const scratchRow = (base: number) => ({ spot: base, paint: base * 4, conventional: base * 6.5 });

// Each body names a client of its own: no two clients share a name.
let clientSeq = 0;
const fullClient = () => ({
  name: `Southern Cross Insurance ${++clientSeq}`,
  currency: '¥',
  sc_metallic: 10,
  sc_pearl: 15.5,
  sc_p2p: 1,
  calculation_method: 'T',
  sc_threshold: 3,
  tyre_repair: 40,
  tyre_replace: 185.5,
  products: [productA, productB],
  parts: [partA, partB],
  logo: 'https://cdn.example.test/logo.png',
  phone: '1300555012',
  address: '120 Collins St, Melbourne VIC 3000',
  email: 'claims@southerncross.test',
  abn: '53004085616',
  prices: {
    dent: { [partA]: dentRow(95), [partB]: dentRow(120) },
    scratch: { [partA]: scratchRow(85), [partB]: scratchRow(90) },
  },
});

const count = async (table: 'clients' | 'client_dent_prices' | 'client_scratch_prices' | 'client_products' | 'client_parts') =>
  (
    await t.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

describe('clients: permission', () => {
  it('answers 403 on every clients route to a user without `client`, and changes nothing', async () => {
    const client = await t.build.client({ name: 'Untouchable client' });
    const token = await t.login((await t.build.user({ permissions: ['scan'] })).email);
    const before = await count('clients');
    const calls: Call[] = [
      { method: 'GET', url: '/api/quote/clients' },
      { method: 'GET', url: `/api/quote/clients/${client.id}` },
      { method: 'GET', url: `/api/quote/clients/${client.id}?type=arch` },
      { method: 'POST', url: '/api/quote/clients', payload: { name: 'Sneaky', calculation_method: 'T', sc_threshold: 1 } },
      { method: 'PUT', url: `/api/quote/clients/${client.id}`, payload: { name: 'Renamed', calculation_method: 'T', sc_threshold: 1 } },
      { method: 'DELETE', url: `/api/quote/clients/${client.id}` },
    ];
    for (const call of calls) {
      const res = await t.as(token, call);
      expect(res.statusCode, `${call.method} ${JSON.stringify(call.url)}`).toBe(403);
      expect(res.json()).toEqual({ error: 'This action is unauthorized.' });
    }
    expect(await count('clients')).toBe(before);
    expect((await t.db.selectFrom('clients').select('name').where('id', '=', client.id).executeTakeFirstOrThrow()).name).toBe(
      'Untouchable client',
    );
  });

  it('answers 403 on calculate-category to a user without `scan`', async () => {
    const client = await t.build.client();
    const token = await t.login((await t.build.user({ permissions: ['client'] })).email);
    const res = await t.as(token, {
      method: 'POST',
      url: '/api/quote/clients/calculate-category',
      payload: { client_id: client.id, categories: { light: 1 } },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('clients: validation', () => {
  const post = (payload: Record<string, unknown>) => t.as(admin, { method: 'POST', url: '/api/quote/clients', payload });
  const refused = async (payload: Record<string, unknown>, error: Record<string, string>) => {
    const before = [await count('clients'), await count('client_dent_prices'), await count('client_products')];
    const res = await post(payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ error });
    expect([await count('clients'), await count('client_dent_prices'), await count('client_products')]).toEqual(before);
  };

  it('requires the name', async () => {
    await refused({}, { name: 'Name is required' });
    await refused({ name: '   ', sc_threshold: 2 }, { name: 'Name is required' });
  });

  it('requires every weighted count with method W', async () => {
    await refused(
      { name: 'W client', calculation_method: 'W', weighted_no: { oversize: 1, severe: 2, heavy: 3, medium: 4 } },
      { 'weighted_no.light': 'Light is required' },
    );
    await refused(
      { name: 'W client', calculation_method: 'W' },
      {
        'weighted_no.light': 'Light is required',
        'weighted_no.medium': 'Medium is required',
        'weighted_no.heavy': 'Heavy is required',
        'weighted_no.severe': 'Severe is required',
        'weighted_no.oversize': 'Oversize is required',
      },
    );
    await refused(
      { name: 'W client', calculation_method: 'W', weighted_no: { oversize: 0, severe: 2, heavy: 3, medium: 4, light: 5 } },
      { 'weighted_no.oversize': 'Oversize must be greater than zero' },
    );
    await refused({ name: 'T client', calculation_method: 'T', sc_threshold: 0 }, { sc_threshold: 'Threshold must be greater than zero' });
    await refused(
      { name: 'X client', calculation_method: 'X', sc_threshold: 1 },
      { calculation_method: 'The selected calculation method is invalid' },
    );
  });

  it('names the exact cell of a negative matrix price; a cell left out is 0', async () => {
    const body = fullClient();
    body.prices.dent[partB] = { ...dentRow(120), heavy: -5 };
    await refused(body, { [`prices.dent.${partB}.heavy`]: 'Heavy must be greater than or equal to 0' });

    const negative = fullClient();
    negative.prices.scratch[partB] = { ...scratchRow(90), paint: -1 };
    await refused(negative, { [`prices.scratch.${partB}.paint`]: 'Paint must be greater than or equal to 0' });

    // A missing price starts at 0, as the form shows it (a form sent before every cell registered).
    const missingCells = fullClient();
    const partial: Record<string, unknown> = { ...dentRow(95) };
    delete partial.medium;
    delete partial.aluminium;
    (missingCells.prices.dent as Record<number, unknown>)[partA] = partial;
    const res = await post({ ...missingCells, name: 'Partial row client' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.prices.dent[String(partA)]).toEqual({ ...dentRow(95), medium: 0, aluminium: 0 });
    // Its name is taken now, in any case and spacing.
    await refused({ ...fullClient(), name: ' partial ROW client' }, { name: 'Name has already been taken.' });
  });

  it('keeps surcharges, currency and contact inputs within their rules', async () => {
    await refused(
      { ...fullClient(), sc_metallic: -1, sc_pearl: -0.5 },
      {
        sc_metallic: 'Metallic Surcharge must be greater than or equal to 0',
        sc_pearl: 'Pearl Surcharge must be greater than or equal to 0',
      },
    );
    await refused({ ...fullClient(), currency: '£' }, { currency: 'The selected currency is invalid' });
    await refused({ ...fullClient(), email: 'not-an-address' }, { email: 'Enter a valid email address' });
  });

  it('takes only an http(s) logo URL: never javascript:, data: or a relative one', async () => {
    for (const logo of [
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)',
      'data:image/svg+xml,<svg onload=alert(1)>',
      '//evil.test/x.png',
    ])
      await refused({ ...fullClient(), logo }, { logo: 'Logo must be a valid URL' });
    const ok = await post({ ...fullClient(), logo: 'https://cdn.example.test/logo.png' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.logo).toBe('https://cdn.example.test/logo.png');
  });

  it('refuses a NUL byte in any text with 422 on the field', async () => {
    await refused({ ...fullClient(), name: 'Acme\u0000' }, { name: 'Name must not contain a NUL character' });
    await refused({ ...fullClient(), address: 'Line\u0000' }, { address: 'Address must not contain a NUL character' });
  });

  it('refuses products, parts and priced parts that do not exist', async () => {
    await refused({ ...fullClient(), products: [productA, 99999999] }, { products: 'The selected products is invalid' });
    await refused({ ...fullClient(), parts: [99999998] }, { parts: 'The selected parts is invalid' });
    const body = fullClient();
    (body.prices.dent as Record<number, unknown>)[99999997] = dentRow(1);
    await refused(body, { 'prices.dent.99999997': 'The selected part is invalid' });
    await refused({ ...fullClient(), prices: { dent: { abc: dentRow(1) } } }, { 'prices.dent.abc': 'Prices are keyed by part id' });
  });
});

describe('clients: create, read, page, search, update, delete', () => {
  it('round-trips the whole client, price matrices included', async () => {
    const body = fullClient();
    const created = await t.as(admin, { method: 'POST', url: '/api/quote/clients', payload: body });
    expect(created.statusCode, created.body).toBe(201);
    const client = created.json().data;
    expect(client).toEqual({
      ...body,
      id: expect.any(Number),
      weighted_no: null,
      products: [productA, productB].sort((a, b) => a - b),
      parts: [partA, partB].sort((a, b) => a - b),
      prices: {
        dent: { [partA]: dentRow(95), [partB]: dentRow(120) },
        scratch: { [partA]: scratchRow(85), [partB]: scratchRow(90) },
      },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const one = await t.as(admin, { method: 'GET', url: `/api/quote/clients/${client.id}` });
    expect(one.json()).toEqual({ data: client });
    // `type` is accepted and does not change the record (documented).
    expect((await t.as(admin, { method: 'GET', url: `/api/quote/clients/${client.id}?type=arch` })).json()).toEqual({ data: client });

    // A new matrix replaces the old: a part dropped, a price changed, a method switched to W.
    const update = {
      ...fullClient(),
      name: 'Southern Cross Mutual',
      calculation_method: 'W',
      weighted_no: { oversize: 1, severe: 2, heavy: 3, medium: 5, light: 8 },
      products: [productB],
      parts: [partB],
      prices: { dent: { [partB]: { ...dentRow(130), aluminium: 0 } }, scratch: {} },
    };
    const put = await t.as(admin, { method: 'PUT', url: `/api/quote/clients/${client.id}`, payload: update });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({
      name: 'Southern Cross Mutual',
      calculation_method: 'W',
      weighted_no: update.weighted_no,
      products: [productB],
      parts: [partB],
      prices: { dent: { [partB]: { ...dentRow(130), aluminium: 0 } }, scratch: {} },
    });
    expect(Object.keys(put.json().data.prices.dent)).toEqual([String(partB)]);

    // An update that leaves the matrices and lists out keeps them.
    const basics: Record<string, unknown> = { ...update };
    for (const k of ['prices', 'products', 'parts']) delete basics[k];
    const kept = await t.as(admin, { method: 'PUT', url: `/api/quote/clients/${client.id}`, payload: { ...basics, sc_metallic: 11 } });
    expect(kept.json().data).toMatchObject({ sc_metallic: 11, products: [productB], parts: [partB], prices: put.json().data.prices });

    // An update naming only some fields keeps the others, defaults or not; a blank one restores the default.
    const before = kept.json().data;
    const renamed = await t.as(admin, { method: 'PUT', url: `/api/quote/clients/${client.id}`, payload: { name: 'Only the name' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toEqual({ ...before, name: 'Only the name', updated_at: expect.any(String) });
    const blanked = await t.as(admin, {
      method: 'PUT',
      url: `/api/quote/clients/${client.id}`,
      payload: { name: 'Only the name', sc_metallic: '' },
    });
    expect(blanked.json().data).toMatchObject({ sc_metallic: 0, calculation_method: 'W', currency: before.currency });

    const deleted = await t.as(admin, { method: 'DELETE', url: `/api/quote/clients/${client.id}` });
    expect(deleted.statusCode).toBe(200);
    expect((await t.as(admin, { method: 'GET', url: `/api/quote/clients/${client.id}` })).json()).toEqual({
      error: `No query results for model [Client] ${client.id}`,
    });
    const leftovers = await t.db.selectFrom('client_dent_prices').select('part_id').where('client_id', '=', client.id).execute();
    expect(leftovers).toEqual([]);
  });

  it('stores money as given, to the cent', async () => {
    const body = fullClient();
    body.prices.dent[partA] = { ...dentRow(95), light: 99.99, replacement: 1234.5 };
    const res = await t.as(admin, { method: 'POST', url: '/api/quote/clients', payload: { ...body, name: 'Cents client' } });
    const row = await t.db
      .selectFrom('client_dent_prices')
      .selectAll()
      .where('client_id', '=', res.json().data.id)
      .where('part_id', '=', partA)
      .executeTakeFirstOrThrow();
    expect([row.light, row.replacement]).toEqual([99.99, 1234.5]);
  });

  it('creates a client from its name alone with the pricing defaults (only the name is required)', async () => {
    for (const payload of [{ name: 'Name only' }, { name: 'T without threshold', calculation_method: 'T', sc_threshold: '' }]) {
      const res = await t.as(admin, { method: 'POST', url: '/api/quote/clients', payload });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({
        name: payload.name,
        currency: '$',
        sc_metallic: 0,
        sc_pearl: 0,
        sc_p2p: 0,
        calculation_method: 'T',
        sc_threshold: 1,
        weighted_no: null,
        prices: { dent: {}, scratch: {} },
      });
    }
    // The defaults are real: the category is the panel's largest dent.
    const id = (await t.as(admin, { method: 'POST', url: '/api/quote/clients', payload: { name: 'Largest dent' } })).json().data.id;
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/clients/calculate-category',
      payload: { client_id: id, categories: { light: 4, heavy: 1 } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { category: 'heavy' } });
  });

  it('defaults currency to $, surcharges to 0, method to T', async () => {
    const res = await t.as(admin, { method: 'POST', url: '/api/quote/clients', payload: { name: 'Plain client', sc_threshold: 2 } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      currency: '$',
      sc_metallic: 0,
      sc_pearl: 0,
      sc_p2p: 0,
      calculation_method: 'T',
      sc_threshold: 2,
      products: [],
      parts: [],
      prices: { dent: {}, scratch: {} },
      weighted_no: null,
      logo: null,
    });
  });

  it('pages and searches', async () => {
    for (const name of ['Paging Zeta', 'Paging Alpha', 'Paging Mu']) await t.build.client({ name });
    const page = await t.as(admin, { method: 'GET', url: '/api/quote/clients?q=paging&per_page=2&sort=name&order=desc' });
    expect(page.json().total).toBe(3);
    expect(page.json().items.map((c: { name: string }) => c.name)).toEqual(['Paging Zeta', 'Paging Mu']);
    const lists = await t.as(admin, { method: 'GET', url: '/api/quote/clients/lists' });
    expect(lists.json()).toEqual(expect.arrayContaining([{ text: 'Paging Alpha', value: expect.any(Number) }]));
  });

  it('refuses to delete a client a device still serves (409)', async () => {
    const client = await t.build.client();
    const agent = await t.build.agent();
    const site = await t.build.location({ agent_id: agent.id });
    await t.build.device({ location_id: site.id, agent_id: agent.id, default_client_id: client.id });
    const res = await t.as(admin, { method: 'DELETE', url: `/api/quote/clients/${client.id}` });
    expect(res.statusCode).toBe(409);
  });
});

describe('clients: scoping', () => {
  let c1: number;
  let c2: number;
  let c3: number;
  let agentUser: string;
  let clientUser: string;
  beforeAll(async () => {
    c1 = (await t.build.client({ name: 'Scope client 1' })).id;
    c2 = (await t.build.client({ name: 'Scope client 2' })).id;
    c3 = (await t.build.client({ name: 'Scope client 3' })).id;
    const a1 = (await t.build.agent({ name: 'Scope agent 1', default_client_id: c1 })).id;
    // Agent 1 also serves client 2 through a device.
    const site = (await t.build.location({ agent_id: a1 })).id;
    await t.build.device({ location_id: site, agent_id: a1, default_client_id: c2 });
    agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [a1], permissions: ['client'] })).email);
    clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [c2], permissions: ['client'] })).email);
  });
  const seen = async (token: string, headers: Record<string, string> = {}) =>
    (await t.as(token, { method: 'GET', url: '/api/quote/clients?q=Scope%20client&per_page=100', headers }))
      .json()
      .items.map((c: { id: number }) => c.id)
      .sort((a: number, b: number) => a - b);

  it('an Agent user sees the clients their agents serve; a Client user only their own', async () => {
    expect(await seen(agentUser)).toEqual([c1, c2]);
    expect(await seen(clientUser)).toEqual([c2]);
    expect(await seen(admin)).toEqual([c1, c2, c3]);
  });

  it('the header selection neither widens nor applies on a path naming clients', async () => {
    expect(await seen(clientUser, { X_SNG_CLIENTS: String(c3) })).toEqual([c2]);
    expect(await seen(agentUser, { X_SNG_CLIENTS: String(c1) })).toEqual([c1, c2]);
  });

  it('a client outside the scope is not found for reading, updating or deleting', async () => {
    for (const token of [agentUser, clientUser]) {
      for (const call of [
        { method: 'GET', url: `/api/quote/clients/${c3}` },
        { method: 'PUT', url: `/api/quote/clients/${c3}`, payload: { name: 'Taken', sc_threshold: 1 } },
        { method: 'DELETE', url: `/api/quote/clients/${c3}` },
      ] as Call[]) {
        const res = await t.as(token, call);
        expect(res.statusCode, `${call.method} ${JSON.stringify(call.url)}`).toBe(404);
        expect(res.json()).toEqual({ error: `No query results for model [Client] ${c3}` });
      }
    }
    expect((await t.db.selectFrom('clients').select('name').where('id', '=', c3).executeTakeFirstOrThrow()).name).toBe('Scope client 3');
  });

  it('a scoped user may edit their own client, but a new client would leave their scope (403, nothing stored)', async () => {
    const res = await t.as(clientUser, {
      method: 'PUT',
      url: `/api/quote/clients/${c2}`,
      payload: { name: 'Scope client 2', sc_threshold: 4 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.sc_threshold).toBe(4);
    const before = await count('clients');
    const created = await t.as(clientUser, {
      method: 'POST',
      url: '/api/quote/clients',
      payload: { name: 'Scope client new', sc_threshold: 1 },
    });
    expect(created.statusCode).toBe(403);
    expect(await count('clients')).toBe(before);
  });
});

describe('clients/calculate-category', () => {
  const calc = (token: string, client_id: number, categories: Record<string, unknown>) =>
    t.as(token, { method: 'POST', url: '/api/quote/clients/calculate-category', payload: { client_id, categories } });
  let thresholdClient: number;
  let weightClient: number;
  beforeAll(async () => {
    thresholdClient = (
      await t.as(admin, {
        method: 'POST',
        url: '/api/quote/clients',
        payload: { name: 'Calc T', calculation_method: 'T', sc_threshold: 3 },
      })
    ).json().data.id;
    weightClient = (
      await t.as(admin, {
        method: 'POST',
        url: '/api/quote/clients',
        payload: { name: 'Calc W', calculation_method: 'W', weighted_no: { oversize: 2, severe: 2, heavy: 3, medium: 4, light: 5 } },
      })
    ).json().data.id;
  });

  it("applies the client's Threshold method (the worked example)", async () => {
    const res = await calc(admin, thresholdClient, { light: 5, heavy: 2, oversize: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { category: 'heavy' } });
    expect((await calc(admin, thresholdClient, { severe: 1 })).json()).toEqual({ data: { category: 'light' } });
  });

  it("applies the client's Weight method", async () => {
    expect((await calc(admin, weightClient, { oversize: 1 })).json()).toEqual({ data: { category: 'light' } });
    expect((await calc(admin, weightClient, { oversize: 2 })).json()).toEqual({ data: { category: 'oversize' } });
    expect((await calc(admin, weightClient, { heavy: 2, severe: 1 })).json()).toEqual({ data: { category: 'heavy' } });
  });

  it('gives no category for a panel without dents', async () => {
    expect((await calc(admin, thresholdClient, {})).json()).toEqual({ data: { category: null } });
    expect((await calc(admin, weightClient, { light: 0, medium: '0' })).json()).toEqual({ data: { category: null } });
  });

  it('validates the counts and the client', async () => {
    const bad = await calc(admin, thresholdClient, { light: -1, heavy: 1.5 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({
      error: { 'categories.light': 'Light must be greater than or equal to 0', 'categories.heavy': 'Heavy must be a whole number' },
    });
    const none = await t.as(admin, { method: 'POST', url: '/api/quote/clients/calculate-category', payload: { categories: {} } });
    expect(none.json()).toEqual({ error: { client_id: 'Client is required' } });
    expect((await calc(admin, 99999999, { light: 1 })).json()).toEqual({ error: 'No query results for model [Client] 99999999' });
  });

  it("is held to the user's clients", async () => {
    const mine = (await t.build.client()).id;
    const token = await t.login((await t.build.user({ roles: ['Client'], clients: [mine] })).email);
    expect((await calc(token, mine, { light: 1 })).json()).toEqual({ data: { category: 'light' } });
    const foreign = await calc(token, thresholdClient, { light: 1 });
    expect(foreign.statusCode).toBe(404);
  });
});
