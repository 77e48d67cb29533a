import { removeExpiredReports } from '../../server/lib/report-file';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { DUPLICATE_PRODUCT_MESSAGE } from '../../src/domain/quotes';
import { keyOfUrl, storageOf } from '../../server/lib/storage';
import { seedQuotes } from '../../server/seed/quotes-demo';
import { createTestContext, DENT_PRICE_ROW, formData, type TestContext } from './helper';
import { pdfLines } from './pdf-text';
import { pngImage } from './image-fixtures';

let t: TestContext;
let admin: string;
let agentUserA: string;
let agentUserB: string;
let clientUserX: string;
let agentA: { id: number; name: string };
let agentB: { id: number; name: string };
let clientX: { id: number; name: string };
let clientY: { id: number; name: string };
let part: number;
let bonnet: number;
let roofL: number;
let door: number;
let bonnetSide: number;
let product: number;
let product2: number;

const dentRow = DENT_PRICE_ROW;

async function measures(scanId: number, rows: [string, 'dents' | 'scratchs', string, number][]) {
  for (const [panel, type, level, count] of rows)
    await sql`insert into scan_measures (scan_id, car_panel, type, level, count) values (${scanId}, ${panel}, ${type}, ${level}, ${count})`.execute(
      t.db,
    );
}

/** A damaged scan of agent A for client X: bonnet 2 heavy + 1 light dents and 1 scratch, roof 1 medium dent. */
async function damagedScan(over: { agent_id?: number; client_id?: number; license_plate?: string; location_state?: string } = {}) {
  const { location_state, ...rest } = over;
  const scan = await t.build.scan({ agent_id: agentA.id, client_id: clientX.id, license_plate: 'QTE123', ...rest });
  if (location_state) await sql`update scans set location_state = ${location_state} where id = ${scan.id}`.execute(t.db);
  await measures(scan.id, [
    ['bonnet', 'dents', 'heavy', 2],
    ['bonnet', 'dents', 'light', 1],
    ['bonnet', 'scratchs', 'light', 1],
    ['roof', 'dents', 'medium', 1],
  ]);
  return scan.id;
}

const body = (scanId: number, over: Record<string, unknown> = {}) => ({
  scan_id: scanId,
  client_id: clientX.id,
  type: 'arch',
  items: {
    // Figures sent by the browser are ignored: the server prices the choices.
    [bonnet]: { repair_type: 'pdr', category: 'heavy', repair_fee: 99999, lineTotal: 99999 },
    [roofL]: { repair_type: 'conventional' },
  },
  products: [{ value: product, text: 'Tampered name', price: 25.5 }],
  parts: ['  Bumper clip ', 'bumper CLIP', { text: 'Grille', value: 'x' }],
  metallic: 1,
  pearl: 0,
  aluminium: 1,
  vehicle_type: 'D',
  assessor_comments: 'Hail damage',
  grant_total: 1,
  totals: { grant_total: 1 },
  ...over,
});

const save = (token: string, payload: Record<string, unknown>) => t.as(token, { method: 'POST', url: '/api/quote/quotes', payload });
const count = async (table: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(t.db)).rows[0].n;

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  clientX = await t.build.client({ name: 'Quote client X' });
  clientY = await t.build.client({ name: 'Quote client Y' });
  await sql`update clients set sc_metallic = 10, sc_pearl = 5, sc_p2p = true, sc_threshold = 1 where id = ${clientX.id}`.execute(t.db);
  agentA = await t.build.agent({ name: 'Quote agent A', default_client_id: clientX.id, portal_mode: 'open' });
  agentB = await t.build.agent({ name: 'Quote agent B', default_client_id: clientY.id });
  part = (await t.build.part({ name: 'Quote part' })).id;
  await t.db
    .insertInto('client_dent_prices')
    .values({ client_id: clientX.id, part_id: part, ...dentRow })
    .execute();
  await t.db
    .insertInto('client_scratch_prices')
    .values({ client_id: clientX.id, part_id: part, spot: 50, paint: 120, conventional: 70 })
    .execute();
  const group = (await t.build.panelGroup({ name: 'Quote front' })).id;
  const panel = async (car_panel: string, over: { type?: 'D' | 'L' | 'XL'; has_large_variant?: boolean } = {}) =>
    (
      await t.db
        .insertInto('panels')
        .values({ panel_group_id: group, name: car_panel, label: car_panel.toUpperCase(), position: 1, car_panel, part_id: part, ...over })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  bonnet = await panel('bonnet');
  roofL = await panel('roof', { type: 'L', has_large_variant: true });
  door = await panel('door_lf');
  bonnetSide = await panel('bonnet');
  product = (await t.build.product({ name: 'Quote wax', price: 30 })).id;
  product2 = (await t.build.product({ name: 'Quote polish', price: 12 })).id;
  agentUserA = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA.id] })).email);
  agentUserB = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentB.id] })).email);
  clientUserX = await t.login((await t.build.user({ roles: ['Client'], clients: [clientX.id] })).email);
});

describe('GET scans/{id}/evaluate', () => {
  it("gives the counts, the client with its prices and each panel's category, and the scan", async () => {
    const scanId = await damagedScan();
    const res = await t.as(agentUserA, { method: 'GET', url: `/api/scan/scans/${scanId}/evaluate` });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d.measures.dents.bonnet).toEqual({ light: 1, medium: 0, heavy: 2, severe: 0, oversize: 0 });
    expect(d.measures.damage_count).toEqual({ dents: { bonnet: 3, roof: 1 }, scratchs: { bonnet: 1 } });
    expect(d.client.id).toBe(clientX.id);
    expect(d.client.prices.dent[String(part)]).toEqual(dentRow);
    // T with threshold 1: the largest dent.
    expect(d.client.thresholdCategory).toMatchObject({ bonnet: 'heavy', roof: 'medium', door_lf: null });
    expect(d.panels.find((p: { id: number }) => p.id === roofL)).toMatchObject({
      hasLargeVariant: true,
      type: 'L',
      thresholdCategory: 'medium',
    });
    expect(d.scanInfo).toMatchObject({ id: scanId, licensePlate: 'QTE123', has_quote: false });
    // The client is read as GET clients/{id} reads it (one read of a client's matrices, server/lib/pricing-inputs.ts).
    const own = await t.as(admin, { method: 'GET', url: `/api/quote/clients/${clientX.id}` });
    const { created_at, updated_at, ...client } = own.json().data;
    expect([typeof created_at, typeof updated_at]).toEqual(['string', 'string']);
    const { thresholdCategory, ...priced } = d.client;
    expect(thresholdCategory).toBeTruthy();
    expect(priced).toEqual(client);
  });

  it("is the model's 404 for a scan out of reach", async () => {
    const scanId = await damagedScan();
    const res = await t.as(agentUserB, { method: 'GET', url: `/api/scan/scans/${scanId}/evaluate` });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(`No query results for model [Scan] ${scanId}`);
  });
});

