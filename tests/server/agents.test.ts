import { verify } from '@node-rs/argon2';
import { beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES } from '../../server/lib/images';
import { type Call, createTestContext, formData, type TestContext } from './helper';
import { bombPng, hostileSvg, pngImage } from './image-fixtures';

let t: TestContext;
let admin: string;
let clientId: number;
let clientName: string;
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  ({ id: clientId, name: clientName } = await t.build.client({ name: 'Agents test client' }));
});

const fields = (over: Record<string, string | number> = {}) => ({
  name: 'Geelong Scan Hub',
  phone: '0352001234',
  email: 'desk@geelongscan.test',
  address: '1 Malop St, Geelong VIC 3220',
  portal_email_address: 'portal@geelongscan.test',
  abn: '51824753556',
  pincode: '135790',
  default_client_id: clientId,
  language: 'en',
  ...over,
});
const logoFile = async (data?: Buffer | string, filename = 'logo.png') => ({
  logoFile: { data: data ?? (await pngImage()), filename, type: 'image/png' },
});
const countAgents = async () =>
  (
    await t.db
      .selectFrom('agents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
const stored = (id: number) => t.db.selectFrom('agents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const createAgent = async (over: Record<string, string | number> = {}) => {
  const res = await t.as(admin, {
    method: 'POST',
    url: '/api/agent/agents',
    ...(await formData({ ...fields(over), ...(await logoFile()) })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Record<string, unknown> & { id: number; logo: string };
};

describe('agents: multipart create and _method=PUT update', () => {
  it('creates an agent with a logo; the record has the client name and never the pincode', async () => {
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/agent/agents',
      ...(await formData({
        ...fields({ blurb: '<p onclick="x()">Hi<script>alert(1)</script> <a href="javascript:alert(2)">there</a></p>' }),
        ...(await logoFile()),
      })),
    });
    expect(res.statusCode, res.body).toBe(201);
    const agent = res.json().data;
    expect(agent).toMatchObject({
      name: 'Geelong Scan Hub',
      phone: '0352001234',
      email: 'desk@geelongscan.test',
      portal_email_address: 'portal@geelongscan.test',
      abn: '51824753556',
      is_enabled: 1,
      default_client_id: clientId,
      default_client_name: clientName,
      primary_color: '#0c1839',
      text_color: '#000000',
      language: 'en',
      has_pincode: true,
    });
    expect(agent.blurb).toBe('<p>Hi <a rel="noopener noreferrer">there</a></p>');
    expect(Object.keys(agent).filter((k) => k.startsWith('pincode'))).toEqual([]);
    expect(res.body).not.toMatch(/135790|\$argon2/);
    expect(agent.logo).toMatch(/^\/api\/user\/files\/[0-9a-f]{32}\.png$/);
    const logo = await t.app.inject({ method: 'GET', url: agent.logo });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['x-content-type-options']).toBe('nosniff');

    const row = await stored(agent.id);
    expect(row.pincode_hash).toMatch(/^\$argon2id\$/);
    expect(await verify(row.pincode_hash!, '135790')).toBe(true);

    const one = await t.as(admin, { method: 'GET', url: `/api/agent/agents/${agent.id}` });
    expect(one.json()).toEqual({ data: agent });
    expect(one.body).not.toContain('$argon2');
  });

  it('updates with POST agents/{id}?_method=PUT: a new logo replaces the old file; a blank pincode keeps the old one', async () => {
    const agent = await createAgent({ name: 'Update Me' });
    const before = await stored(agent.id);
    const res = await t.as(admin, {
      method: 'POST',
      url: `/api/agent/agents/${agent.id}?_method=PUT`,
      ...(await formData({
        ...fields({ name: 'Updated Agent', pincode: '', is_enabled: '0', primary_color: '#112233', logo: agent.logo }),
        ...(await logoFile(await pngImage(64, 64, '#123456'), 'new.png')),
      })),
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json().data;
    expect(updated).toMatchObject({ id: agent.id, name: 'Updated Agent', is_enabled: 0, primary_color: '#112233', has_pincode: true });
    expect(updated.logo).not.toBe(agent.logo);
    expect((await t.app.inject({ method: 'GET', url: updated.logo })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: agent.logo })).statusCode).toBe(404);
    expect((await stored(agent.id)).pincode_hash).toBe(before.pincode_hash);

    // Without a new file, the form's echoed logo URL keeps the logo.
    const kept = await t.as(admin, {
      method: 'POST',
      url: `/api/agent/agents/${agent.id}?_method=put`,
      ...(await formData(fields({ name: 'Kept logo', pincode: '', logo: updated.logo }))),
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data.logo).toBe(updated.logo);

    // JSON PUT still works; a new pincode replaces the hash.
    const json = await t.as(admin, {
      method: 'PUT',
      url: `/api/agent/agents/${agent.id}`,
      payload: fields({ name: 'Json Agent', pincode: '975310' }),
    });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json().data).toMatchObject({ name: 'Json Agent', logo: updated.logo });
    expect(await verify((await stored(agent.id)).pincode_hash!, '975310')).toBe(true);
  });

  it('creates with JSON and no logo', async () => {
    const res = await t.as(admin, { method: 'POST', url: '/api/agent/agents', payload: fields({ name: 'Json Created', language: 'ja' }) });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ name: 'Json Created', logo: null, language: 'ja', is_enabled: 1 });
  });

  it('answers _method other than PUT with 422', async () => {
    const agent = await createAgent({ name: 'Method check' });
    for (const url of [`/api/agent/agents/${agent.id}`, `/api/agent/agents/${agent.id}?_method=DELETE`]) {
      const res = await t.as(admin, { method: 'POST', url, payload: fields() });
      expect(res.statusCode, url).toBe(422);
      expect(Object.keys(res.json().error)).toEqual(['_method']);
    }
    expect((await stored(agent.id)).name).toBe('Method check');
  });

  it('pages, searches, sorts and deletes (removing the logo file)', async () => {
    const a = await createAgent({ name: 'Zebra Paging Agent' });
    await createAgent({ name: 'Aardvark Paging Agent' });
    const page = await t.as(admin, { method: 'GET', url: '/api/agent/agents?q=paging agent&sort=name&order=desc&per_page=1' });
    expect(page.json().total).toBe(2);
    expect(page.json().items.map((x: { name: string }) => x.name)).toEqual(['Zebra Paging Agent']);
    const byClient = await t.as(admin, { method: 'GET', url: '/api/agent/agents?q=Agents test client' });
    expect(byClient.json().total).toBeGreaterThanOrEqual(2);

    const del = await t.as(admin, { method: 'DELETE', url: `/api/agent/agents/${a.id}` });
    expect(del.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: a.logo })).statusCode).toBe(404);
    const gone = await t.as(admin, { method: 'GET', url: `/api/agent/agents/${a.id}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: `No query results for model [Agent] ${a.id}` });
  });

  it('lists agents for selects', async () => {
    const a = await createAgent({ name: 'Listed Agent' });
    const lists = await t.as(admin, { method: 'GET', url: '/api/agent/agents/lists' });
    expect(lists.json()).toEqual(expect.arrayContaining([{ text: 'Listed Agent', value: a.id }]));
  });
});

describe('agent validation', () => {
  it('answers 422 with every required field and stores nothing', async () => {
    const before = await countAgents();
    for (const call of [
      { method: 'POST', url: '/api/agent/agents', payload: {} },
      { method: 'POST', url: '/api/agent/agents', ...(await formData({ name: '' })) },
    ] as Call[]) {
      const res = await t.as(admin, call);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        error: {
          name: 'Name is required',
          phone: 'Phone is required',
          email: 'Email is required',
          address: 'Address is required',
          portal_email_address: 'Portal Email Address is required',
          abn: 'ABN is required',
          pincode: 'Pincode is required',
          default_client_id: 'Default Client is required',
          language: 'Language is required',
        },
      });
    }
    expect(await countAgents()).toBe(before);
  });

  it('checks e-mail addresses, the pincode, the language, the colours and the default client', async () => {
    const before = await countAgents();
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/agent/agents',
      payload: fields({ email: 'nope', portal_email_address: 'a@b', pincode: '12345a', language: 'fr', primary_color: 'red' }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: {
        email: 'Enter a valid email address',
        portal_email_address: 'Enter a valid email address',
        pincode: 'Pincode must be exactly 6 digits',
        language: 'The selected language is invalid',
        primary_color: 'Primary Color must be a colour like #0c1839',
      },
    });
    const short = await t.as(admin, { method: 'POST', url: '/api/agent/agents', payload: fields({ pincode: '1234567' }) });
    expect(short.json()).toEqual({ error: { pincode: 'Pincode must be exactly 6 digits' } });
    const missingClient = await t.as(admin, { method: 'POST', url: '/api/agent/agents', payload: fields({ default_client_id: 99999999 }) });
    expect(missingClient.statusCode).toBe(422);
    expect(missingClient.json()).toEqual({ error: { default_client_id: 'The selected default client is invalid' } });
    expect(await countAgents()).toBe(before);
  });

  it('refuses a logo that is a renamed text file, too large or a decompression bomb, and stores nothing', async () => {
    const before = await countAgents();
    const text = await t.as(admin, {
      method: 'POST',
      url: '/api/agent/agents',
      ...(await formData({ ...fields(), ...(await logoFile('not an image at all', 'logo.png')) })),
    });
    expect(text.statusCode).toBe(422);
    expect(text.json()).toEqual({ error: { logo: 'Logo must be a PNG, JPEG, WebP or SVG image' } });
    const big = await t.as(admin, {
      method: 'POST',
      url: '/api/agent/agents',
      ...(await formData({ ...fields(), ...(await logoFile(Buffer.concat([await pngImage(), Buffer.alloc(IMAGE_MAX_BYTES)]))) })),
    });
    expect(big.statusCode).toBe(422);
    expect(big.json()).toEqual({ error: { logo: 'Logo must be less than 5 MB' } });
    const bomb = await t.as(admin, {
      method: 'POST',
      url: '/api/agent/agents',
      ...(await formData({ ...fields(), ...(await logoFile(bombPng())) })),
    });
    expect(bomb.statusCode).toBe(422);
    expect(bomb.json()).toEqual({ error: { logo: 'Logo must be less than 25 megapixels' } });
    expect(await countAgents()).toBe(before);
  });

  it('stores an SVG logo sanitised', async () => {
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/agent/agents',
      ...(await formData({
        ...fields({ name: 'Svg Logo Agent' }),
        logoFile: { data: hostileSvg, filename: 'logo.svg', type: 'image/svg+xml' },
      })),
    });
    expect(res.statusCode, res.body).toBe(201);
    const logo = await t.app.inject({ method: 'GET', url: res.json().data.logo });
    expect(logo.headers['content-type']).toBe('image/svg+xml');
    expect(logo.body).not.toMatch(/<script|onload|onclick|javascript:|foreignObject/);
  });
});

describe('the portal pin check', () => {
  const check = (agentId: number, pin: unknown, remoteAddress = '203.0.113.7') =>
    t.app.inject({ method: 'POST', url: `/api/agent/agents/${agentId}/validate-pin`, payload: { pin }, remoteAddress });

  it('answers {data: true} for the right pin and {data: false} otherwise, without a sign-in', async () => {
    const agent = await createAgent({ name: 'Pin Agent', pincode: '424242' });
    expect((await check(agent.id, '424242')).json()).toEqual({ data: true });
    expect((await check(agent.id, 424242)).json()).toEqual({ data: true });
    expect((await check(agent.id, '000000')).json()).toEqual({ data: false });
    expect((await check(agent.id, 'abc')).json()).toEqual({ data: false });
    const missing = await t.app.inject({ method: 'POST', url: `/api/agent/agents/${agent.id}/validate-pin`, payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ error: { pin: 'Pincode is required' } });
  });

  it('throttles: after 5 failures per agent and address, 429 even for the right pin; other addresses go on', async () => {
    const agent = await createAgent({ name: 'Throttled Agent', pincode: '111222' });
    for (let i = 0; i < 5; i++) expect((await check(agent.id, '999999', '198.51.100.1')).json()).toEqual({ data: false });
    const blocked = await check(agent.id, '111222', '198.51.100.1');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
    expect(blocked.json().error).toMatch(/Too many pincode attempts/);
    expect((await check(agent.id, '111222', '198.51.100.2')).json()).toEqual({ data: true });
    const other = await createAgent({ name: 'Other Pin Agent', pincode: '111222' });
    expect((await check(other.id, '111222', '198.51.100.1')).json()).toEqual({ data: true });
  });

  it('checks at most 5 of 20 parallel wrong pins (counted before checking), the rest 429', async () => {
    const agent = await createAgent({ name: 'Parallel Pin Agent', pincode: '135790' });
    const replies = await Promise.all(Array.from({ length: 20 }, () => check(agent.id, '999999', '198.51.100.9')));
    const codes = replies.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(15);
    expect((await check(agent.id, '135790', '198.51.100.9')).statusCode).toBe(429);
  });

  it('refuses disabled and unknown agents with the model 404', async () => {
    const agent = await createAgent({ name: 'Disabled Agent', pincode: '555555', is_enabled: 0 });
    expect(agent.is_enabled).toBe(0);
    for (const id of [agent.id, 99999999]) {
      const res = await check(id, '555555');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: `No query results for model [Agent] ${id}` });
    }
  });
});

describe('agent permissions and scope', () => {
  it('answers 403 on every agent route to a user without `agent`, and changes nothing', async () => {
    const agent = await createAgent({ name: 'Guarded Agent' });
    const token = await t.login((await t.build.user({ permissions: ['scan', 'device', 'location'] })).email);
    const calls: Call[] = [
      { method: 'GET', url: '/api/agent/agents' },
      { method: 'GET', url: `/api/agent/agents/${agent.id}` },
      { method: 'POST', url: '/api/agent/agents', payload: fields({ name: 'Sneaky' }) },
      { method: 'PUT', url: `/api/agent/agents/${agent.id}`, payload: fields({ name: 'Renamed' }) },
      { method: 'POST', url: `/api/agent/agents/${agent.id}?_method=PUT`, ...(await formData(fields({ name: 'Renamed' }))) },
      { method: 'DELETE', url: `/api/agent/agents/${agent.id}` },
    ];
    const before = await countAgents();
    for (const call of calls) {
      const res = await t.as(token, call);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
    }
    expect(await countAgents()).toBe(before);
    expect((await stored(agent.id)).name).toBe('Guarded Agent');
  });

  it('scopes Agent users to their own agents and Client users to the agents serving their clients', async () => {
    const c1 = (await t.build.client({ name: 'Scope client 1' })).id;
    const c2 = (await t.build.client({ name: 'Scope client 2' })).id;
    const own = (await t.build.agent({ name: 'Scope own agent', default_client_id: c1 })).id;
    const viaDevice = (await t.build.agent({ name: 'Scope device agent' })).id;
    const foreign = (await t.build.agent({ name: 'Scope foreign agent' })).id;
    const site = (await t.build.location({ agent_id: viaDevice })).id;
    await t.build.device({ location_id: site, agent_id: viaDevice, default_client_id: c2 });

    const agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [own], permissions: ['agent'] })).email);
    const clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [c2], permissions: ['agent'] })).email);
    const names = async (token: string) =>
      (await t.as(token, { method: 'GET', url: '/api/agent/agents?q=Scope&per_page=100' }))
        .json()
        .items.map((a: { name: string }) => a.name)
        .sort();
    expect(await names(agentUser)).toEqual(['Scope own agent']);
    expect(await names(clientUser)).toEqual(['Scope device agent']);
    expect((await t.as(agentUser, { method: 'GET', url: `/api/agent/agents/${foreign}` })).statusCode).toBe(404);
    expect(
      (await t.as(agentUser, { method: 'PUT', url: `/api/agent/agents/${foreign}`, payload: fields({ name: 'Taken over' }) })).statusCode,
    ).toBe(404);
    expect((await t.as(clientUser, { method: 'GET', url: `/api/agent/agents/${own}` })).statusCode).toBe(404);

    // Their own agent they may edit; an agent outside their scope they cannot create (the write is undone).
    const edit = await t.as(agentUser, {
      method: 'PUT',
      url: `/api/agent/agents/${own}`,
      payload: fields({ name: 'Scope own agent', default_client_id: c1, pincode: '' }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    // A default client their agents do not serve would widen what they see: 422 on the field, nothing kept.
    const widen = await t.as(agentUser, {
      method: 'PUT',
      url: `/api/agent/agents/${own}`,
      payload: fields({ name: 'Scope widened', default_client_id: c2, pincode: '' }),
    });
    expect(widen.statusCode).toBe(422);
    expect(widen.json()).toEqual({ error: { default_client_id: 'The selected default client is invalid' } });
    expect(await stored(own)).toMatchObject({ name: 'Scope own agent', default_client_id: c1 });
    const before = await countAgents();
    const created = await t.as(agentUser, {
      method: 'POST',
      url: '/api/agent/agents',
      ...(await formData({ ...fields({ name: 'Scope new agent', default_client_id: c1 }), ...(await logoFile()) })),
    });
    expect(created.statusCode).toBe(403);
    expect(await countAgents()).toBe(before);
  });
});
