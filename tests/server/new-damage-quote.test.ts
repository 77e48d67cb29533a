import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { newDamageMeasures } from '../../src/domain/new-damage';
import { initialDentChoice, initialScratchRepair, panelCategory, priceQuote } from '../../src/domain/pricing';
import { compareDamage } from '../../src/domain/vehicle-history';
import { createTestContext, DENT_PRICE_ROW, type TestContext } from './helper';
import { pdfLines } from './pdf-text';

let t: TestContext;
let admin: string;
let clientUser: string;
let client: { id: number };
let device: number;
let key: string;
let part: number;
const panels: Record<string, number> = {};
let serial = 0;

const day = (n: number) => new Date(Date.UTC(2026, 2, 1) + n * 86_400_000).toISOString();
const SCRATCH_ROW = { spot: 50, paint: 120, conventional: 70 };

/** Announces a scan through the device API with its counts and returns its id. */
async function ingested(plate: string, at: string, measures: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/scan/ingest/scans',
    headers: { authorization: `Bearer ${key}` },
    payload: { scan_id: `ndq-${++serial}`, device_id: device, type: 'arch', licensePlate: plate, timestamp: at },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.id as number;
  const put = await t.app.inject({
    method: 'PUT',
    url: `/api/scan/ingest/scans/${id}/results`,
    headers: { authorization: `Bearer ${key}` },
    payload: { measures: { dents: {}, scratchs: {}, ...measures } },
  });
  expect(put.statusCode, put.body).toBe(200);
  return id;
}

const before = { dents: { bonnet: { light: 2 }, roof: { medium: 1 } }, scratchs: { boot: { light: 1 } } };
const after = { dents: { bonnet: { light: 2 }, roof: { medium: 3, heavy: 1 } }, scratchs: { boot: { light: 1 }, door_lf: { light: 1 } } };

/** The engine's figure for the differences, with every panel at its default choice (pdr at its category, spot). */
function engineFigure() {
  const gains = newDamageMeasures(compareDamage({ ...before }, { ...after }).panels);
  return priceQuote({
    client: { prices: { dent: { [part]: DENT_PRICE_ROW }, scratch: { [part]: SCRATCH_ROW } } },
    panels: Object.entries(panels).map(([carPanel, id]) => ({
      panel_id: id,
      part_id: part,
      type: 'D' as const,
      hasLargeVariant: false,
      dent: initialDentChoice(gains.dents[carPanel] ? panelCategory(gains.dents[carPanel], { method: 'T', threshold: 1 }) : null),
      scratch: initialScratchRepair(gains.damage_count.scratchs[carPanel] ?? 0),
    })),
    metallic: 0,
    pearl: 0,
    aluminium: 0,
    vehicle_type: 'D',
    products: [],
    gst_percent: 10,
  });
}

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  client = await t.build.client({ name: 'New damage client' });
  await sql`update clients set sc_threshold = 1 where id = ${client.id}`.execute(t.db);
  const agent = await t.build.agent({ name: 'New damage agent', default_client_id: client.id });
  const site = await t.build.location({ name: 'New damage site', state: 'VIC', agent_id: agent.id });
  device = (await t.build.device({ location_id: site.id, agent_id: agent.id, default_client_id: client.id, serial: '5300000001' })).id;
  const user = await t.build.user({ roles: ['Agent'], agents: [agent.id] });
  key = (await t.as(admin, { method: 'GET', url: `/api/user/users/${user.id}/apikey` })).json().data.token as string;
  clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [client.id] })).email);
  part = (await t.build.part({ name: 'New damage part' })).id;
  await t.db
    .insertInto('client_dent_prices')
    .values({ client_id: client.id, part_id: part, ...DENT_PRICE_ROW })
    .execute();
  await t.db
    .insertInto('client_scratch_prices')
    .values({ client_id: client.id, part_id: part, ...SCRATCH_ROW })
    .execute();
  const group = (await t.build.panelGroup({ name: 'New damage group' })).id;
  for (const carPanel of ['bonnet', 'roof', 'boot', 'door_lf'])
    panels[carPanel] = (
      await t.db
        .insertInto('panels')
        .values({ panel_group_id: group, name: carPanel, label: carPanel.toUpperCase(), position: 1, car_panel: carPanel, part_id: part })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
});