describe('POST quotes', () => {
  it('prices every figure itself, ignoring the totals and fees the browser sent', async () => {
    const scanId = await damagedScan();
    const res = await save(agentUserA, body(scanId));
    expect(res.statusCode, res.body).toBe(201);
    const q = res.json().data;
    // Bonnet pdr heavy 200 + aluminium 20 % (40) + metallic 10 % (20) = 260; its scratch line spot 50 (metallic only on
    // paint), counted in Scratch / Paint, never in Replace.
    expect(q.items[bonnet]).toMatchObject({
      repair_type: 'pdr',
      category: 'heavy',
      threshold_category: 'heavy',
      repair_fee: 200,
      aluminium_fee: 40,
      metalic_fee: 20,
      pearl_fee: 0,
      lineTotal: 260,
      status: 'priced',
      scratch: { repair_type: 'spot', repair_fee: 50, lineTotal: 50, status: 'priced' },
    });
    // The roof is a large variant of type L on a D vehicle: 0.
    expect(q.items[roofL]).toMatchObject({ repair_type: 'conventional', lineTotal: 0, status: 'other-vehicle-type' });
    expect(q.totals).toEqual({
      pdr: 260,
      conventional: 0,
      p2p: 0,
      replacement: 0,
      paint: 50,
      tyre: 0,
      product: 25.5,
      sub_total: 335.5,
      tax: 33.55,
      grant_total: 369.05,
    });
    expect(q).toMatchObject({ grant_total: 369.05, tax_percent: 10, gst_percent: 10, currency: '$', vehicle_photo: null, tyres: [] });
    expect(q.pdf).toMatch(/^\/api\/user\/files\/[0-9a-f]{32}\.pdf\?expires=\d+&uid=\d+&sig=[\w-]{43}$/);
    // The catalogue's product name, the typed price; parts trimmed, their id the lower-cased text, one per id.
    expect(q.products).toEqual([{ value: product, text: 'Quote wax', price: 25.5 }]);
    expect(q.parts).toEqual([
      { text: 'Bumper clip', value: 'bumper clip' },
      { text: 'Grille', value: 'grille' },
    ]);
    expect(q).toMatchObject({ scan_id: scanId, client_id: clientX.id, agent_id: agentA.id, metallic: 1, aluminium: 1, pearl: 0 });
    expect(q.client).toMatchObject({ id: clientX.id, name: 'Quote client X', sc_metallic: 10 });
    expect(q.scan).toMatchObject({ id: scanId, licensePlate: 'QTE123' });
    const stored = await sql<{
      grant_total: number;
      sub_total: number;
    }>`select grant_total, sub_total from quotes where id = ${q.id}`.execute(t.db);
    expect(stored.rows[0]).toEqual({ grant_total: 369.05, sub_total: 335.5 });
    const again = await t.as(agentUserA, { method: 'GET', url: `/api/quote/quotes/${q.id}` });
    expect(again.json().data.totals).toEqual(q.totals);
  });

  it('updates the same quote when saved again (its number stays)', async () => {
    const scanId = await damagedScan();
    const first = (await save(agentUserA, body(scanId))).json().data;
    const second = await save(
      agentUserA,
      body(scanId, { metallic: 0, items: { [bonnet]: { repair_type: 'replacement', scratch_repair_type: 'paint' } } }),
    );
    expect(second.statusCode, second.body).toBe(200);
    // Replacement 900 + aluminium 20 % (180); the replacement repaints the panel, so no scratch line beside it, even
    // when one is asked for: the paint is charged once.
    expect(second.json().data).toMatchObject({ id: first.id, pdr: 0, replacement: 1080, paint: 0, sub_total: 1105.5 });
    expect(second.json().data.items[bonnet].scratch).toBeNull();
    // Back to pdr: the scratch line returns at its default, spot.
    const third = (await save(agentUserA, body(scanId, { metallic: 0, items: { [bonnet]: { repair_type: 'pdr' } } }))).json().data;
    expect(third.items[bonnet].scratch).toMatchObject({ repair_type: 'spot', lineTotal: 50 });
    expect(third).toMatchObject({ replacement: 0, paint: 50, pdr: 240 });
    expect((await sql<{ n: number }>`select count(*)::int as n from quotes where scan_id = ${scanId}`.execute(t.db)).rows[0].n).toBe(1);
  });

  it("stores the scan's type, whatever type the body names", async () => {
    const scanId = await damagedScan();
    const res = await save(agentUserA, body(scanId, { type: 'tire' }));
    expect(res.statusCode, res.body).toBe(201);
    const stored = await sql<{ type: string }>`select type from quotes where scan_id = ${scanId}`.execute(t.db);
    expect(stored.rows[0].type).toBe('arch');
  });

  it("keeps an issued quote's figures and prices after the client's prices change", async () => {
    const scanId = await damagedScan();
    const q = (await save(agentUserA, body(scanId))).json().data;
    await sql`update client_dent_prices set heavy = 500 where client_id = ${clientX.id}`.execute(t.db);
    await sql`update clients set sc_metallic = 50 where id = ${clientX.id}`.execute(t.db);
    await sql`update options set option_value = '15' where option_name = 'GST_PERCENT'`.execute(t.db);
    try {
      const later = (await t.as(admin, { method: 'GET', url: `/api/quote/quotes/${q.id}` })).json().data;
      expect(later.totals).toEqual(q.totals);
      expect(later.items).toEqual(q.items);
      expect(later.client.sc_metallic).toBe(10);
      expect(later.gst_percent).toBe(10);
      const snapshot = await sql<{
        s: { prices: { dent: Record<string, { heavy: number }> } };
      }>`select client_snapshot as s from quotes where id = ${q.id}`.execute(t.db);
      expect(snapshot.rows[0].s.prices.dent[String(part)].heavy).toBe(200);
      // Saving again re-prices with the prices of now: heavy 500 + 20 % + 50 % = 850.
      const resaved = (await save(agentUserA, body(scanId))).json().data;
      expect(resaved.items[bonnet].lineTotal).toBe(850);
      expect(resaved.gst_percent).toBe(15);
      // The quote screen's preview prices with the rate saving uses: the evaluation carries it.
      const evaluation = await t.as(agentUserA, { method: 'GET', url: `/api/scan/scans/${scanId}/evaluate` });
      expect(evaluation.json().data.gst_percent).toBe(15);
    } finally {
      await sql`update client_dent_prices set heavy = 200 where client_id = ${clientX.id}`.execute(t.db);
      await sql`update clients set sc_metallic = 10 where id = ${clientX.id}`.execute(t.db);
      await sql`update options set option_value = '10' where option_name = 'GST_PERCENT'`.execute(t.db);
    }
  });

  it('answers 422 with a field map for bad bodies, and stores nothing', async () => {
    const scanId = await damagedScan();
    const before = await count('quotes');
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ items: { 999999: { repair_type: 'pdr' } } }, { 'items.999999': 'The selected panel is invalid' }],
      [{ products: [{ value: product, price: -1 }] }, { 'products.0.price': 'Price must be at least 0' }],
      [
        {
          products: [
            { value: product, price: 1 },
            { value: product, price: 2 },
          ],
        },
        { 'products.1.value': DUPLICATE_PRODUCT_MESSAGE },
      ],
      [{ products: [{ value: 999_999_999, price: 1 }] }, { 'products.0.value': 'The selected product is invalid' }],
      [{ parts: ['ok', '   '] }, { 'parts.1': 'Part must not be empty' }],
      [{ items: { [door]: { repair_type: 'pdr' } } }, { [`items.${door}.repair_type`]: 'A panel without dents has no repair type' }],
      [{ items: { [bonnet]: {} } }, { [`items.${bonnet}.repair_type`]: 'Repair Type is required' }],
      [{ items: { [bonnet]: { repair_type: 'glue' } } }, { [`items.${bonnet}.repair_type`]: 'The selected repair type is invalid' }],
      [{ client_id: clientY.id }, { client_id: 'The selected client is invalid' }],
      // The bonnet in a second car view: its counts are priced once.
      [
        { items: { [bonnet]: { repair_type: 'pdr' }, [bonnetSide]: { repair_type: 'conventional' } } },
        { [`items.${bonnetSide}`]: 'BONNET is already quoted in another car view' },
      ],
      // The roof is damaged and, in an L vehicle, shown: left out, it would read as undamaged on the invoice.
      [{ vehicle_type: 'L', items: { [bonnet]: { repair_type: 'pdr' } } }, { [`items.${roofL}`]: 'ROOF is damaged and must be quoted' }],
      [{ vehicle_type: 'XXL' }, { vehicle_type: 'The selected vehicle type is invalid' }],
      [{ metallic: 2 }, { metallic: 'Metallic must be 0 or 1' }],
    ];
    for (const [over, error] of cases) {
      const res = await save(admin, body(scanId, over));
      expect(res.statusCode, JSON.stringify(over)).toBe(422);
      expect(res.json().error, JSON.stringify(over)).toMatchObject(error);
    }
    expect(await count('quotes')).toBe(before);
  });

  it('refuses a quote that leaves out a damaged panel (scratches count), not one shown only in another vehicle type', async () => {
    const scanId = await damagedScan();
    await measures(scanId, [['door_lf', 'scratchs', 'light', 2]]);
    const before = await count('quotes');
    const without = await save(admin, body(scanId));
    expect(without.statusCode).toBe(422);
    expect(without.json().error).toEqual({ [`items.${door}`]: 'DOOR_LF is damaged and must be quoted' });
    // The screens say it in the user's language: the key beside the text.
    const keyed = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/quotes',
      payload: body(scanId),
      headers: { 'x-message-keys': '1' },
    });
    expect(keyed.json().messages).toEqual({ [`items.${door}`]: { key: 'app.validation.unquoted_panel', params: { label: 'DOOR_LF' } } });
    expect(await count('quotes')).toBe(before);
    // The roof's only panel is the L one: a D quote may leave it out.
    const items = { [bonnet]: { repair_type: 'pdr', category: 'heavy' }, [door]: { scratch_repair_type: 'spot' } };
    const saved = await save(admin, body(scanId, { items }));
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().data.items[door].scratch).toMatchObject({ repair_type: 'spot', status: 'priced' });
  });

  it('refuses a damaged panel quoted only through its panel of another vehicle type, which would price it at 0', async () => {
    const scanId = await damagedScan();
    await measures(scanId, [['quarter_lr', 'dents', 'light', 2]]);
    const group = (await t.build.panelGroup({ name: 'Quote sized' })).id;
    const sized = async (type: 'D' | 'L') =>
      (
        await t.db
          .insertInto('panels')
          .values({
            panel_group_id: group,
            name: `quarter ${type}`,
            label: `QUARTER ${type}`,
            position: 1,
            car_panel: 'quarter_lr',
            part_id: part,
            type,
            has_large_variant: true,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const [quarterD, quarterL] = [await sized('D'), await sized('L')];
    try {
      const before = await count('quotes');
      const items = { [bonnet]: { repair_type: 'pdr', category: 'heavy' }, [roofL]: { repair_type: 'pdr' } };
      const wrongSize = await save(admin, body(scanId, { vehicle_type: 'L', items: { ...items, [quarterD]: { repair_type: 'pdr' } } }));
      expect(wrongSize.statusCode).toBe(422);
      expect(wrongSize.json().error).toEqual({ [`items.${quarterL}`]: 'QUARTER L is damaged and must be quoted' });
      expect(await count('quotes')).toBe(before);
      const saved = await save(admin, body(scanId, { vehicle_type: 'L', items: { ...items, [quarterL]: { repair_type: 'pdr' } } }));
      expect(saved.statusCode, saved.body).toBe(201);
      expect(saved.json().data.items[quarterL]).toMatchObject({ repair_type: 'pdr', status: 'priced' });
      await sql`delete from quotes where id = ${saved.json().data.id as number}`.execute(t.db);
    } finally {
      await t.db.deleteFrom('panels').where('id', 'in', [quarterD, quarterL]).execute();
    }
  });

  it("queues quote.generated for the agent's webhooks in the save's transaction", async () => {
    const hook = await t.build.webhook({ agent_id: agentA.id, events: ['quote.generated'] });
    const other = await t.build.webhook({ agent_id: agentA.id, events: ['scan.created'] });
    const scanId = await damagedScan();
    const q = (await save(agentUserA, body(scanId))).json().data;
    const rows = await sql<{ webhook_id: number; event: string; payload: { type: string; data: { id: number; grant_total: number } } }>`
      select webhook_id, event, payload from webhook_deliveries where webhook_id in (${hook.id}, ${other.id})`.execute(t.db);
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ webhook_id: hook.id, event: 'quote.generated' });
    expect(rows.rows[0].payload).toMatchObject({ type: 'quote.generated', data: { id: q.id, grant_total: 369.05 } });

    // Same transaction: when queueing fails, the quote is not stored either.
    const fresh = await damagedScan();
    await sql`create function fail_delivery() returns trigger language plpgsql as $$ begin raise exception 'no deliveries'; end $$`.execute(
      t.db,
    );
    await sql`create trigger fail_delivery before insert on webhook_deliveries for each row execute function fail_delivery()`.execute(t.db);
    try {
      const res = await save(agentUserA, body(fresh));
      expect(res.statusCode).toBe(500);
      expect((await sql<{ n: number }>`select count(*)::int as n from quotes where scan_id = ${fresh}`.execute(t.db)).rows[0].n).toBe(0);
    } finally {
      await sql`drop trigger fail_delivery on webhook_deliveries`.execute(t.db);
      await sql`drop function fail_delivery()`.execute(t.db);
    }
  });

  it('makes the scan has_quote in its rows and the customer portal', async () => {
    const scanId = await damagedScan();
    const portal = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/scan/portal/${agentA.id}/scans` }))
        .json()
        .items.find((s: { id: number }) => s.id === scanId);
    expect((await portal()).has_quote).toBe(false);
    const q = (await save(agentUserA, body(scanId))).json().data;
    expect((await portal()).has_quote).toBe(true);
    expect((await t.as(admin, { method: 'GET', url: `/api/scan/scans/${scanId}` })).json().data.has_quote).toBe(true);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/quote/quotes/${q.id}` })).statusCode).toBe(200);
    expect((await portal()).has_quote).toBe(false);
  });

  it('takes the multipart form with a vehicle photo, and removes the photo on request', async () => {
    const scanId = await damagedScan();
    const b = body(scanId);
    const form = await formData({
      scan_id: scanId,
      client_id: clientX.id,
      type: 'arch',
      items: JSON.stringify(b.items),
      products: JSON.stringify(b.products),
      parts: JSON.stringify(b.parts),
      metallic: '1',
      pearl: '0',
      aluminium: 'true',
      vehicle_type: 'D',
      manual_check: '1',
      vehicle_photo: { data: await pngImage(), filename: 'car.png', type: 'image/png' },
    });
    const res = await t.as(agentUserA, { method: 'POST', url: '/api/quote/quotes', ...form });
    expect(res.statusCode, res.body).toBe(201);
    const q = res.json().data;
    expect(q).toMatchObject({ grant_total: 369.05, manual_check: 1, aluminium: 1 });
    expect(q.vehicle_photo).toMatch(/^\/api\/user\/files\/[0-9a-f]{32}\.png$/);
    const key = keyOfUrl(q.vehicle_photo)!;
    expect(await storageOf(t.app).get(key)).not.toBeNull();

    // Saving again without a file (the form echoes the URL) keeps it.
    const kept = await save(agentUserA, { ...b, vehicle_photo: q.vehicle_photo });
    expect(kept.json().data.vehicle_photo).toBe(q.vehicle_photo);

    const removed = await t.as(agentUserA, { method: 'PUT', url: `/api/quote/quotes/${q.id}/delete_vehicle_photo` });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data.vehicle_photo).toBeNull();
    expect(await storageOf(t.app).get(key)).toBeNull();

    const bad = await formData({
      scan_id: scanId,
      client_id: clientX.id,
      vehicle_photo: { data: Buffer.from('not an image'), filename: 'x.png' },
    });
    const refused = await t.as(agentUserA, { method: 'POST', url: '/api/quote/quotes', ...bad });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toEqual({ vehicle_photo: 'Vehicle Photo must be a PNG, JPEG or WebP image' });
  });
});

