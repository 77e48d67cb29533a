import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorage } from '../../server/lib/storage';
import { DEMO_AGENT_PINCODE, seedAgentsDemo } from '../../server/seed/agents-demo';
import { createTestContext, formData, type TestContext } from './helper';
import { bombPng, pngImage } from './image-fixtures';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
});

const image = async () => ({ imageFile: { data: await pngImage(80, 40), filename: 'front.png', type: 'image/png' } });
const countGroups = async () =>
  (
    await t.db
      .selectFrom('panel_groups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

describe('panel groups', () => {
  it('creates with an uploaded image, updates with _method=PUT, pages, lists and deletes', async () => {
    const created = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/panelGroups',
      ...(await formData({ name: 'Front view', position: '1', ...(await image()) })),
    });
    expect(created.statusCode, created.body).toBe(201);
    const group = created.json().data;
    expect(group).toMatchObject({ name: 'Front view', position: 1 });
    expect(group.image).toMatch(/^\/api\/user\/files\/[0-9a-f]{32}\.png$/);
    const served = await t.app.inject({ method: 'GET', url: group.image });
    expect(served.statusCode).toBe(200);
    expect(served.headers['x-content-type-options']).toBe('nosniff');

    // Name and position change; the image stays without a new file.
    const renamed = await t.as(admin, {
      method: 'POST',
      url: `/api/quote/panelGroups/${group.id}?_method=PUT`,
      ...(await formData({ name: 'Front', position: '2', image: group.image })),
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Front', position: 2, image: group.image });
    const replaced = await t.as(admin, {
      method: 'POST',
      url: `/api/quote/panelGroups/${group.id}?_method=PUT`,
      ...(await formData({ name: 'Front', position: '2', ...(await image()) })),
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().data.image).not.toBe(group.image);
    expect((await t.app.inject({ method: 'GET', url: group.image })).statusCode).toBe(404);

    const page = await t.as(admin, { method: 'GET', url: '/api/quote/panelGroups?q=front' });
    expect(page.json()).toEqual({ items: [replaced.json().data], total: 1 });
    expect((await t.as(admin, { method: 'GET', url: `/api/quote/panelGroups/${group.id}` })).json()).toEqual({
      data: replaced.json().data,
    });
    const lists = await t.as(admin, { method: 'GET', url: '/api/quote/panelGroups/lists' });
    expect(lists.json()).toEqual(expect.arrayContaining([{ text: 'Front', value: group.id }]));

    expect((await t.as(admin, { method: 'DELETE', url: `/api/quote/panelGroups/${group.id}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: replaced.json().data.image })).statusCode).toBe(404);
    const gone = await t.as(admin, { method: 'GET', url: `/api/quote/panelGroups/${group.id}` });
    expect(gone.json()).toEqual({ error: `No query results for model [PanelGroup] ${group.id}` });
  });

  it('answers 422 with name, image and position required on create (image not on update), and stores nothing', async () => {
    const before = await countGroups();
    const res = await t.as(admin, { method: 'POST', url: '/api/quote/panelGroups', ...(await formData({ name: '', position: '' })) });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { name: 'Name is required', image: 'Image is required', position: 'Position is required' } });
    const json = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/panelGroups',
      payload: { name: 'No image', position: 1, image: '/api/user/files/abc.png' },
    });
    expect(json.json()).toEqual({ error: { image: 'Image is required' } });
    const zero = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/panelGroups',
      ...(await formData({ name: 'Zero', position: '0', ...(await image()) })),
    });
    expect(zero.json()).toEqual({ error: { position: 'Position must be greater than zero' } });
    const bomb = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/panelGroups',
      ...(await formData({ name: 'Bomb', position: '1', imageFile: { data: bombPng(), filename: 'b.png' } })),
    });
    expect(bomb.json()).toEqual({ error: { image: 'Image must be less than 25 megapixels' } });
    const text = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/panelGroups',
      ...(await formData({ name: 'Text', position: '1', imageFile: { data: 'plain text', filename: 'x.png' } })),
    });
    expect(text.json()).toEqual({ error: { image: 'Image must be a PNG, JPEG, WebP or SVG image' } });
    expect(await countGroups()).toBe(before);

    const group = await t.build.panelGroup({ name: 'Update without image', position: 3 });
    const update = await t.as(admin, {
      method: 'PUT',
      url: `/api/quote/panelGroups/${group.id}`,
      payload: { name: 'Still no image', position: 4 },
    });
    expect(update.statusCode, update.body).toBe(200);
    const missing = await t.as(admin, { method: 'PUT', url: `/api/quote/panelGroups/${group.id}`, payload: { name: '' } });
    expect(missing.json()).toEqual({ error: { name: 'Name is required', position: 'Position is required' } });
  });

  it('lists groups in position order for the quote screen (any signed-in user)', async () => {
    await t.build.panelGroup({ name: 'Order third', position: 30 });
    await t.build.panelGroup({ name: 'Order first', position: 10 });
    await t.build.panelGroup({ name: 'Order second', position: 20 });
    const token = await t.login((await t.build.user({ permissions: ['scan'] })).email);
    const res = await t.as(token, { method: 'GET', url: '/api/quote/panelGroups/positions' });
    expect(res.statusCode).toBe(200);
    const names = res
      .json()
      .data.map((g: { name: string }) => g.name)
      .filter((n: string) => n.startsWith('Order'));
    expect(names).toEqual(['Order first', 'Order second', 'Order third']);
    expect(Object.keys(res.json().data[0]).sort()).toEqual(['id', 'image', 'name', 'position']);
  });

  it('lists with `part`; reads a record and writes with `panelgroup`, as its edit screen does (403 otherwise)', async () => {
    const group = await t.build.panelGroup({ name: 'Guarded group' });
    const reader = await t.login((await t.build.user({ permissions: ['part'] })).email);
    const writer = await t.login((await t.build.user({ permissions: ['panelgroup'] })).email);
    const reads: (InjectOptions & { url: string })[] = [{ method: 'GET', url: '/api/quote/panelGroups' }];
    const record = { method: 'GET' as const, url: `/api/quote/panelGroups/${group.id}` };
    expect((await t.as(reader, record)).statusCode).toBe(403);
    expect((await t.as(writer, record)).json().data).toMatchObject({ id: group.id, name: 'Guarded group' });
    const writes: (InjectOptions & { url: string })[] = [
      { method: 'POST', url: '/api/quote/panelGroups', ...(await formData({ name: 'Sneaky', position: '1', ...(await image()) })) },
      { method: 'POST', url: `/api/quote/panelGroups/${group.id}?_method=PUT`, ...(await formData({ name: 'Renamed', position: '1' })) },
      { method: 'PUT', url: `/api/quote/panelGroups/${group.id}`, payload: { name: 'Renamed', position: 1 } },
      { method: 'DELETE', url: `/api/quote/panelGroups/${group.id}` },
    ];
    const before = await countGroups();
    for (const call of reads) {
      expect((await t.as(reader, call)).statusCode, `${call.method} ${call.url}`).toBe(200);
      expect((await t.as(writer, call)).statusCode, `${call.method} ${call.url}`).toBe(403);
    }
    for (const call of writes) expect((await t.as(reader, call)).statusCode, `${call.method} ${call.url}`).toBe(403);
    expect(await countGroups()).toBe(before);
    expect(
      (
        await t.as(writer, {
          method: 'PUT',
          url: `/api/quote/panelGroups/${group.id}`,
          payload: { name: 'Renamed by writer', position: 2 },
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('the agents demo data', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-demo-files-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives the agents logos and pincodes, one agent webhooks, and draws five panel groups', async () => {
    const agents = [await t.build.agent({ name: 'Demo A' }), await t.build.agent({ name: 'Demo B' })];
    const storage = localStorage(dir);
    const groupsBefore = await countGroups();
    await seedAgentsDemo(t.db, storage);

    const rows = await t.db
      .selectFrom('agents')
      .select(['id', 'logo', 'pincode_hash'])
      .where(
        'id',
        'in',
        agents.map((a) => a.id),
      )
      .execute();
    for (const row of rows) {
      const file = await storage.get(row.logo!.split('/').pop()!);
      expect(file?.contentType).toBe('image/png');
      expect((await sharp(file!.data).metadata()).width).toBe(256);
      expect(row.pincode_hash).toMatch(/^\$argon2id\$/);
    }
    const check = await t.app.inject({
      method: 'POST',
      url: `/api/agent/agents/${rows[0].id}/validate-pin`,
      payload: { pin: DEMO_AGENT_PINCODE },
    });
    expect(check.json()).toEqual({ data: true });

    const groups = await t.db.selectFrom('panel_groups').select(['name', 'image', 'position']).orderBy('id', 'desc').limit(5).execute();
    expect(await countGroups()).toBe(groupsBefore + 5);
    expect(groups.reverse().map((g) => [g.name, g.position])).toEqual([
      ['Front', 1],
      ['Rear', 2],
      ['Left', 3],
      ['Right', 4],
      ['Top', 5],
    ]);
    for (const g of groups) {
      const file = await storage.get(g.image!.split('/').pop()!);
      const meta = await sharp(file!.data).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 800, 400]);
    }
    const hooks = await t.db.selectFrom('webhooks').select(['agent_id', 'secret', 'events']).execute();
    expect(hooks.length).toBeGreaterThanOrEqual(2);
    expect(hooks.every((h) => /^whsec_[A-Za-z0-9+/]{43}=$/.test(h.secret) && h.events.length > 0)).toBe(true);
  });
});
