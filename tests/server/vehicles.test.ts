import fs from 'node:fs';
import { sql } from 'kysely';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedScans } from '../../server/seed/scans-demo';
import { createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
let agent: { id: number };
let clientA: { id: number };
let clientB: { id: number };
let device: number;
let key: string;
let serial = 0;

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();

/** Announces a scan through the device API and returns its id. */
async function ingest(body: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/scan/ingest/scans',
    headers: { authorization: `Bearer ${key}` },
    payload: { scan_id: `veh-${++serial}`, device_id: device, type: 'arch', ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as number;
}

async function results(id: number, measures: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/scan/ingest/scans/${id}/results`,
    headers: { authorization: `Bearer ${key}` },
    payload: { measures: { dents: {}, scratchs: {}, ...measures } },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function moveToClient(scanId: number, clientId: number) {
  const res = await t.as(admin, { method: 'PUT', url: `/api/scan/scans/${scanId}`, payload: { client_id: clientId } });
  expect(res.statusCode, res.body).toBe(200);
}

const vehicleOf = async (scanId: number) =>
  (await t.db.selectFrom('scans').select('vehicle_id').where('id', '=', scanId).executeTakeFirstOrThrow()).vehicle_id;

async function comparison(scanId: number, token = admin) {
  const res = await t.as(token, { method: 'GET', url: `/api/scan/scans/${scanId}/comparison` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { summary: string; has_new_damage: boolean; previous_scan_id: number } | null;
}

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  clientA = await t.build.client({ name: 'Vehicle client A' });
  clientB = await t.build.client({ name: 'Vehicle client B' });
  agent = await t.build.agent({ name: 'Vehicle agent', default_client_id: clientA.id });
  const site = await t.build.location({ name: 'Vehicle site', state: 'VIC', agent_id: agent.id });
  device = (await t.build.device({ location_id: site.id, agent_id: agent.id, default_client_id: clientA.id, serial: '5200000001' })).id;
  const user = await t.build.user({ roles: ['Agent'], agents: [agent.id] });
  const res = await t.as(admin, { method: 'GET', url: `/api/user/users/${user.id}/apikey` });
  key = res.json().data.token as string;
});

describe('the backfill of the scans stored before vehicles', () => {
  it('makes one vehicle per registration and state, named by its latest scan, seen from its first scan to its last', async () => {
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    const sqlText = fs.readFileSync('server/db/migrations/025_vehicles.sql', 'utf8');
    const backfill = sqlText.slice(sqlText.indexOf('-- The scans already stored'));
    try {
      await client.query('begin');
      await client.query('update scans set vehicle_id = null');
      await client.query('delete from vehicles');
      const scan = async (plate: string | null, state: string, at: string, make: string) =>
        (
          await client.query<{ id: string }>(
            `insert into scans (scan_id, agent_id, type, license_plate, location_state, scanned_at, make)
             values ($1, $2, 'arch', $3, $4, $5, $6) returning id`,
            [`bf-${++serial}`, agent.id, plate, state, at, make],
          )
        ).rows[0].id;
      const a1 = await scan('BF1-23', 'VIC', day(1), 'Kia');
      const a2 = await scan('bf 123', 'VIC', day(9), 'Mazda');
      const b = await scan('BF123', 'NSW', day(5), 'Ford');
      const none = await scan(null, 'VIC', day(5), 'Ford');
      await client.query(backfill);
      const linked = (
        await client.query<{ id: string; vehicle_id: string | null }>('select id, vehicle_id from scans where id = any($1)', [
          [a1, a2, b, none],
        ])
      ).rows;
      const of = (id: string) => linked.find((r) => r.id === id)!.vehicle_id;
      expect(of(a1)).not.toBeNull();
      expect(of(a1)).toBe(of(a2));
      expect(of(b)).not.toBe(of(a1));
      expect(of(none)).toBeNull();
      const v = (await client.query('select registration, state, make, first_seen, last_seen from vehicles where id = $1', [of(a1)]))
        .rows[0];
      expect(v).toEqual({ registration: 'BF123', state: 'VIC', make: 'Mazda', first_seen: new Date(day(1)), last_seen: new Date(day(9)) });
    } finally {
      await client.query('rollback');
      await client.end();
    }
  });
});

describe('linking scans to vehicles', () => {
  it('finds the vehicle by registration and state, lets a VIN match win, and starts a new vehicle for a plate moved to another VIN', async () => {
    const first = await ingest({ licensePlate: 'LNK 001', timestamp: day(10) });
    const v1 = await vehicleOf(first);
    expect(v1).not.toBeNull();
    expect(await vehicleOf(await ingest({ licensePlate: 'lnk-001', timestamp: day(11) }))).toBe(v1);
    // Another state is another registration.
    expect(await vehicleOf(await ingest({ licensePlate: 'LNK001', location_state: 'NSW', timestamp: day(11) }))).not.toBe(v1);
    // A VIN new to us takes over the registration's vehicle while that one has none.
    expect(await vehicleOf(await ingest({ licensePlate: 'LNK001', vin: 'vin-0001', timestamp: day(12) }))).toBe(v1);
    expect((await t.db.selectFrom('vehicles').select('vin').where('id', '=', v1).executeTakeFirstOrThrow()).vin).toBe('VIN0001');
    // The plate on another VIN: a new vehicle, which carries the plate from now on.
    const moved = await vehicleOf(await ingest({ licensePlate: 'LNK001', vin: 'VIN0002', timestamp: day(13) }));
    expect(moved).not.toBe(v1);
    expect(await vehicleOf(await ingest({ licensePlate: 'LNK001', timestamp: day(14) }))).toBe(moved);
    // The VIN wins over a new plate.
    expect(await vehicleOf(await ingest({ licensePlate: 'NEW 999', vin: 'VIN0001', timestamp: day(15) }))).toBe(v1);
    const v = await t.db.selectFrom('vehicles').selectAll().where('id', '=', v1).executeTakeFirstOrThrow();
    expect(v).toMatchObject({ registration: 'NEW999', state: 'VIC', first_seen: new Date(day(10)), last_seen: new Date(day(15)) });
    // No registration and no VIN: no vehicle.
    expect(await vehicleOf(await ingest({}))).toBeNull();
  });

  it('links again when the registration is edited, and removes a vehicle left without scans', async () => {
    const id = await ingest({ licensePlate: 'EDT001', timestamp: day(20) });
    const before = (await vehicleOf(id))!;
    const other = await vehicleOf(await ingest({ licensePlate: 'EDT002', timestamp: day(21) }));
    const res = await t.as(admin, { method: 'PUT', url: `/api/scan/scans/${id}`, payload: { licensePlate: 'EDT002' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await vehicleOf(id)).toBe(other);
    expect(await t.db.selectFrom('vehicles').select('id').where('id', '=', before).executeTakeFirst()).toBeUndefined();
  });
});

describe('the comparison with the previous scan', () => {
  it('is stored when the results arrive through the device API, within the window, and recomputed on a count edit', async () => {
    const older = await ingest({ licensePlate: 'CMP001', timestamp: day(30) });
    await results(older, { dents: { left_front_door: { medium: 1 } } });
    expect(await comparison(older)).toBeNull();
    const newer = await ingest({ licensePlate: 'CMP001', timestamp: day(40) });
    await results(newer, { dents: { left_front_door: { medium: 3 } }, scratchs: { bonnet: { light: 1 } } });
    expect(await comparison(newer)).toMatchObject({
      previous_scan_id: older,
      summary: 'Bonnet +1 scratch, Left Front Door +2 medium dents',
      has_new_damage: true,
    });
    // Editing the older scan's counts recomputes the newer scan's comparison.
    const edit = await t.as(admin, {
      method: 'POST',
      url: '/api/scan/scans/arch/edit-damage-count',
      payload: { scan_id: older, car_panel: 'left_front_door', dents: { medium: 3 }, scratchs: {} },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await comparison(newer)).toMatchObject({ summary: 'Bonnet +1 scratch', has_new_damage: true });
    // Beyond the window (180 days by default) there is nothing to compare with.
    const late = await ingest({ licensePlate: 'CMP001', timestamp: day(40 + 181) });
    await results(late, { dents: { roof: { light: 1 } } });
    expect(await comparison(late)).toBeNull();
    // Another kind of scan is not compared with an arch scan.
    const tire = await ingest({ licensePlate: 'CMP001', timestamp: day(41), type: 'tire' });
    expect(await comparison(tire)).toBeNull();
  });

  it('follows the window setting', async () => {
    await t.db.updateTable('options').set({ option_value: '5' }).where('option_name', '=', 'VEHICLE_COMPARE_WINDOW_DAYS').execute();
    try {
      const a = await ingest({ licensePlate: 'WIN001', timestamp: day(50) });
      await results(a, { dents: { roof: { light: 1 } } });
      const b = await ingest({ licensePlate: 'WIN001', timestamp: day(56) });
      await results(b, { dents: { roof: { light: 2 } } });
      expect(await comparison(b)).toBeNull();
    } finally {
      await t.db.updateTable('options').set({ option_value: '180' }).where('option_name', '=', 'VEHICLE_COMPARE_WINDOW_DAYS').execute();
    }
  });
});

describe('new damage in the scan list and for webhooks', () => {
  it('filters the list to scans with new damage (or without), with each row’s count, and refuses another value', async () => {
    const a = await ingest({ licensePlate: 'LST001', timestamp: day(70) });
    await results(a, { dents: { roof: { light: 1 } } });
    const b = await ingest({ licensePlate: 'LST001', timestamp: day(71) });
    await results(b, { dents: { roof: { light: 2, medium: 1 } }, scratchs: { bonnet: { light: 2 } } });
    const c = await ingest({ licensePlate: 'LST001', timestamp: day(72) });
    await results(c, { dents: { roof: { light: 2, medium: 1 } }, scratchs: { bonnet: { light: 2 } } });
    const page = async (query: string) => {
      const res = await t.as(admin, { method: 'GET', url: `/api/scan/scans?q=LST001&per_page=100${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as { id: number; new_damage: number }[]).map((r) => [r.id, r.new_damage]);
    };
    expect(await page('&new_damage=true')).toEqual([[b, 4]]);
    expect(await page('&new_damage=FALSE')).toEqual([
      [c, 0],
      [a, 0],
    ]);
    expect(await page('')).toHaveLength(3);
    // The export carries the count as its last column, as the list shows it.
    const made = await t.as(admin, { method: 'GET', url: '/api/scan/scans/export-scan-report?q=LST001' });
    expect(made.statusCode, made.body).toBe(200);
    const csv = (await t.app.inject({ method: 'GET', url: made.json().data.url as string })).body.slice(1).split('\r\n').filter(Boolean);
    expect(csv[0]).toMatch(/,Dents,Scratches,New Damage$/);
    expect(csv.slice(1).map((line) => [Number(line.split(',')[0]), Number(line.split(',').at(-1))])).toEqual([
      [c, 0],
      [b, 4],
      [a, 0],
    ]);
    const bad = await t.as(admin, { method: 'GET', url: '/api/scan/scans?new_damage=yes' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toEqual({ new_damage: expect.stringMatching(/new damage is invalid/) });
  });

  it('counts the gains of the comparisons stored before the count existed (migration 030)', async () => {
    const a = await ingest({ licensePlate: 'MIG028', timestamp: day(75) });
    await results(a, { dents: { roof: { light: 1 } }, scratchs: { bonnet: { light: 2 } } });
    const b = await ingest({ licensePlate: 'MIG028', timestamp: day(76) });
    await results(b, { dents: { roof: { light: 3, medium: 1 } }, scratchs: { bonnet: { light: 1 } } });
    const migration = fs.readFileSync('server/db/migrations/030_scan_new_damage.sql', 'utf8');
    const backfill = migration.slice(migration.indexOf('update scan_comparisons'), migration.indexOf('-- The list filtered'));
    await sql`update scan_comparisons set new_damage_count = 0 where scan_id = ${b}`.execute(t.db);
    await sql.raw(backfill).execute(t.db);
    const row = await sql<{ new_damage_count: number }>`select new_damage_count from scan_comparisons where scan_id = ${b}`.execute(t.db);
    // +2 light dents, +1 medium dent; the scratch that went is not a gain.
    expect(row.rows[0].new_damage_count).toBe(3);
  });

  it('queues scan.new_damage with the differences in the transaction that stores the comparison, once per change', async () => {
    const hook = await t.build.webhook({ agent_id: agent.id, events: ['scan.new_damage'] });
    const deliveries = async () =>
      (
        await sql<{ payload: { type: string; data: Record<string, unknown> } }>`
          select payload from webhook_deliveries where webhook_id = ${hook.id} order by id`.execute(t.db)
      ).rows.map((d) => d.payload);
    const first = await ingest({ licensePlate: 'HOOK01', timestamp: day(80) });
    await results(first, { dents: { left_front_door: { medium: 1 } } });
    const second = await ingest({ licensePlate: 'HOOK01', timestamp: day(81) });
    await results(second, { dents: { left_front_door: { medium: 1 } } });
    expect(await deliveries()).toEqual([]);
    await results(second, { dents: { left_front_door: { medium: 3 } } });
    const [sent] = await deliveries();
    expect(sent).toMatchObject({
      type: 'scan.new_damage',
      data: {
        scan: { id: second, licensePlate: 'HOOK01', new_damage: 2 },
        previous_scan_id: first,
        summary: 'Left Front Door +2 medium dents',
        new_damage: 2,
        differences: [
          {
            carPanel: 'left_front_door',
            type: 'dents',
            change: 'worsened',
            levels: [{ level: 'medium', before: 1, after: 3, delta: 2, change: 'worsened' }],
          },
        ],
      },
    });
    // The same counts again: the stored comparison does not change, nothing more is sent.
    await results(second, { dents: { left_front_door: { medium: 3 } } });
    expect(await deliveries()).toHaveLength(1);
    // Resting on another agent's scan, the comparison is not sent: those counts are that agent's.
    const stranger = await t.build.agent({ name: 'Vehicle stranger' });
    await t.db.updateTable('scans').set({ agent_id: stranger.id }).where('id', '=', first).execute();
    await results(second, { dents: { left_front_door: { medium: 4 } } });
    expect(await deliveries()).toHaveLength(1);
  });
});