/** The quote body the screen sends: each panel at the default choice the evaluation's categories give it. */
async function screenBody(token: string, scanId: number, newDamageOnly: boolean) {
  const res = await t.as(token, { method: 'GET', url: `/api/scan/scans/${scanId}/evaluate${newDamageOnly ? '?new_damage_only=1' : ''}` });
  expect(res.statusCode, res.body).toBe(200);
  const evaluation = res.json().data;
  const items: Record<string, unknown> = {};
  for (const p of evaluation.panels as { id: number; car_panel: string; thresholdCategory: string | null }[])
    if (Object.values(panels).includes(p.id))
      items[p.id] = p.thresholdCategory ? { repair_type: 'pdr', category: p.thresholdCategory } : { repair_type: null };
  return { evaluation, body: { scan_id: scanId, client_id: client.id, type: 'arch', items, products: [], parts: [], vehicle_type: 'D' } };
}

describe('"Price only the new damage"', () => {
  it('stores a total equal to the engine’s figure for the differences, from the stored comparison, whatever the browser sends', async () => {
    await ingested('NDQ001', day(1), before);
    const scanId = await ingested('NDQ001', day(30), after);
    const { evaluation, body } = await screenBody(admin, scanId, true);
    expect(evaluation.comparison).toMatchObject({ compared_with: day(1) });
    expect(evaluation.new_damage_only).toBe(true);
    expect(evaluation.pre_existing).toEqual(['bonnet', 'boot']);
    // The roof gained damage and had some: priced for the gain, and said to be partly pre-existing.
    expect(evaluation.partly_pre_existing).toEqual(['roof']);
    expect(evaluation.measures.damage_count).toEqual({ dents: { roof: 3 }, scratchs: { door_lf: 1 } });

    // Counts or totals a browser might send are not read: the server prices the stored comparison's gains.
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/quotes',
      payload: { ...body, new_damage_only: 1, measures: after, grant_total: 1, totals: { grant_total: 1 } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const quote = res.json().data;
    const engine = engineFigure();
    // Roof: 2 medium + 1 heavy gained → heavy (200.00); door: 1 new scratch → spot (50.00); 250.00 + 25.00 GST.
    expect(engine.totals.grand_total).toBe(27500);
    expect(Math.round(Number(quote.grant_total) * 100)).toBe(engine.totals.grand_total);
    const stored = await sql<{ grant_total: number; new_damage_only: boolean }>`
      select grant_total, new_damage_only from quotes where id = ${quote.id}`.execute(t.db);
    expect(stored.rows[0]).toEqual({ grant_total: 275, new_damage_only: true });
    expect(quote).toMatchObject({
      new_damage_only: 1,
      new_damage: { compared_with: day(1), pre_existing: ['BONNET', 'BOOT'], partly_pre_existing: ['ROOF'] },
    });

    // The PDF says what the quote prices.
    const pdf = await t.as(admin, { method: 'GET', url: quote.pdf_url });
    expect(pdf.statusCode).toBe(200);
    const lines = pdfLines(pdf.rawPayload).join('\n');
    expect(lines).toContain('New damage only (compared with the scan of 02-03-2026)');
    expect(lines).toContain('ROOF Only its new damage is priced');

    // The same scan priced whole: the bonnet's dents and the boot's scratch as well.
    const whole = await screenBody(admin, scanId, false);
    expect(whole.evaluation.new_damage_only).toBe(false);
    const again = await t.as(admin, { method: 'POST', url: '/api/quote/quotes', payload: { ...whole.body, version: quote.version } });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ grant_total: 440, new_damage_only: 0, new_damage: null });
  });

  it('is refused for a scan with no previous scan to compare with', async () => {
    const lone = await ingested('NDQ002', day(2), after);
    // A Client user reads the evaluation of their client's scan: nothing to compare with.
    expect((await screenBody(clientUser, lone, true)).evaluation).toMatchObject({
      comparison: null,
      new_damage_only: false,
      pre_existing: [],
      partly_pre_existing: [],
    });
    const { body } = await screenBody(admin, lone, true);
    const res = await t.as(admin, { method: 'POST', url: '/api/quote/quotes', payload: { ...body, new_damage_only: 1 } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toMatchObject({ new_damage_only: 'The scan has no previous scan of its vehicle to compare with' });
  });
});
