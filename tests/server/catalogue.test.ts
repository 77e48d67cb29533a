import { APPROVAL_MERGE_FIELDS, APPROVAL_TEMPLATE_NAMES } from '../../src/domain/quote-approval';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientCategoryMethod, DENT_LEVELS } from '../../src/domain/pricing';
import { MERGE_FIELDS } from '../../src/domain/scan-mail';
import { seedCatalogueDemo } from '../../server/seed/catalogue-demo';
import { type Call, createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestContext();
  await t.build.user({ roles: ['Super Admin'], email: 'catalogue.root@example.test' });
  admin = await t.login('catalogue.root@example.test');
});

const count = async (table: 'products' | 'parts' | 'panels') =>
  (
    await t.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

/** Every call refused with 403 {error}, and the table unchanged. */
const refusesAll = async (token: string, table: 'products' | 'parts' | 'panels', calls: Call[]) => {
  const before = await count(table);
  for (const call of calls) {
    const res = await t.as(token, call);
    expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
    expect(res.json()).toEqual({ error: 'This action is unauthorized.' });
  }
  expect(await count(table)).toBe(before);
};
const crudCalls = (path: string, id: number, payload: Record<string, unknown>): Call[] => [
  { method: 'GET', url: `/api/quote/${path}` },
  { method: 'GET', url: `/api/quote/${path}/${id}` },
  { method: 'POST', url: `/api/quote/${path}`, payload },
  { method: 'PUT', url: `/api/quote/${path}/${id}`, payload },
  { method: 'DELETE', url: `/api/quote/${path}/${id}` },
];

describe('products', () => {
  it('answers 403 on every route to a user without `product`', async () => {
    const product = await t.build.product();
    const token = await t.login((await t.build.user({ permissions: ['part', 'client'] })).email);
    await refusesAll(token, 'products', crudCalls('products', product.id, { name: 'Sneaky', price: 10 }));
  });

  it('answers 422 with the field map and stores nothing', async () => {
    const before = await count('products');
    const post = (payload: Record<string, unknown>) => t.as(admin, { method: 'POST', url: '/api/quote/products', payload });
    expect((await post({})).json()).toEqual({ error: { name: 'Name is required', price: 'Price is required' } });
    expect((await post({ name: 'Free', price: 0 })).json()).toEqual({ error: { price: 'Price must be greater than zero' } });
    expect((await post({ name: 'Half', price: 0.5 })).json()).toEqual({ error: { price: 'Price must be at least 1' } });
    expect((await post({ name: 'Odd', price: 5, type: 'boat' })).json()).toEqual({ error: { type: 'The selected type is invalid' } });
    expect(await count('products')).toBe(before);
  });

  it('creates, reads, pages (10 by default), searches, updates and deletes', async () => {
    const created = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/products',
      payload: { name: ' Wheel Alignment ', type: 'chasis', price: '129.95' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const product = created.json().data;
    expect(product).toMatchObject({ name: 'Wheel Alignment', type: 'chasis', price: 129.95 });
    expect((await t.as(admin, { method: 'GET', url: `/api/quote/products/${product.id}` })).json()).toEqual({ data: product });

    for (let i = 0; i < 11; i++) await t.build.product({ name: `Paged product ${i}` });
    const page = await t.as(admin, { method: 'GET', url: '/api/quote/products?q=paged' });
    expect(page.json().items).toHaveLength(10);
    expect(page.json().total).toBe(11);
    expect((await t.as(admin, { method: 'GET', url: '/api/quote/products?q=alignment' })).json()).toEqual({ items: [product], total: 1 });

    const updated = await t.as(admin, {
      method: 'PUT',
      url: `/api/quote/products/${product.id}`,
      payload: { name: 'Wheel Alignment (4WD)', type: 'chasis', price: 159 },
    });
    expect(updated.json().data).toMatchObject({ name: 'Wheel Alignment (4WD)', price: 159 });

    expect((await t.as(admin, { method: 'DELETE', url: `/api/quote/products/${product.id}` })).statusCode).toBe(200);
    expect((await t.as(admin, { method: 'GET', url: `/api/quote/products/${product.id}` })).json()).toEqual({
      error: `No query results for model [Product] ${product.id}`,
    });
  });

  it('lists choices with their price by GET and POST, narrowed by type', async () => {
    const tyre = await t.build.product({ name: 'Lists Tyre Rotation', type: 'tire', price: 49 });
    await t.build.product({ name: 'Lists Paint Protection', type: 'arch', price: 249 });
    const byGet = await t.as(admin, { method: 'GET', url: '/api/quote/products/lists' });
    expect(byGet.json()).toEqual(expect.arrayContaining([{ text: 'Lists Tyre Rotation', value: tyre.id, price: 49 }]));
    const byPost = await t.as(admin, { method: 'POST', url: '/api/quote/products/lists', payload: { type: 'tire' } });
    expect(byPost.statusCode).toBe(200);
    expect(byPost.json().map((p: { text: string }) => p.text)).toContain('Lists Tyre Rotation');
    expect(byPost.json().map((p: { text: string }) => p.text)).not.toContain('Lists Paint Protection');
    expect(
      (await t.as(admin, { method: 'GET', url: '/api/quote/products/lists?type=arch' })).json().map((p: { text: string }) => p.text),
    ).not.toContain('Lists Tyre Rotation');
    expect((await t.as(admin, { method: 'POST', url: '/api/quote/products/lists' })).statusCode).toBe(200);
  });
});

describe('parts', () => {
  it('answers 403 on every route to a user without `part`', async () => {
    const part = await t.build.part();
    const token = await t.login((await t.build.user({ permissions: ['product', 'panel'] })).email);
    await refusesAll(token, 'parts', crudCalls('parts', part.id, { name: 'Sneaky' }));
  });

  it('answers 422 with the field map and stores nothing', async () => {
    const before = await count('parts');
    const res = await t.as(admin, { method: 'POST', url: '/api/quote/parts', payload: { name: '  ' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { name: 'Name is required' } });
    expect(await count('parts')).toBe(before);
  });

  it('creates, reads, pages, searches, updates, deletes and lists', async () => {
    const created = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/parts',
      payload: { name: 'Left Rear Quarter Panel', type: 'arch' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const part = created.json().data;
    expect((await t.as(admin, { method: 'GET', url: `/api/quote/parts/${part.id}` })).json()).toEqual({ data: part });
    expect((await t.as(admin, { method: 'GET', url: '/api/quote/parts?q=quarter' })).json()).toEqual({ items: [part], total: 1 });
    const updated = await t.as(admin, {
      method: 'PUT',
      url: `/api/quote/parts/${part.id}`,
      payload: { name: 'LH Rear Quarter Panel', type: 'arch' },
    });
    expect(updated.json().data.name).toBe('LH Rear Quarter Panel');
    expect((await t.as(admin, { method: 'GET', url: '/api/quote/parts/lists' })).json()).toEqual(
      expect.arrayContaining([{ text: 'LH Rear Quarter Panel', value: part.id }]),
    );
    expect((await t.as(admin, { method: 'POST', url: '/api/quote/parts/lists', payload: { type: 'tire' } })).json()).not.toEqual(
      expect.arrayContaining([{ text: 'LH Rear Quarter Panel', value: part.id }]),
    );
    expect((await t.as(admin, { method: 'DELETE', url: `/api/quote/parts/${part.id}` })).statusCode).toBe(200);
    expect((await t.as(admin, { method: 'GET', url: `/api/quote/parts/${part.id}` })).statusCode).toBe(404);
  });

  it('refuses a name another part has (trimmed, any case, runs of spaces as one, any type), on create and on update', async () => {
    const post = (payload: Record<string, unknown>) => t.as(admin, { method: 'POST', url: '/api/quote/parts', payload });
    const first = (await post({ name: 'Tailgate Skin', type: 'arch' })).json().data;
    const before = await count('parts');
    for (const payload of [
      { name: '  tailgate SKIN ', type: 'arch' },
      { name: 'Tailgate   Skin', type: 'arch' },
      { name: 'Tailgate Skin', type: 'tire' },
    ]) {
      const again = await post(payload);
      expect(again.statusCode, JSON.stringify(payload)).toBe(422);
      expect(again.json()).toEqual({ error: { name: 'Name has already been taken.' } });
    }
    expect(await count('parts')).toBe(before);
    const other = (await post({ name: 'Tailgate Frame', type: 'arch' })).json().data;
    const renamed = await t.as(admin, {
      method: 'PUT',
      url: `/api/quote/parts/${other.id}`,
      payload: { name: 'Tailgate skin', type: 'arch' },
    });
    expect(renamed.statusCode).toBe(422);
    expect((await t.as(admin, { method: 'GET', url: `/api/quote/parts/${other.id}` })).json().data.name).toBe('Tailgate Frame');
    // Saving a part under its own name is no clash.
    const same = await t.as(admin, {
      method: 'PUT',
      url: `/api/quote/parts/${first.id}`,
      payload: { name: 'Tailgate Skin', type: 'arch' },
    });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('a part still pricing panels is not deleted (409 naming them, nothing removed); once they have another, it goes with its price rows', async () => {
    const part = await t.build.part();
    const client = await t.build.client();
    await t.db
      .insertInto('client_dent_prices')
      .values({
        client_id: client.id,
        part_id: part.id,
        light: 1,
        medium: 2,
        heavy: 3,
        severe: 4,
        oversize: 5,
        p2p: 1,
        aluminium: 0,
        conventional: 9,
        replacement: 10,
      })
      .execute();
    const group = await t.build.panelGroup();
    const panel = await t.build.panel({ panel_group_id: group.id, part_id: part.id });
    await t.db.updateTable('panels').set({ label: 'Bonnet' }).where('id', '=', panel.id).execute();
    const refused = await t.as(admin, { method: 'DELETE', url: `/api/quote/parts/${part.id}`, headers: { 'x-message-keys': '1' } });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({
      error: 'This part prices these panels: Bonnet. Give them another part first.',
      message: { key: 'app.errors.part_in_use', params: { panels: 'Bonnet' } },
    });
    expect(await t.db.selectFrom('client_dent_prices').select('part_id').where('part_id', '=', part.id).execute()).toHaveLength(1);
    expect((await t.db.selectFrom('panels').select('part_id').where('id', '=', panel.id).executeTakeFirstOrThrow()).part_id).toBe(part.id);

    await t.db.updateTable('panels').set({ part_id: null }).where('id', '=', panel.id).execute();
    expect((await t.as(admin, { method: 'DELETE', url: `/api/quote/parts/${part.id}` })).statusCode).toBe(200);
    expect(await t.db.selectFrom('client_dent_prices').select('part_id').where('part_id', '=', part.id).execute()).toEqual([]);
  });

  it('a record still in use says so in words, with its message key', async () => {
    const group = await t.build.panelGroup();
    await t.build.panel({ panel_group_id: group.id });
    const refused = await t.as(admin, { method: 'DELETE', url: `/api/quote/panelGroups/${group.id}`, headers: { 'x-message-keys': '1' } });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({
      error: 'This panel group is still in use: change or remove what uses it first.',
      message: { key: 'app.errors.in_use' },
    });
  });
});

describe('panels', () => {
  let group: { id: number; name: string };
  let part: { id: number; name: string };
  beforeAll(async () => {
    group = await t.build.panelGroup({ name: 'Front view', position: 1 });
    part = await t.build.part({ name: 'Bonnet part' });
  });
  const valid = () => ({
    panel_group_id: group.id,
    name: 'Front Bonnet',
    label: 'Bonnet',
    type: 'D',
    position: 1,
    carPanel: 'bonnet',
    part_id: part.id,
  });

  it('answers 403 on the list without `part`, on a record and on writes without `panel` (the edit screen reads its record)', async () => {
    const panel = await t.build.panel({ panel_group_id: group.id });
    const readerOnly = await t.login((await t.build.user({ permissions: ['part'] })).email);
    const writerOnly = await t.login((await t.build.user({ permissions: ['panel', 'product'] })).email);
    const calls = crudCalls('panels', panel.id, valid());
    await refusesAll(writerOnly, 'panels', calls.slice(0, 1));
    await refusesAll(readerOnly, 'panels', calls.slice(1));
    expect((await t.as(readerOnly, calls[0])).statusCode).toBe(200);
    expect((await t.as(writerOnly, calls[1])).json().data).toMatchObject({ id: panel.id });
  });

  it('answers 422 with the field map and stores nothing', async () => {
    const before = await count('panels');
    const post = (payload: Record<string, unknown>) => t.as(admin, { method: 'POST', url: '/api/quote/panels', payload });
    expect((await post({})).json()).toEqual({
      error: {
        panel_group_id: 'Panel Group is required',
        name: 'Name is required',
        label: 'Label is required',
        type: 'Type is required',
        position: 'Position is required',
      },
    });
    expect((await post({ ...valid(), position: 0, type: 'XXL' })).json()).toEqual({
      error: { position: 'Position must be greater than zero', type: 'The selected type is invalid' },
    });
    expect((await post({ ...valid(), panel_group_id: 99999999 })).json()).toEqual({
      error: { panel_group_id: 'The selected panel group is invalid' },
    });
    expect((await post({ ...valid(), part_id: 99999999 })).json()).toEqual({ error: { part_id: 'The selected part is invalid' } });
    expect(await count('panels')).toBe(before);
  });

  it('creates with defaults and the wire names, reads with group and part names, pages, searches, updates, deletes', async () => {
    const created = await t.as(admin, { method: 'POST', url: '/api/quote/panels', payload: valid() });
    expect(created.statusCode, created.body).toBe(201);
    const panel = created.json().data;
    expect(panel).toEqual({
      id: expect.any(Number),
      panel_group_id: group.id,
      panel_group_name: 'Front view',
      name: 'Front Bonnet',
      label: 'Bonnet',
      type: 'D',
      position: 1,
      status: 1,
      hasLargeVariant: false,
      carPanel: 'bonnet',
      part_id: part.id,
      part_name: 'Bonnet part',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const stored = await t.db
      .selectFrom('panels')
      .select(['car_panel', 'has_large_variant', 'status'])
      .where('id', '=', panel.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ car_panel: 'bonnet', has_large_variant: false, status: true });

    expect((await t.as(admin, { method: 'GET', url: `/api/quote/panels/${panel.id}` })).json()).toEqual({ data: panel });
    expect((await t.as(admin, { method: 'GET', url: '/api/quote/panels?q=front%20bonnet' })).json()).toEqual({ items: [panel], total: 1 });

    const updated = await t.as(admin, {
      method: 'PUT',
      url: `/api/quote/panels/${panel.id}`,
      payload: { ...valid(), name: 'Front Bonnet (Large)', type: 'L', status: 0, hasLargeVariant: 1, position: 2, part_id: null },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({
      name: 'Front Bonnet (Large)',
      type: 'L',
      status: 0,
      hasLargeVariant: true,
      position: 2,
      part_id: null,
      part_name: null,
    });

    expect((await t.as(admin, { method: 'DELETE', url: `/api/quote/panels/${panel.id}` })).statusCode).toBe(200);
    expect((await t.as(admin, { method: 'GET', url: `/api/quote/panels/${panel.id}` })).json()).toEqual({
      error: `No query results for model [Panel] ${panel.id}`,
    });
  });

  it('lists panels by GET and POST, narrowed by group', async () => {
    const other = await t.build.panelGroup({ name: 'Rear view', position: 2 });
    const front = await t.build.panel({ panel_group_id: group.id, name: 'Lists front panel' });
    const rear = await t.build.panel({ panel_group_id: other.id, name: 'Lists rear panel' });
    const all = (await t.as(admin, { method: 'GET', url: '/api/quote/panels/lists' })).json();
    expect(all).toEqual(
      expect.arrayContaining([
        { text: 'Lists front panel', value: front.id },
        { text: 'Lists rear panel', value: rear.id },
      ]),
    );
    const byPost = (await t.as(admin, { method: 'POST', url: '/api/quote/panels/lists', payload: { panel_group_id: other.id } })).json();
    expect(byPost).toEqual([{ text: 'Lists rear panel', value: rear.id }]);
  });

  it('a panel group with panels cannot be deleted from under them', async () => {
    const g = await t.build.panelGroup();
    await t.build.panel({ panel_group_id: g.id });
    await expect(t.db.deleteFrom('panel_groups').where('id', '=', g.id).execute()).rejects.toThrow(/foreign key/);
  });
});

describe('demo catalogue', () => {
  let d: TestContext;
  beforeAll(async () => {
    d = await createTestContext();
    for (const currency of ['$', '¥', '€']) await d.build.client({ name: `Demo ${currency}`, currency });
    for (const [i, name] of ['Front', 'Rear', 'Left', 'Right', 'Top'].entries()) await d.build.panelGroup({ name, position: i + 1 });
    await seedCatalogueDemo(d.db, () => {});
  });

  it('seeds 25-40 parts, a few products, two e-mail templates and panels on all five groups, each priced by a part', async () => {
    const parts = await d.db.selectFrom('parts').select('name').execute();
    expect(parts.length).toBeGreaterThanOrEqual(25);
    expect(parts.length).toBeLessThanOrEqual(40);
    expect(parts.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'Bonnet',
        'Roof',
        'Boot Lid',
        'Left Front Door',
        'Right Rear Quarter Panel',
        'Front Bumper',
        'Left A Pillar',
      ]),
    );
    expect((await d.db.selectFrom('products').select('id').execute()).length).toBeGreaterThanOrEqual(3);
    // Beside the approval mail's templates, which migrations 026 and 038 seed for every installation.
    expect((await d.db.selectFrom('email_templates').select('template_name').execute()).map((r) => r.template_name).sort()).toEqual([
      APPROVAL_TEMPLATE_NAMES.en,
      APPROVAL_TEMPLATE_NAMES.ja,
      'Quote ready',
      'Scan report',
    ]);
    // The default header says 'Hello,': a template does not greet again, and uses only merge fields the mail fills.
    const known = new Set<string>(MERGE_FIELDS.map((f) => f.name));
    for (const t of await d.db.selectFrom('email_templates').select(['template_name', 'template_body']).execute()) {
      expect(t.template_body, t.template_name).not.toMatch(/^<p>\s*(hello|hi|dear)\b/i);
      const names = [...`${t.template_name} ${t.template_body}`.matchAll(/\{\{([^{}]*)\}\}/g)].map((x) => x[1].trim());
      // The approval mail fills its own fields (the link, the quote's number and total).
      const approval = (Object.values(APPROVAL_TEMPLATE_NAMES) as string[]).includes(t.template_name);
      const fills = approval ? new Set<string>(APPROVAL_MERGE_FIELDS) : known;
      expect(
        names.filter((n) => !fills.has(n)),
        t.template_name,
      ).toEqual([]);
    }
    const panels = await d.db
      .selectFrom('panels')
      .innerJoin('panel_groups', 'panel_groups.id', 'panels.panel_group_id')
      .select(['panel_groups.name as group', 'panels.part_id', 'panels.type', 'panels.has_large_variant'])
      .execute();
    expect(new Set(panels.map((p) => p.group))).toEqual(new Set(['Front', 'Rear', 'Left', 'Right', 'Top']));
    expect(panels.every((p) => p.part_id !== null)).toBe(true);
    expect(panels.filter((p) => p.type !== 'D').every((p) => p.has_large_variant)).toBe(true);
  });

  it('gives each client a full matrix in its currency, rising with severity, and a complete category method', async () => {
    const partIds = (await d.db.selectFrom('parts').select('id').orderBy('id').execute()).map((p) => p.id);
    const partCount = partIds.length;
    const clients = await d.db.selectFrom('clients').selectAll().orderBy('id').execute();
    const bonnetPrices: Record<string, number> = {};
    for (const client of clients) {
      const rows = await d.db.selectFrom('client_dent_prices').selectAll().where('client_id', '=', client.id).execute();
      expect(rows).toHaveLength(partCount);
      expect(await d.db.selectFrom('client_scratch_prices').select('part_id').where('client_id', '=', client.id).execute()).toHaveLength(
        partCount,
      );
      for (const r of rows)
        expect([r.light, r.medium, r.heavy, r.severe, r.oversize]).toEqual(
          [...[r.light, r.medium, r.heavy, r.severe, r.oversize]].sort((a, b) => a - b),
        );
      const method = clientCategoryMethod({
        calculation_method: client.calculation_method,
        sc_threshold: client.sc_threshold,
        weighted_no: Object.fromEntries(DENT_LEVELS.map((l) => [l, client[`weighted_${l}`]])),
      });
      expect(method, client.currency).not.toBeNull();
      bonnetPrices[client.currency] = rows.find((r) => r.part_id === partIds[0])!.heavy;
    }
    // Yen amounts are about a hundred times the Australian dollar ones.
    expect(bonnetPrices['¥'] / bonnetPrices.$).toBeGreaterThan(80);
    expect(bonnetPrices['¥'] / bonnetPrices.$).toBeLessThan(120);
  });
});