describe('the Tyres section', () => {
  it("prices the agent's tyre choices from the client's tyre prices, a recheck as an advisory line at 0", async () => {
    await sql`update clients set tyre_repair = 35, tyre_replace = 189.9 where id = ${clientX.id}`.execute(t.db);
    try {
      const scan = (await t.build.scan({ agent_id: agentA.id, client_id: clientX.id, type: 'tire' })).id;
      await t.build.tyre({ scan_id: scan, row: 1, direction: 'L', label: 'FRONT LEFT' });
      await t.build.tyre({ scan_id: scan, row: 2, direction: 'R', label: 'REAR RIGHT' });
      await t.build.tyre({ scan_id: scan, row: 1, direction: 'R', label: 'FRONT RIGHT' });
      const choose = (row: number, direction: string, repair_type: string) =>
        t.as(agentUserA, { method: 'PUT', url: `/api/scan/scans/${scan}/tyre-repairs`, payload: { row, direction, repair_type } });
      expect((await choose(1, 'L', 'replace')).statusCode).toBe(200);
      await choose(2, 'R', 'recheck');
      await choose(1, 'R', 'repair');
      // The quote screen's preview reads the same choices.
      const evaluation = (await t.as(agentUserA, { method: 'GET', url: `/api/scan/scans/${scan}/evaluate` })).json().data;
      expect(evaluation.tyres).toEqual([
        { row: 1, direction: 'L', label: 'FRONT LEFT', repair_type: 'replace' },
        { row: 1, direction: 'R', label: 'FRONT RIGHT', repair_type: 'repair' },
        { row: 2, direction: 'R', label: 'REAR RIGHT', repair_type: 'recheck' },
      ]);
      // The scan page's JSON save: no panels, no products; metallic on never touches a tyre.
      const res = await save(agentUserA, { scan_id: scan, client_id: clientX.id, type: 'tire', items: {}, metallic: 1, aluminium: 1 });
      expect(res.statusCode, res.body).toBe(201);
      const q = res.json().data;
      expect(q.tyres).toEqual([
        { row: 1, direction: 'L', label: 'FRONT LEFT', repair_type: 'replace', status: 'priced', repair_fee: 189.9, lineTotal: 189.9 },
        { row: 1, direction: 'R', label: 'FRONT RIGHT', repair_type: 'repair', status: 'priced', repair_fee: 35, lineTotal: 35 },
        { row: 2, direction: 'R', label: 'REAR RIGHT', repair_type: 'recheck', status: 'advisory', repair_fee: 0, lineTotal: 0 },
      ]);
      // 224.90 + GST 22.49 = 247.39, stored as the engine's figures.
      expect(q.totals).toMatchObject({ tyre: 224.9, sub_total: 224.9, tax: 22.49, grant_total: 247.39 });
      const stored = await sql<{ tyre: number; grant_total: number }>`select tyre, grant_total from quotes where id = ${q.id}`.execute(
        t.db,
      );
      expect(stored.rows[0]).toEqual({ tyre: 224.9, grant_total: 247.39 });
      expect(q.client).toMatchObject({ tyre_repair: 35, tyre_replace: 189.9 });
      // The PDF prints the section, the advisory line under its tyre.
      const pdf = await t.app.inject({ method: 'GET', url: q.pdf });
      const lines = pdfLines(pdf.rawPayload);
      expect(lines).toContain('Tyres');
      expect(lines.some((l) => /^FRONT LEFT Replace .*\$189\.90$/.test(l))).toBe(true);
      expect(lines.some((l) => /^REAR RIGHT Recheck Next Visit .*\$0\.00$/.test(l))).toBe(true);
      expect(lines.some((l) => /^Tyres Total \$224\.90$/.test(l))).toBe(true);

      // A changed choice is what the next save prices; a client without a tyre price gives a missing price at 0.
      await choose(1, 'L', 'repair');
      await sql`update clients set tyre_repair = 0 where id = ${clientX.id}`.execute(t.db);
      const again = (await save(agentUserA, { scan_id: scan, client_id: clientX.id, type: 'tire', items: {} })).json().data;
      expect(again.tyres.map((l: { repair_type: string; status: string }) => [l.repair_type, l.status])).toEqual([
        ['repair', 'no-price'],
        ['repair', 'no-price'],
        ['recheck', 'advisory'],
      ]);
      expect(again.totals.tyre).toBe(0);
    } finally {
      await sql`update clients set tyre_repair = 0, tyre_replace = 0 where id = ${clientX.id}`.execute(t.db);
    }
  });

  it("refuses a negative tyre price on the client's form, naming the field, and stores nothing", async () => {
    const res = await t.as(admin, {
      method: 'PUT',
      url: `/api/quote/clients/${clientY.id}`,
      payload: { name: 'Quote client Y', tyre_repair: -1, tyre_replace: 'much' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().error).sort()).toEqual(['tyre_repair', 'tyre_replace']);
    const row = await sql<{ r: number }>`select tyre_repair::float8 as r from clients where id = ${clientY.id}`.execute(t.db);
    expect(row.rows[0].r).toBe(0);
  });
});

describe('a quote saved before Scratch / Paint existed', () => {
  it('has its spot and paint scratch lines moved out of Replace by the migration, its sub-total and grand total unchanged', async () => {
    const scanId = await damagedScan();
    const q = (await save(agentUserA, body(scanId))).json().data;
    // Stored as it was then: the spot scratch (50) counted in Replace, no Scratch / Paint, no tyre prices kept.
    await sql`update quotes set replacement = replacement + paint, paint = 0, client_snapshot = client_snapshot - 'tyre_repair' - 'tyre_replace'
      where id = ${q.id}`.execute(t.db);
    const migration = readFileSync(new URL('../../server/db/migrations/019_scratch_paint_tyres.sql', import.meta.url), 'utf8');
    // Its data statements (the columns exist already in the test database).
    for (const statement of migration.split(/;\s*\n/).filter((x) => /^\s*(with|update)\b/im.test(x.replace(/^--.*$/gm, ''))))
      await sql.raw(statement).execute(t.db);
    const after = (await t.as(admin, { method: 'GET', url: `/api/quote/quotes/${q.id}` })).json().data;
    expect(after.totals).toEqual(q.totals);
    expect(after.totals).toMatchObject({ replacement: 0, paint: 50 });
    expect(after.client).toMatchObject({ tyre_repair: 0, tyre_replace: 0 });
  });
});

describe('PUT quotes/{id}/manual_check', () => {
  it('sets and clears the quote check request alone: the figures stay as issued even after a price change', async () => {
    const scanId = await damagedScan();
    const q = (await save(agentUserA, body(scanId))).json().data;
    expect(q.manual_check).toBe(0);
    await sql`update client_dent_prices set heavy = 999 where client_id = ${clientX.id}`.execute(t.db);
    try {
      const on = await t.as(admin, { method: 'PUT', url: `/api/quote/quotes/${q.id}/manual_check`, payload: { manual_check: 1 } });
      expect(on.statusCode, on.body).toBe(200);
      expect(on.json().data).toMatchObject({ id: q.id, manual_check: 1, grant_total: q.grant_total, totals: q.totals, items: q.items });
      const off = await t.as(admin, { method: 'PUT', url: `/api/quote/quotes/${q.id}/manual_check`, payload: { manual_check: false } });
      expect(off.json().data).toMatchObject({ manual_check: 0, grant_total: q.grant_total });
    } finally {
      await sql`update client_dent_prices set heavy = ${dentRow.heavy} where client_id = ${clientX.id}`.execute(t.db);
    }
    for (const payload of [{}, { manual_check: 2 }, { manual_check: 'yes' }]) {
      const bad = await t.as(admin, { method: 'PUT', url: `/api/quote/quotes/${q.id}/manual_check`, payload });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error).toEqual({ manual_check: 'Request quote check must be 0 or 1' });
    }
    // Another agent's user: the model's 404, nothing changed.
    const foreign = await t.as(agentUserB, { method: 'PUT', url: `/api/quote/quotes/${q.id}/manual_check`, payload: { manual_check: 1 } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(`No query results for model [Quote] ${q.id}`);
    expect((await t.as(admin, { method: 'GET', url: `/api/quote/quotes/${q.id}` })).json().data.manual_check).toBe(0);
  });
});

describe('the quote PDF', () => {
  const pdfOf = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    return pdfLines(res.rawPayload);
  };
  const hasRow = (lines: string[], ...cells: string[]) =>
    lines.some((l) => new RegExp(cells.map((c) => c.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&')).join('.*')).test(l));

  it('is made on save with the same lines and totals as the stored quote, and replaced on the next save', async () => {
    const scanId = await damagedScan();
    const q = (await save(agentUserA, body(scanId))).json().data;
    const lines = await pdfOf(q.pdf);
    expect(lines.join('\n')).toContain(`ESTIMATE # ${q.id}`);
    // Bonnet pdr heavy 200 + aluminium 40 + metallic 20 = 260; its scratch spot 50 (Replace); products 25.50.
    expect(hasRow(lines, 'BONNET', 'Heavy', '$200.00', '$40.00', '$20.00', '$260.00')).toBe(true);
    expect(hasRow(lines, 'BONNET', 'Scratch (Spot)', '$50.00', '$0.00', '$0.00', '$50.00')).toBe(true);
    expect(hasRow(lines, 'Quote wax', '$25.50')).toBe(true);
    expect(lines).toContain('Bumper clip');
    for (const [label, key] of [
      ['PDR Total', 'pdr'],
      ['Replace Total', 'replacement'],
      ['Products Total', 'product'],
      ['Sub Total', 'sub_total'],
      ['GST', 'tax'],
      ['Grand Total', 'grant_total'],
    ] as const)
      expect(hasRow(lines, label, `$${(q.totals[key] as number).toFixed(2)}`), label).toBe(true);
    // The large-variant roof of another vehicle type is not on it.
    expect(lines.join('\n')).not.toContain('ROOF');

    const again = (await save(agentUserA, body(scanId, { items: { [bonnet]: { repair_type: 'replacement' } } }))).json().data;
    expect(again.pdf).not.toBe(q.pdf);
    expect(hasRow(await pdfOf(again.pdf), 'BONNET', 'Dent', '$900.00', '$180.00', '$90.00', '$1,170.00')).toBe(true);
    // The previous PDF is gone from storage.
    expect(await storageOf(t.app).get(keyOfUrl(q.pdf)!)).toBeNull();
  });

  it("prints the scan's body type, the assessor's comments, the GST rate and the vehicle photo", async () => {
    const scanId = await damagedScan();
    await sql`update scans set body_type = 'Hatchback' where id = ${scanId}`.execute(t.db);
    const b = body(scanId);
    const form = await formData({
      scan_id: scanId,
      client_id: clientX.id,
      items: JSON.stringify(b.items),
      assessor_comments: 'Hail damage on the bonnet\nCustomer to call back',
      vehicle_photo: { data: await pngImage(320, 240), filename: 'car.png', type: 'image/png' },
    });
    const res = await t.as(agentUserA, { method: 'POST', url: '/api/quote/quotes', ...form });
    expect(res.statusCode, res.body).toBe(201);
    const q = res.json().data;
    expect(q.scan.body_type).toBe('Hatchback');
    expect((await t.as(agentUserA, { method: 'GET', url: `/api/quote/quotes/${q.id}` })).json().data.scan.body_type).toBe('Hatchback');
    const pdf = await t.app.inject({ method: 'GET', url: q.pdf });
    const lines = pdfLines(pdf.rawPayload);
    expect(hasRow(lines, 'Body Type', 'Hatchback')).toBe(true);
    expect(lines).toEqual(expect.arrayContaining(['Comments', 'Hail damage on the bonnet', 'Customer to call back', 'Vehicle Photo']));
    expect(hasRow(lines, 'GST 10 %', `$${q.totals.tax.toFixed(2)}`)).toBe(true);
    // The photo is embedded (as a JPEG of its own size: it is smaller than the PDF's bound).
    const dir = mkdtempSync(path.join(tmpdir(), 'quote-pdf-'));
    try {
      writeFileSync(path.join(dir, 'q.pdf'), pdf.rawPayload);
      const list = execFileSync('pdfimages', ['-list', path.join(dir, 'q.pdf')], { encoding: 'utf8' });
      expect(list).toMatch(/^\s*1\s+\d+\s+image\s+320\s+240\s.*\bjpeg\b/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is in the agent's language: Japanese for a ja agent", async () => {
    await sql`update agents set language = 'ja' where id = ${agentA.id}`.execute(t.db);
    try {
      const scanId = await damagedScan();
      const q = (await save(agentUserA, body(scanId))).json().data;
      const lines = await pdfOf(q.pdf);
      expect(lines.join('\n')).toContain(`見積書 # ${q.id}`);
      expect(hasRow(lines, 'BONNET', '重度', '$260.00')).toBe(true);
      expect(hasRow(lines, '総合計', `$${q.totals.grant_total.toFixed(2)}`)).toBe(true);
    } finally {
      await sql`update agents set language = 'en' where id = ${agentA.id}`.execute(t.db);
    }
  });

  it("is the scan's 'View Quote' (its Reports section) and can be mailed from the scan page; gone from both with the quote", async () => {
    const scanId = await damagedScan();
    const reports = async () =>
      (await t.as(agentUserA, { method: 'GET', url: `/api/scan/scans/${scanId}` })).json().data.report_pdfs as {
        label: string;
        url: string;
        path: string;
      }[];
    expect((await reports()).some((r) => r.label === 'View Quote')).toBe(false);
    const q = (await save(agentUserA, body(scanId))).json().data;
    const view = (await reports()).find((r) => r.label === 'View Quote');
    // Both links are signed for the same user, each when its reply was made.
    const path = keyOfUrl((q.pdf as string).split('?')[0]);
    expect(view).toEqual({ label: 'View Quote', url: expect.stringMatching(new RegExp(`^/api/user/files/${path}\\?expires=`)), path });
    const mail = await t.as(agentUserA, {
      method: 'POST',
      url: '/api/email/emails',
      payload: {
        scan_id: scanId,
        recipients: ['owner@example.test'],
        subject: 'Your quote',
        message: '<p>Attached.</p>',
        attachments: [view!.path],
      },
    });
    expect(mail.statusCode, mail.body).toBe(201);
    expect(mail.json().data.attachments).toEqual([
      // Named as people write it: the link's label without 'View ', and the registration when the scan has one.
      expect.objectContaining({ filename: expect.stringMatching(/^Quote( – [^/]+)?\.pdf$/), content_type: 'application/pdf' }),
    ]);
    // Another scan cannot attach it.
    const other = await damagedScan();
    const refused = await t.as(agentUserA, {
      method: 'POST',
      url: '/api/email/emails',
      payload: { scan_id: other, recipients: ['owner@example.test'], subject: 'x', message: '<p>x</p>', attachments: [view!.path] },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toHaveProperty(['attachments.0']);
    expect((await t.as(agentUserA, { method: 'DELETE', url: `/api/quote/quotes/${q.id}` })).statusCode).toBe(200);
    expect((await reports()).some((r) => r.label === 'View Quote')).toBe(false);
  });

  it('is made for each demo quote by the seed, through the same code as a save', async () => {
    const scanId = await damagedScan({ license_plate: 'SEEDPDF' });
    await sql`update scans set status = 'uploaded', dent_count = 3, scanned_at = now() + interval '1 day' where id = ${scanId}`.execute(
      t.db,
    );
    expect(await seedQuotes(t.db, storageOf(t.app), { count: 1 })).toBe(1);
    const row = (await sql<{ id: number; pdf_key: string | null }>`select id, pdf_key from quotes where scan_id = ${scanId}`.execute(t.db))
      .rows[0];
    expect(row.pdf_key).toMatch(/\.pdf$/);
    const q = (await t.as(admin, { method: 'GET', url: `/api/quote/quotes/${row.id}` })).json().data;
    expect(q.pdf.startsWith(`/api/user/files/${row.pdf_key}?expires=`)).toBe(true);
    const lines = await pdfOf(q.pdf);
    expect(lines.join('\n')).toContain(`ESTIMATE # ${q.id}`);
    expect(hasRow(lines, 'Grand Total', `$${(q.totals.grant_total as number).toFixed(2)}`)).toBe(true);
  });

  it('goes with the quote when it is deleted', async () => {
    const scanId = await damagedScan();
    const q = (await save(agentUserA, body(scanId))).json().data;
    expect((await t.as(agentUserA, { method: 'DELETE', url: `/api/quote/quotes/${q.id}` })).statusCode).toBe(200);
    expect(await storageOf(t.app).get(keyOfUrl(q.pdf)!)).toBeNull();
  });
});

describe('scope', () => {
  it('refuses quotes of agents and clients the user may not see (404) and changes nothing', async () => {
    const scanId = await damagedScan();
    const q = (await save(admin, body(scanId))).json().data;
    const snapshot = async () => (await sql`select * from quotes where id = ${q.id}`.execute(t.db)).rows;
    const before = await snapshot();
    const notFound = `No query results for model [Quote] ${q.id}`;
    for (const call of [
      { method: 'GET' as const, url: `/api/quote/quotes/${q.id}` },
      { method: 'DELETE' as const, url: `/api/quote/quotes/${q.id}` },
      { method: 'PUT' as const, url: `/api/quote/quotes/${q.id}/delete_vehicle_photo` },
    ]) {
      const res = await t.as(agentUserB, call);
      expect(res.statusCode, call.url).toBe(404);
      expect(res.json().error).toBe(notFound);
    }
    const resave = await save(agentUserB, body(scanId));
    expect(resave.statusCode).toBe(404);
    expect(resave.json().error).toBe(`No query results for model [Scan] ${scanId}`);
    expect((await t.as(agentUserB, { method: 'POST', url: '/api/quote/quotes/search', payload: { scan_id: scanId } })).statusCode).toBe(
      404,
    );
    expect(await snapshot()).toEqual(before);
    const list = (await t.as(agentUserB, { method: 'GET', url: '/api/quote/quotes?per_page=100' })).json();
    expect(list.items.map((i: { id: number }) => i.id)).not.toContain(q.id);

    // The Client user of the scan's client and the Agent user of its agent see it.
    expect((await t.as(clientUserX, { method: 'GET', url: `/api/quote/quotes/${q.id}` })).statusCode).toBe(200);
    const found = await t.as(agentUserA, { method: 'POST', url: '/api/quote/quotes/search', payload: { scan_id: scanId } });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data.id).toBe(q.id);
  });

  it('search gives null for a visible scan without a quote', async () => {
    const scanId = await damagedScan();
    const res = await t.as(agentUserA, { method: 'POST', url: '/api/quote/quotes/search', payload: { scan_id: scanId } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null });
  });
});

describe('GET quotes', () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    await sql`delete from quotes`.execute(t.db);
    const make = async (plate: string, agent: number, client: number, created_at: string, state = 'VIC') => {
      const scan = await t.build.scan({ agent_id: agent, client_id: client, license_plate: plate });
      await sql`update scans set location_state = ${state} where id = ${scan.id}`.execute(t.db);
      return (await t.build.quote(scan.id, { created_at, grant_total: plate.length })).id;
    };
    ids = {
      a1: await make('LA1', agentA.id, clientX.id, '2024-05-10T00:00:00Z'),
      a2: await make('LA22', agentA.id, clientX.id, '2024-05-11T00:00:00Z', 'NSW'),
      b1: await make('LB1', agentB.id, clientY.id, '2024-05-12T00:00:00Z'),
    };
  });
  const list = async (token: string, query: string) => {
    const res = await t.as(token, { method: 'GET', url: `/api/quote/quotes?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ items: { id: number; licensePlate: string }[]; total: number }>();
  };

  it('pages newest first with the total, filtered and scoped', async () => {
    const all = await list(admin, 'per_page=2');
    expect(all.total).toBe(3);
    expect(all.items.map((i) => i.id)).toEqual([ids.b1, ids.a2]);
    expect((await list(admin, 'page=2&per_page=2')).items.map((i) => i.id)).toEqual([ids.a1]);
    expect((await list(admin, `agent_id=${agentA.id}`)).items.map((i) => i.id)).toEqual([ids.a2, ids.a1]);
    expect((await list(admin, `client_id=${clientY.id}`)).items.map((i) => i.id)).toEqual([ids.b1]);
    expect((await list(admin, 'location_state=NSW')).items.map((i) => i.id)).toEqual([ids.a2]);
    expect((await list(admin, 'type=tire')).total).toBe(0);
    expect((await list(admin, 'q=la2')).items.map((i) => i.id)).toEqual([ids.a2]);
    expect((await list(admin, 'q=Quote agent B')).items.map((i) => i.id)).toEqual([ids.b1]);
    // Melbourne dates: 11 May 00:00 UTC is 11 May 10:00 in Melbourne.
    expect((await list(admin, 'ts=2024-05-11&te=2024-05-11')).items.map((i) => i.id)).toEqual([ids.a2]);
    expect((await list(agentUserA, '')).items.map((i) => i.id)).toEqual([ids.a2, ids.a1]);
    expect((await list(clientUserX, '')).total).toBe(2);
    expect((await list(admin, 'sort=grant_total&order=ASC')).items.map((i) => i.id)).toEqual([ids.b1, ids.a1, ids.a2]);
    expect((await list(admin, 'sort=licensePlate&order=desc')).items.map((i) => i.licensePlate)).toEqual(['LB1', 'LA22', 'LA1']);
  });

  it('refuses bad filters with a field map', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/quote/quotes?location_state=XX&sort=password' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({
      location_state: 'The selected location state is invalid',
      sort: 'The selected sort is invalid',
    });
  });

  it('exports the filtered quotes as CSV and XLSX through a signed link', async () => {
    await sql`update quotes set paint = 1.5, tyre = 2.5, status = 'partially_approved', revision = 1 where id = ${ids.a2}`.execute(t.db);
    const csv = await t.as(agentUserA, { method: 'GET', url: '/api/quote/quotes/export-quote-report' });
    expect(csv.statusCode, csv.body).toBe(200);
    const url = csv.json().data.url as string;
    expect(url).toMatch(/^\/api\/user\/files\/[0-9a-f]{32}\.csv\?expires=\d+&uid=\d+&sig=[\w-]{43}$/);
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'ID,Date/Time,Registration,Type,Agent,Client,State,Currency,PDR,Conventional,Replace / Paint,Push to Paint,Scratch / Paint,Tyres,Products,Sub Total,GST %,GST,Grand Total,Status,Revision',
    );
    expect(lines).toHaveLength(3);
    // The list's status and supplement too.
    expect(lines[1]).toBe(
      `${ids.a2},11-05-2024 10:00 AM,LA22,Arch,Quote agent A,Quote client X,NSW,$,0,0,0,0,1.5,2.5,0,0,10,0,4,Partially approved,S1`,
    );
    // Another user cannot use it.
    expect((await t.as(agentUserB, { method: 'GET', url: url.slice(0, url.indexOf('?')) })).statusCode).toBe(403);

    // Asked from the Japanese screen, it is written in Japanese; an unknown language is refused.
    const ja = await t.as(agentUserA, { method: 'GET', url: '/api/quote/quotes/export-quote-report?lang=ja' });
    const jaLines = (await t.app.inject({ method: 'GET', url: ja.json().data.url })).body.replace(/^\uFEFF/, '').split('\r\n');
    expect(jaLines[0]).toBe(
      'ID,日時,登録番号,種別,エージェント,クライアント,州,通貨,PDR,板金,交換 / 塗装,プッシュ・トゥ・ペイント,傷 / 塗装,タイヤ,商品,小計,GST %,GST,総合計,ステータス,版',
    );
    expect(jaLines[1]).toBe(
      `${ids.a2},2024-05-11 午前 10:00,LA22,アーチ,Quote agent A,Quote client X,NSW,$,0,0,0,0,1.5,2.5,0,0,10,0,4,一部承認,S1`,
    );
    const fr = await t.as(agentUserA, { method: 'GET', url: '/api/quote/quotes/export-quote-report?lang=fr' });
    expect([fr.statusCode, fr.json().error]).toEqual([422, { lang: 'Lang must be en or ja' }]);

    const xlsx = await t.as(admin, { method: 'GET', url: `/api/quote/quotes/export-quote-report?format=xlsx&agent_id=${agentB.id}` });
    const zip = unzipSync(new Uint8Array((await t.app.inject({ method: 'GET', url: xlsx.json().data.url })).rawPayload));
    const strings = strFromU8(zip['xl/sharedStrings.xml']);
    expect(strings).toContain('LB1');
    expect(strings).not.toContain('LA22');

    // Removed by the sweep a day later.
    const before = await count('quote_exports');
    expect(before).toBeGreaterThanOrEqual(2);
    expect(await removeExpiredReports('quote_exports', t.db, storageOf(t.app), undefined, new Date(Date.now() + 25 * 3600_000))).toBe(
      before,
    );
    expect(await count('quote_exports')).toBe(0);
  });
});

describe('POST scans/search', () => {
  it('finds scans the user may see by id or text', async () => {
    const scanId = await damagedScan({ license_plate: 'SRCH42' });
    const byId = await t.as(agentUserA, { method: 'POST', url: '/api/scan/scans/search', payload: { scan_id: scanId } });
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json().data.map((s: { id: number }) => s.id)).toEqual([scanId]);
    const byText = await t.as(agentUserA, { method: 'POST', url: '/api/scan/scans/search', payload: { q: 'srch4' } });
    expect(byText.json().data.map((s: { id: number }) => s.id)).toEqual([scanId]);
    const foreign = await t.as(agentUserB, { method: 'POST', url: '/api/scan/scans/search', payload: { scan_id: scanId } });
    expect(foreign.json().data).toEqual([]);
  });
});

describe('permission', () => {
  it('needs scan', async () => {
    const token = await t.login((await t.build.user({ permissions: ['client'] })).email);
    expect((await t.as(token, { method: 'GET', url: '/api/quote/quotes' })).statusCode).toBe(403);
    expect((await save(token, body(await damagedScan()))).statusCode).toBe(403);
    void product2;
  });
});
