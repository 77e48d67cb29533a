import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper';
import { pdfLines } from './pdf-text';

let t: TestContext;
let admin: string;
let otherClientUser: string;
let client: { id: number };
let device: number;
let key: string;
let serial = 0;

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();

/** A tyre scan of the registration through the device API, its front left wheel at `depth` mm at its lowest. */
async function tyreScan(plate: string, n: number, depth: number) {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/scan/ingest/scans',
    headers: { authorization: `Bearer ${key}` },
    payload: { scan_id: `wear-${++serial}`, device_id: device, type: 'tire', licensePlate: plate, timestamp: day(n) },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data.id as number;
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/scan/ingest/scans/${id}/results`,
    headers: { authorization: `Bearer ${key}` },
    payload: {
      tyres: [{ row: 1, direction: 'L', position: 'O', depths: [depth + 1, depth, depth + 0.5], eatenTire: 'NONE', pressureTire: 'NONE' }],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  client = await t.build.client({ name: 'Wear client' });
  const other = await t.build.client({ name: 'Wear other client' });
  const agent = await t.build.agent({ name: 'Wear agent', default_client_id: client.id });
  const site = await t.build.location({ name: 'Wear site', state: 'VIC', agent_id: agent.id });
  device = (await t.build.device({ location_id: site.id, agent_id: agent.id, default_client_id: client.id, serial: '5400000001' })).id;
  const user = await t.build.user({ roles: ['Agent'], agents: [agent.id] });
  key = (await t.as(admin, { method: 'GET', url: `/api/user/users/${user.id}/apikey` })).json().data.token as string;
  otherClientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [other.id] })).email);
});

describe('GET scans/{id}/tyre-wear', () => {
  it('gives each wheel its lowest depth at every scan of the vehicle up to this one, the rate and the projected day', async () => {
    await tyreScan('WEAR01', 100, 8);
    const middle = await tyreScan('WEAR01', 130, 7);
    const last = await tyreScan('WEAR01', 160, 6);
    const res = await t.as(admin, { method: 'GET', url: `/api/scan/scans/${last}/tyre-wear` });
    expect(res.statusCode, res.body).toBe(200);
    const { legal_min_mm, wheels } = res.json().data;
    expect(legal_min_mm).toBe(1.5);
    expect(wheels).toHaveLength(1);
    expect(wheels[0].readings.map((r: { at: string; depthMm: number }) => [r.at, r.depthMm])).toEqual([
      [day(100), 8],
      [day(130), 7],
      [day(160), 6],
    ]);
    // 1 mm per 30 days from 6 mm on day 160: 1.5 mm 135 days later.
    expect(wheels[0].projection).toMatchObject({ unit: 'per30days', rateMm: 1, projectedAt: day(295).slice(0, 10) });
    // The middle scan sees only the scans up to it.
    const before = (await t.as(admin, { method: 'GET', url: `/api/scan/scans/${middle}/tyre-wear` })).json().data;
    expect(before.wheels[0].readings.map((r: { depthMm: number }) => r.depthMm)).toEqual([8, 7]);
    // The legal minimum is the application setting.
    await sql`insert into options (option_name, option_value, field_type) values ('TYRE_LEGAL_MIN_MM', '3', 'text')
      on conflict (option_name) do update set option_value = '3'`.execute(t.db);
    try {
      const raised = (await t.as(admin, { method: 'GET', url: `/api/scan/scans/${last}/tyre-wear` })).json().data;
      expect(raised).toMatchObject({ legal_min_mm: 3, wheels: [{ projection: { projectedAt: day(250).slice(0, 10) } }] });
    } finally {
      await sql`delete from options where option_name = 'TYRE_LEGAL_MIN_MM'`.execute(t.db);
    }
    // Out of scope: the model's 404.
    expect((await t.as(otherClientUser, { method: 'GET', url: `/api/scan/scans/${last}/tyre-wear` })).statusCode).toBe(404);
  });

  it('has no projection from one reading', async () => {
    const only = await tyreScan('WEAR02', 10, 5);
    const { wheels } = (await t.as(admin, { method: 'GET', url: `/api/scan/scans/${only}/tyre-wear` })).json().data;
    expect(wheels).toEqual([{ wheel: '1L', readings: [{ at: day(10), depthMm: 5, odometerKm: null }], projection: null }]);
  });
});

describe('a quote’s Recheck Next Visit line', () => {
  it('carries the wheel’s projected day, and the PDF prints it', async () => {
    await tyreScan('WEAR03', 100, 8);
    await tyreScan('WEAR03', 130, 7);
    const last = await tyreScan('WEAR03', 160, 6);
    const choice = await t.as(admin, {
      method: 'PUT',
      url: `/api/scan/scans/${last}/tyre-repairs`,
      payload: { row: 1, direction: 'L', repair_type: 'recheck' },
    });
    expect(choice.statusCode, choice.body).toBe(200);
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/quote/quotes',
      payload: { scan_id: last, client_id: client.id, type: 'tire', items: {}, products: [], parts: [] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const quote = res.json().data;
    expect(quote.tyres).toMatchObject([
      { row: 1, direction: 'L', repair_type: 'recheck', lineTotal: 0, projected_at: day(295).slice(0, 10) },
    ]);
    const pdf = await t.as(admin, { method: 'GET', url: quote.pdf_url });
    // The cell wraps: the line and the next one hold the words.
    const text = pdfLines(pdf.rawPayload).join(' ').replace(/\s+/g, ' ');
    expect(text).toMatch(/FRONT LEFT Recheck Next Visit \(legal minimum estimated around \$0\.00 \$0\.00 23-10-2026\)/);
  });
});