describe('vehicles through the scans a user may see', () => {
  it('lists and shows a vehicle only through the caller’s scans, its timeline as far as those scans', async () => {
    const seen = await ingest({ licensePlate: 'SCP001', timestamp: day(60) });
    const hidden = await ingest({ licensePlate: 'SCP001', timestamp: day(61) });
    const onlyB = await ingest({ licensePlate: 'SCP002', timestamp: day(61) });
    // The agent's device serves client A; two of the scans are moved to client B.
    await t.db.updateTable('scans').set({ client_id: clientB.id }).where('id', 'in', [hidden, onlyB]).execute();
    const vehicle = (await vehicleOf(seen))!;
    expect(await vehicleOf(hidden)).toBe(vehicle);
    const clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [clientA.id] })).email);

    const list = await t.as(clientUser, { method: 'GET', url: '/api/scan/vehicles?q=scp-0&sort=registration&order=asc' });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: vehicle, registration: 'SCP001' }] });
    const all = await t.as(admin, { method: 'GET', url: '/api/scan/vehicles?q=SCP0&sort=registration&order=asc' });
    expect(all.json().items.map((v: { registration: string }) => v.registration)).toEqual(['SCP001', 'SCP002']);

    const page = await t.as(clientUser, { method: 'GET', url: `/api/scan/vehicles/${vehicle}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.scans.map((s: { id: number }) => s.id)).toEqual([seen]);
    expect((await t.as(admin, { method: 'GET', url: `/api/scan/vehicles/${vehicle}` })).json().data.scans).toHaveLength(2);
    const foreign = await t.as(clientUser, { method: 'GET', url: `/api/scan/vehicles/${await vehicleOf(onlyB)}` });
    expect(foreign.statusCode).toBe(404);
    expect((await t.as(clientUser, { method: 'GET', url: `/api/scan/scans/${hidden}/comparison` })).statusCode).toBe(404);
  });

  it('names the vehicle and dates it from the caller’s scans alone: another client’s later scan shows nowhere', async () => {
    const seen = await ingest({ licensePlate: 'SCP010', timestamp: day(70), make: 'Subaru', model: 'Forester' });
    const hidden = await ingest({ licensePlate: 'SCP010', timestamp: day(72), make: 'Kia', model: 'Cerato', vin: 'KNAFX411BA5123456' });
    await t.db.updateTable('scans').set({ client_id: clientB.id }).where('id', '=', hidden).execute();
    const vehicle = (await vehicleOf(seen))!;
    expect(await vehicleOf(hidden)).toBe(vehicle);
    const clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [clientA.id] })).email);

    const mine = {
      id: vehicle,
      registration: 'SCP010',
      make: 'Subaru',
      model: 'Forester',
      vin: null,
      first_seen: day(70),
      last_seen: day(70),
    };
    const page = await t.as(clientUser, { method: 'GET', url: `/api/scan/vehicles/${vehicle}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data).toMatchObject(mine);
    const list = await t.as(clientUser, { method: 'GET', url: '/api/scan/vehicles?q=SCP010&sort=last_seen&order=desc' });
    expect(list.json()).toMatchObject({ total: 1, items: [mine] });
    // The Super Admin sees the vehicle as all its scans tell it.
    const all = await t.as(admin, { method: 'GET', url: `/api/scan/vehicles/${vehicle}` });
    expect(all.json().data).toMatchObject({
      make: 'Kia',
      model: 'Cerato',
      vin: 'KNAFX411BA5123456',
      first_seen: day(70),
      last_seen: day(72),
    });
  });

  it('gives each quote on the timeline its total and its currency, so a yen quote is not shown in dollars', async () => {
    const scan = await ingest({ licensePlate: 'CUR001', timestamp: day(64) });
    const quote = await t.build.quote(scan, { grant_total: 19369.9 });
    await sql`update quotes set currency = '¥' where id = ${quote.id}`.execute(t.db);
    const page = await t.as(admin, { method: 'GET', url: `/api/scan/vehicles/${await vehicleOf(scan)}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.scans[0].quotes).toMatchObject([{ id: quote.id, grant_total: 19369.9, currency: '¥' }]);
  });

  it('hides a comparison resting on a scan the caller may not see, and names the vehicle on the scan', async () => {
    const other = await ingest({ licensePlate: 'SCP003', timestamp: day(62) });
    await results(other, { dents: { roof: { light: 1 } } });
    const mine = await ingest({ licensePlate: 'SCP003', timestamp: day(63) });
    await results(mine, { dents: { roof: { light: 3 } } });
    await moveToClient(other, clientB.id);
    const clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [clientA.id] })).email);
    expect(await comparison(mine)).toMatchObject({ previous_scan_id: other, has_new_damage: true });
    expect(await comparison(mine, clientUser)).toBeNull();
    const vehicle = (await vehicleOf(mine))!;
    const page = (await t.as(clientUser, { method: 'GET', url: `/api/scan/vehicles/${vehicle}` })).json().data;
    expect(page.scans).toMatchObject([{ id: mine, summary: null, has_new_damage: null, previous_scan_id: null }]);
    const scan = await t.as(clientUser, { method: 'GET', url: `/api/scan/scans/${mine}` });
    expect(scan.json().data.vehicle_id).toBe(vehicle);
  });

  it('compares a scan, for a Client user, only with their own clients’ scans of the vehicle, everywhere a comparison is read', async () => {
    const ownEarlier = await ingest({ licensePlate: 'LEAK01', timestamp: day(90) });
    await results(ownEarlier, { dents: { roof: { light: 6 } } });
    const foreign = await ingest({ licensePlate: 'LEAK01', timestamp: day(91) });
    await results(foreign, { dents: { roof: { light: 1 } } });
    const mine = await ingest({ licensePlate: 'LEAK01', timestamp: day(92) });
    await results(mine, { dents: { roof: { light: 6 } } });
    const foreignOnly = await ingest({ licensePlate: 'LEAK02', timestamp: day(90) });
    await results(foreignOnly, { dents: { roof: { light: 1 } } });
    const mineAfter = await ingest({ licensePlate: 'LEAK02', timestamp: day(91) });
    await results(mineAfter, { dents: { roof: { light: 4 } } });
    // The device serves client A; client B's scans are moved there through the API, as a user would.
    for (const id of [ownEarlier, mine, mineAfter]) await moveToClient(id, clientB.id);
    const userB = await t.login((await t.build.user({ roles: ['Client'], clients: [clientB.id] })).email);

    // The unrestricted view compares with the vehicle's previous scan, whoever's it is.
    expect(await comparison(mine)).toMatchObject({ previous_scan_id: foreign, has_new_damage: true });
    expect(await comparison(mineAfter)).toMatchObject({ previous_scan_id: foreignOnly, has_new_damage: true });

    const rows = async (token: string, query: string) => {
      const res = await t.as(token, { method: 'GET', url: `/api/scan/scans?q=LEAK0&per_page=100${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as { id: number; new_damage: number }[]).map((r) => [r.id, r.new_damage]);
    };
    expect(await rows(admin, '&new_damage=true')).toEqual([
      [mine, 5],
      [mineAfter, 3],
    ]);
    expect(await rows(userB, '&new_damage=true')).toEqual([]);
    expect(await rows(userB, '&new_damage=false')).toEqual([
      [mine, 0],
      [mineAfter, 0],
      [ownEarlier, 0],
    ]);
    for (const id of [mine, mineAfter]) {
      const scan = await t.as(userB, { method: 'GET', url: `/api/scan/scans/${id}` });
      expect(scan.statusCode, scan.body).toBe(200);
      expect(scan.json().data.new_damage).toBe(0);
    }

    // Client B's own earlier scan is what their comparison rests on; with none, there is no comparison at all.
    expect(await comparison(mine, userB)).toMatchObject({
      previous_scan_id: ownEarlier,
      previous_scanned_at: day(90),
      has_new_damage: false,
    });
    expect(await comparison(mineAfter, userB)).toBeNull();
    const page = (await t.as(userB, { method: 'GET', url: `/api/scan/vehicles/${await vehicleOf(mine)}` })).json().data;
    expect(page.scans).toMatchObject([
      { id: ownEarlier, previous_scan_id: null },
      { id: mine, previous_scan_id: ownEarlier, has_new_damage: false, summary: '' },
    ]);
    expect(JSON.stringify(page)).not.toContain(`"id":${foreign},`);
    const other = (await t.as(userB, { method: 'GET', url: `/api/scan/vehicles/${await vehicleOf(mineAfter)}` })).json().data;
    expect(other.scans).toMatchObject([{ id: mineAfter, previous_scan_id: null, has_new_damage: null, summary: null, differences: null }]);

    const evaluate = async (token: string, id: number) =>
      (await t.as(token, { method: 'GET', url: `/api/scan/scans/${id}/evaluate?new_damage_only=1` })).json().data;
    expect(await evaluate(admin, mine)).toMatchObject({ new_damage_only: true, comparison: { previous_scan_id: foreign } });
    const priced = await evaluate(userB, mine);
    expect(priced).toMatchObject({ new_damage_only: true, comparison: { previous_scan_id: ownEarlier } });
    expect(JSON.stringify(priced.measures)).not.toMatch(/[1-9]/);
    expect(await evaluate(userB, mineAfter)).toMatchObject({ new_damage_only: false, comparison: null, pre_existing: [] });
  });

  it('lists a Client user’s scans with new damage over their own earlier scan, once the scans are moved to their client', async () => {
    const earlier = await ingest({ licensePlate: 'LEAK03', timestamp: day(93) });
    await results(earlier, { dents: { roof: { light: 1 } } });
    const later = await ingest({ licensePlate: 'LEAK03', timestamp: day(94) });
    await results(later, { dents: { roof: { light: 3 } } });
    const userB = await t.login((await t.build.user({ roles: ['Client'], clients: [clientB.id] })).email);
    const rows = async () =>
      (await t.as(userB, { method: 'GET', url: '/api/scan/scans?q=LEAK03&new_damage=true' }))
        .json()
        .items.map((r: { id: number; new_damage: number }) => [r.id, r.new_damage]);
    expect(await rows()).toEqual([]);
    for (const id of [earlier, later]) await moveToClient(id, clientB.id);
    expect(await rows()).toEqual([[later, 2]]);
  });

  it('gives each wheel its lowest depths over time and the wear projection', async () => {
    const ids: number[] = [];
    for (const [n, depth] of [
      [100, 8],
      [130, 7],
      [160, 6],
    ] as const) {
      const id = await ingest({ licensePlate: 'TYR001', timestamp: day(n), type: 'tire' });
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/scan/ingest/scans/${id}/results`,
        headers: { authorization: `Bearer ${key}` },
        payload: {
          tyres: [
            { row: 1, direction: 'L', position: 'O', depths: [depth + 1, depth, depth + 0.5], eatenTire: 'NONE', pressureTire: 'NONE' },
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(id);
    }
    const res = await t.as(admin, { method: 'GET', url: `/api/scan/vehicles/${await vehicleOf(ids[0])}` });
    expect(res.statusCode, res.body).toBe(200);
    const [wheel] = res.json().data.tyres;
    expect(wheel.wheel).toBe('1L');
    expect(wheel.readings.map((r: { depthMm: number }) => r.depthMm)).toEqual([8, 7, 6]);
    // 1 mm per 30 days from 6 mm on day 160: 1.5 mm 135 days later.
    expect(wheel.projection).toMatchObject({ unit: 'per30days', rateMm: 1, projectedAt: day(295).slice(0, 10) });
  });
});

describe('the demo data', () => {
  it('has a vehicle scanned twice whose second scan shows new damage, linked by the same code as ingestion', async () => {
    const before = new Set((await t.db.selectFrom('scans').select('id').execute()).map((s) => s.id));
    await seedScans(t.db, t.app.storage, { count: 30, seed: 11 });
    const seeded = (await t.db.selectFrom('scans').select(['id', 'vehicle_id']).execute()).filter((s) => !before.has(s.id));
    expect(seeded).toHaveLength(31);
    expect(seeded.every((s) => s.vehicle_id !== null)).toBe(true);
    const revisit = await sql<{ scan_id: number; previous_scan_id: number; summary: string; new_damage_count: number }>`
      select c.scan_id, c.previous_scan_id, c.summary, c.new_damage_count from scan_comparisons c
      join scans s on s.id = c.scan_id where s.scan_id like '%-revisit'`.execute(t.db);
    expect(revisit.rows).toHaveLength(1);
    expect(revisit.rows[0].summary).toMatch(/\+2 medium dents/);
    expect(revisit.rows[0].new_damage_count).toBeGreaterThanOrEqual(2);
    expect(await vehicleOf(revisit.rows[0].scan_id)).toBe(await vehicleOf(revisit.rows[0].previous_scan_id));
  });
});
