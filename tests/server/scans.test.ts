import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VALUATION_FORMAT_MESSAGE } from '../../src/domain/valuation';
import type { Broadcaster, ScanEvent } from '../../server/realtime/broadcaster';
import { type Call, createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
let agentA: { id: number; name: string };
let agentB: { id: number; name: string };
let agentC: { id: number; name: string };
let clientX: { id: number; name: string };
let clientY: { id: number; name: string };
let clientZ: { id: number; name: string };
let siteA1: { id: number; name: string };
let siteA2: { id: number; name: string };
let siteB: { id: number; name: string };
/** s1..s7 by name. */
const s: Record<string, number> = {};
const events: { kind: string; scan: ScanEvent }[] = [];

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  clientX = await t.build.client({ name: 'Xanadu Insurance' });
  clientY = await t.build.client({ name: 'Yarra Fleet' });
  clientZ = await t.build.client({ name: 'Zenith Leasing' });
  agentA = await t.build.agent({ name: 'Alpha Scanners', default_client_id: clientX.id });
  agentB = await t.build.agent({ name: 'Bravo Drive', default_client_id: clientY.id });
  agentC = await t.build.agent({ name: 'Charlie Bulk' });
  siteA1 = await t.build.location({ name: 'Alpha North', agent_id: agentA.id });
  siteA2 = await t.build.location({ name: 'Alpha South', agent_id: agentA.id });
  siteB = await t.build.location({ name: 'Bravo Bay', state: 'NSW', agent_id: agentB.id });
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
  const rows: [string, Parameters<TestContext['build']['scan']>[0]][] = [
    // Melbourne is UTC+10 in May: 2024-05-10T00:00Z is 10:00 AM on the 10th there.
    [
      's1',
      {
        agent_id: agentA.id,
        client_id: clientX.id,
        location_id: siteA1.id,
        type: 'arch',
        status: 'uploaded',
        license_plate: '1AB2CD',
        make: 'Toyota',
        model: 'Corolla',
        car_color: 'Silver',
        scanned_at: '2024-05-10T00:00:00Z',
      },
    ],
    [
      's2',
      {
        agent_id: agentA.id,
        client_id: clientX.id,
        location_id: siteA2.id,
        type: 'tire',
        status: 'ready',
        license_plate: 'XYZ123',
        make: 'Mazda',
        model: 'CX-5',
        car_color: 'Red',
        scanned_at: '2024-05-11T13:30:00Z',
      },
    ],
    [
      's3',
      {
        agent_id: agentA.id,
        client_id: clientZ.id,
        location_id: siteA1.id,
        type: 'chasis',
        status: 'metadata',
        license_plate: '1AC9ZZ',
        make: 'Ford',
        model: 'Ranger',
        car_color: 'White',
        scanned_at: '2024-05-11T14:30:00Z',
      },
    ],
    [
      's4',
      {
        agent_id: agentB.id,
        client_id: clientY.id,
        location_id: siteB.id,
        type: 'arch',
        status: 'uploaded',
        license_plate: 'NSW001',
        make: 'Tesla',
        model: 'Model 3',
        car_color: 'Blue',
        scanned_at: '2024-05-12T02:00:00Z',
      },
    ],
    [
      's5',
      {
        agent_id: agentB.id,
        client_id: clientX.id,
        location_id: siteB.id,
        type: 'arch',
        status: 'uploaded',
        license_plate: 'QLD777',
        make: 'Hyundai',
        model: 'i30',
        car_color: 'Black',
        scanned_at: '2024-05-13T02:00:00Z',
      },
    ],
    [
      's6',
      {
        agent_id: agentA.id,
        client_id: clientX.id,
        location_id: siteA1.id,
        type: 'arch',
        status: 'uploaded',
        license_plate: 'NEW001',
        make: 'Kia',
        model: 'Sportage',
        scanned_at: hoursAgo(2),
      },
    ],
    [
      's7',
      {
        agent_id: agentB.id,
        client_id: clientY.id,
        location_id: siteB.id,
        type: 'tire',
        status: 'uploaded',
        license_plate: 'OLD002',
        make: 'Isuzu',
        model: 'D-Max',
        scanned_at: hoursAgo(60),
      },
    ],
  ];
  for (const [name, row] of rows) s[name] = (await t.build.scan(row)).id;
  const holder = t.app as FastifyInstance & { broadcaster?: Broadcaster };
  const real = holder.broadcaster;
  holder.broadcaster = {
    async scanCreated(scan) {
      events.push({ kind: 'created', scan });
      await real?.scanCreated(scan);
    },
    async scanUpdated(scan) {
      events.push({ kind: 'updated', scan });
      await real?.scanUpdated(scan);
    },
    async portalScanSaved(agentId, scan) {
      await real?.portalScanSaved(agentId, scan);
    },
    revoke: async (r) => real?.revoke(r),
    close: async () => {
      await real?.close();
    },
  };
});
beforeEach(() => {
  events.length = 0;
});

const notFound = (id: string | number) => ({ error: `No query results for model [Scan] ${id}` });
const list = async (token: string, query = '', headers: Record<string, string> = {}) => {
  const res = await t.as(token, { method: 'GET', url: `/api/scan/scans?per_page=100${query ? `&${query}` : ''}`, headers });
  expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
  return res.json<{ items: { id: number }[]; total: number; total_is_estimate: boolean }>();
};
/** The names (s1..s7) of the scans a list shows, in its order, ignoring rows other tests added. */
const names = async (token: string, query = '', headers: Record<string, string> = {}) => {
  const byId = new Map(Object.entries(s).map(([n, id]) => [id, n]));
  return (await list(token, query, headers)).items.map((i) => byId.get(i.id)).filter((n): n is string => !!n);
};
const sorted = (xs: string[]) => [...xs].sort();

describe('permission', () => {
  it('answers 403 on every scan route to a user without `scan`, and changes nothing', async () => {
    const token = await t.login((await t.build.user({ permissions: ['location', 'dashboard_statistics'] })).email);
    const before = await t.db.selectFrom('scans').selectAll().where('id', '=', s.s1).executeTakeFirstOrThrow();
    const calls: Call[] = [
      { method: 'GET', url: '/api/scan/scans' },
      { method: 'GET', url: `/api/scan/scans/${s.s1}` },
      { method: 'PUT', url: `/api/scan/scans/${s.s1}`, payload: { make: 'Hacked' } },
      { method: 'DELETE', url: `/api/scan/scans/${s.s1}` },
      { method: 'POST', url: '/api/scan/scans', payload: { agent_id: agentA.id } },
      { method: 'POST', url: `/api/scan/scans/${s.s1}/refresh` },
      { method: 'GET', url: '/api/scan/scans/export-scan-report' },
    ];
    for (const call of calls) {
      const res = await t.as(token, call);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(res.json()).toEqual({ error: 'This action is unauthorized.' });
    }
    expect(await t.db.selectFrom('scans').selectAll().where('id', '=', s.s1).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/scan/scans' })).statusCode).toBe(401);
  });
});

describe('the list', () => {
  it('pages newest first with the list columns', async () => {
    expect(await names(admin)).toEqual(['s6', 's7', 's5', 's4', 's3', 's2', 's1']);
    const page = await t.as(admin, { method: 'GET', url: '/api/scan/scans?per_page=2&page=2&agent_id=' + agentA.id });
    // Agent A's scans newest first are s6, s3, s2, s1.
    expect(page.json()).toEqual({
      items: [expect.objectContaining({ id: s.s2 }), expect.objectContaining({ id: s.s1 })],
      total: 4,
      total_is_estimate: false,
    });
    const first = (await list(admin, `location_id=${siteA2.id}`)).items[0];
    expect(first).toEqual({
      id: s.s2,
      scan_id: expect.any(String),
      licensePlate: 'XYZ123',
      make: 'Mazda',
      model: 'CX-5',
      carColor: 'Red',
      body_type: null,
      valuation: null,
      location_id: siteA2.id,
      location_name: 'Alpha South',
      location_state: null,
      client_id: clientX.id,
      client_name: 'Xanadu Insurance',
      agent_id: agentA.id,
      agent_name: 'Alpha Scanners',
      device_id: null,
      type: 'tire',
      status: 'ready',
      timestamp: '2024-05-11T13:30:00.000Z',
      startTime: null,
      damageCount: 0,
      dentCount: 0,
      scratchCount: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      has_quote: false,
      new_damage: 0,
    });
  });

  it('filters by each parameter', async () => {
    const cases: [string, string[]][] = [
      ['q=1a', ['s1', 's3']],
      ['q=1ab%202cd', ['s1']],
      ['q=1AB-2', ['s1']],
      ['q=mazda', ['s2']],
      ['q=cx', ['s2']],
      ['q=zenith', ['s3']],
      ['q=bravo', ['s4', 's5', 's7']],
      ['q=100%25', []],
      ['ts=2024-05-11&te=2024-05-11', ['s2']],
      ['te=2024-05-11%2023:59:59', ['s1', 's2']],
      ['te=2024-05-11%2023:30', ['s1', 's2']],
      ['ts=2024-05-12%2000:00:00&te=2024-05-13', ['s3', 's4', 's5']],
      ['ts=2024-05-12T00:00:00Z&te=2024-05-13T00:00:00Z', ['s4']],
      ['ago=48h', ['s6']],
      ['ago=3d', ['s6', 's7']],
      ['status=Ready', ['s2']],
      ['status=metadata', ['s3']],
      ['type=Chasis', ['s3']],
      ['type=tire', ['s2', 's7']],
      [`agent_id=${agentB.id}`, ['s4', 's5', 's7']],
      [`client_id=${clientX.id}`, ['s1', 's2', 's5', 's6']],
      [`location_id=${siteA1.id}`, ['s1', 's3', 's6']],
      [`agent_id=${agentA.id}&ts=2024-05-10&te=2024-05-11`, ['s1', 's2']],
      ['status=&type=&agent_id=&q=', ['s1', 's2', 's3', 's4', 's5', 's6', 's7']],
    ];
    for (const [query, expected] of cases) expect(sorted(await names(admin, query)), query).toEqual(sorted(expected));
  });

  it('answers 422 on a bad filter', async () => {
    const cases: [string, Record<string, string>][] = [
      ['ts=2024-13-01', { ts: 'Start date must be a date like 2024-05-31 or 2024-05-31 17:30:00' }],
      ['te=yesterday', { te: 'End date must be a date like 2024-05-31 or 2024-05-31 17:30:00' }],
      ['status=done', { status: 'The selected status is invalid' }],
      ['type=laser', { type: 'The selected type is invalid' }],
      ['agent_id=abc', { agent_id: 'Agent must be an id' }],
      ['ago=two-days', { ago: 'Ago must look like 48h, 7d or 30m' }],
    ];
    for (const [query, error] of cases) {
      const res = await t.as(admin, { method: 'GET', url: `/api/scan/scans?${query}` });
      expect(res.statusCode, query).toBe(422);
      expect(res.json(), query).toEqual({ error });
    }
    expect((await t.as(admin, { method: 'GET', url: '/api/scan/scans?per_page=101' })).statusCode).toBe(422);
  });

  it('counts exactly from the day counts, and estimates beyond 10,000 matches only for what they cannot answer', async () => {
    await sql`insert into scans (scan_id, agent_id, type, status, scanned_at)
      select 'bulk-' || g, ${agentC.id}, 'arch', 'uploaded', now() - (g || ' minutes')::interval from generate_series(1, 10050) g`.execute(
      t.db,
    );
    await sql`analyze scans`.execute(t.db);
    // One agent (a filter or an Agent user's scope) and a date range: exact, however many.
    const many = await list(admin, `agent_id=${agentC.id}`);
    expect(many).toMatchObject({ total: 10_050, total_is_estimate: false });
    expect(many.items).toHaveLength(100);
    // A type filter is not in the day counts: beyond 10,000 the planner's estimate answers.
    const typed = await list(admin, `agent_id=${agentC.id}&type=arch`);
    expect(typed.total_is_estimate).toBe(true);
    expect(typed.total).toBeGreaterThan(10_000);
    const few = await list(admin, `agent_id=${agentC.id}&q=nomatch`);
    expect(few).toEqual({ items: [], total: 0, total_is_estimate: false });

    // Deep pages (found from the day counts) hold exactly what an offset would, also after a change.
    const truth = async (page: number) =>
      (
        await sql<{ id: number }>`select id from scans where agent_id = ${agentC.id}
      order by scanned_at desc, id desc limit 10 offset ${(page - 1) * 10}`.execute(t.db)
      ).rows.map((r) => r.id);
    const deep = async (page: number) =>
      (await t.as(admin, { method: 'GET', url: `/api/scan/scans?agent_id=${agentC.id}&per_page=10&page=${page}` }))
        .json()
        .items.map((i: { id: number }) => i.id);
    for (const page of [150, 151, 400, 1005, 1006]) expect(await deep(page), `page ${page}`).toEqual(await truth(page));
    await t.as(admin, { method: 'POST', url: '/api/scan/scans', payload: { agent_id: agentC.id } });
    for (const page of [150, 151, 400]) expect(await deep(page), `page ${page} after a new scan`).toEqual(await truth(page));
    await sql`delete from scans where agent_id = ${agentC.id}`.execute(t.db);
  });
});

describe('scope', () => {
  let agentUser: string;
  let clientUser: string;
  beforeAll(async () => {
    agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA.id] })).email);
    clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [clientX.id] })).email);
  });

  it("shows a Super Admin everything, an Agent user their agents' scans, a Client user their clients'", async () => {
    expect(sorted(await names(admin))).toEqual(['s1', 's2', 's3', 's4', 's5', 's6', 's7']);
    expect(sorted(await names(agentUser))).toEqual(['s1', 's2', 's3', 's6']);
    expect(sorted(await names(clientUser))).toEqual(['s1', 's2', 's5', 's6']);
    // A filter cannot reach outside the scope.
    expect(await names(agentUser, `agent_id=${agentB.id}`)).toEqual([]);
    const noRole = await t.login((await t.build.user({ permissions: ['scan'] })).email);
    expect(await list(noRole)).toEqual({ items: [], total: 0, total_is_estimate: false });
  });

  it('narrows by X_SNG_AGENTS / X_SNG_CLIENTS, never widens', async () => {
    expect(sorted(await names(admin, '', { x_sng_agents: String(agentA.id) }))).toEqual(['s1', 's2', 's3', 's6']);
    expect(sorted(await names(admin, '', { x_sng_clients: String(clientY.id) }))).toEqual(['s4', 's7']);
    expect(await names(agentUser, '', { x_sng_agents: String(agentB.id) })).toEqual([]);
    expect(sorted(await names(agentUser, '', { x_sng_clients: String(clientX.id) }))).toEqual(['s1', 's2', 's6']);
    expect(
      (await t.as(agentUser, { method: 'GET', url: `/api/scan/scans/${s.s1}`, headers: { x_sng_agents: String(agentB.id) } })).statusCode,
    ).toBe(404);
  });

  it("answers the model's 404 for a scan outside the scope, on every route", async () => {
    for (const call of [
      { method: 'GET', url: `/api/scan/scans/${s.s4}` },
      { method: 'PUT', url: `/api/scan/scans/${s.s4}`, payload: { make: 'Mine now' } },
      { method: 'DELETE', url: `/api/scan/scans/${s.s4}` },
      { method: 'POST', url: `/api/scan/scans/${s.s4}/refresh` },
    ] as Call[]) {
      const res = await t.as(agentUser, call);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(res.json()).toEqual(notFound(s.s4));
    }
    expect((await t.as(clientUser, { method: 'GET', url: `/api/scan/scans/${s.s3}` })).json()).toEqual(notFound(s.s3));
    const kept = await t.db.selectFrom('scans').select(['make']).where('id', '=', s.s4).executeTakeFirstOrThrow();
    expect(kept.make).toBe('Tesla');
  });
});

describe('one scan', () => {
  it('reads the whole scan, and answers 404 with the model text', async () => {
    const res = await t.as(admin, { method: 'GET', url: `/api/scan/scans/${s.s4}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: s.s4,
      licensePlate: 'NSW001',
      agent_name: 'Bravo Drive',
      client_name: 'Yarra Fleet',
      meta: null,
      arch: null,
      chasis: null,
      tire: null,
      rims: null,
      damages: [],
      measures: { dents: {}, scratchs: {}, damage_count: {} },
      data: [],
      videos: [],
      annotates: [],
      report_pdfs: [],
      pdf: null,
      pdf_url: null,
      pdf_path: null,
    });
    for (const id of ['999999', 'abc', '0', '1.5']) {
      const missing = await t.as(admin, { method: 'GET', url: `/api/scan/scans/${id}` });
      expect(missing.statusCode, id).toBe(404);
      expect(missing.json()).toEqual(notFound(id));
    }
  });
});

describe('updating the vehicle fields', () => {
  it('changes only the fields sent, normalises them, resolves the client name, and publishes the change', async () => {
    const url = `/api/scan/scans/${s.s2}`;
    const res = await t.as(admin, {
      method: 'PUT',
      url,
      payload: { licensePlate: ' xyz 124 ', valuation: '12,500', location_state: 'VIC', noLoading: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      licensePlate: 'XYZ124',
      valuation: 12500,
      location_state: 'VIC',
      make: 'Mazda',
      model: 'CX-5',
      carColor: 'Red',
    });
    expect(events).toEqual([
      { kind: 'updated', scan: expect.objectContaining({ id: s.s2, licensePlate: 'XYZ124', valuation: 12500, agent_id: agentA.id }) },
    ]);

    const moved = await t.as(admin, { method: 'PUT', url, payload: { client_id: clientZ.id, client_name: 'Whatever the browser says' } });
    expect(moved.json().data).toMatchObject({ client_id: clientZ.id, client_name: 'Zenith Leasing' });
    const each = { make: 'Mazda2', model: 'CX-30', carColor: 'Soul Red', body_type: 'SUV', valuation: 9000 };
    for (const [field, value] of Object.entries(each)) {
      const one = await t.as(admin, { method: 'PUT', url, payload: { [field]: value } });
      expect(one.json().data[field], field).toBe(value);
    }
    // Typed text with cents: rounded to whole dollars, half up.
    const cents = await t.as(admin, { method: 'PUT', url, payload: { valuation: '15,900.50' } });
    expect(cents.json().data.valuation).toBe(15901);
    expect((await t.as(admin, { method: 'PUT', url, payload: { valuation: '15900.49' } })).json().data.valuation).toBe(15900);
    const cleared = await t.as(admin, { method: 'PUT', url, payload: { body_type: '', valuation: '' } });
    expect(cleared.json().data).toMatchObject({ body_type: null, valuation: null, make: 'Mazda2', licensePlate: 'XYZ124' });
    // Fields that are not the vehicle's are ignored.
    const ignored = await t.as(admin, { method: 'PUT', url, payload: { status: 'metadata', agent_id: agentB.id, type: 'arch' } });
    expect(ignored.json().data).toMatchObject({ status: 'ready', agent_id: agentA.id, type: 'tire' });
  });

  it('answers 422 on a bad value and changes nothing', async () => {
    const url = `/api/scan/scans/${s.s1}`;
    const before = await t.db.selectFrom('scans').selectAll().where('id', '=', s.s1).executeTakeFirstOrThrow();
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ location_state: 'XX' }, { location_state: 'The selected location state is invalid' }],
      [{ valuation: 'lots' }, { valuation: VALUATION_FORMAT_MESSAGE }],
      // Text that would read as another amount once a character is dropped is refused, not reinterpreted.
      [{ valuation: '15.900,50' }, { valuation: VALUATION_FORMAT_MESSAGE }],
      [{ valuation: '1,59,00' }, { valuation: VALUATION_FORMAT_MESSAGE }],
      [{ valuation: '15,900.50.1' }, { valuation: VALUATION_FORMAT_MESSAGE }],
      [{ valuation: '$15,900' }, { valuation: VALUATION_FORMAT_MESSAGE }],
      [{ valuation: '100,000,001' }, { valuation: 'Valuation must be at most 100,000,000' }],
      [{ valuation: -5 }, { valuation: 'Valuation must be greater than or equal to 0' }],
      [{ valuation: 12.5 }, { valuation: 'Valuation must be a whole number' }],
      [{ licensePlate: 'X'.repeat(21) }, { licensePlate: 'Registration must be less than 20' }],
      [{ client_id: 999999 }, { client_id: 'The selected client is invalid' }],
    ];
    for (const [payload, error] of cases) {
      const res = await t.as(admin, { method: 'PUT', url, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toEqual({ error });
    }
    expect(await t.db.selectFrom('scans').selectAll().where('id', '=', s.s1).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('lets a restricted user choose only a client they may see', async () => {
    const agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA.id] })).email);
    // Agent A serves client X (its default client); Yarra Fleet is Bravo's.
    const refused = await t.as(agentUser, { method: 'PUT', url: `/api/scan/scans/${s.s6}`, payload: { client_id: clientY.id } });
    expect(refused.json()).toEqual({ error: { client_id: 'The selected client is invalid' } });
    expect(
      (await t.as(agentUser, { method: 'PUT', url: `/api/scan/scans/${s.s6}`, payload: { client_id: clientX.id, make: 'Kia' } }))
        .statusCode,
    ).toBe(200);
    // A Client-scoped user who may change scans (the Client role itself may not: scan-quote-edit.test.ts).
    const clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [clientX.id], permissions: ['scan_edit'] })).email);
    const away = await t.as(clientUser, { method: 'PUT', url: `/api/scan/scans/${s.s6}`, payload: { client_id: clientZ.id } });
    expect(away.json()).toEqual({ error: { client_id: 'The selected client is invalid' } });
    const row = await t.db.selectFrom('scans').select(['client_id']).where('id', '=', s.s6).executeTakeFirstOrThrow();
    expect(row.client_id).toBe(clientX.id);
  });

  it("lets the form send back a scan's own client even when the writer could not choose it now", async () => {
    // Agent A's scan for Zenith Leasing, a client agent A does not serve (e.g. its device serves another one now).
    const scan = (await t.build.scan({ agent_id: agentA.id, client_id: clientZ.id })).id;
    const agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA.id] })).email);
    const kept = await t.as(agentUser, { method: 'PUT', url: `/api/scan/scans/${scan}`, payload: { client_id: clientZ.id, make: 'Kia' } });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().data).toMatchObject({ client_id: clientZ.id, make: 'Kia' });
    const moved = await t.as(agentUser, { method: 'PUT', url: `/api/scan/scans/${scan}`, payload: { client_id: clientY.id } });
    expect(moved.json()).toEqual({ error: { client_id: 'The selected client is invalid' } });
  });
});

describe('manual scans', () => {
  it("creates a tire scan with status uploaded whatever is sent, with the client's name and a report", async () => {
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/scan/scans',
      payload: {
        agent_id: agentA.id,
        client_id: clientZ.id,
        client_name: 'Ignored',
        startTime: '2024-05-31 17:30:00',
        type: 'arch',
        status: 'metadata',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const scan = res.json().data;
    expect(scan).toMatchObject({
      type: 'tire',
      status: 'uploaded',
      agent_id: agentA.id,
      client_id: clientZ.id,
      client_name: 'Zenith Leasing',
      location_id: null,
      device_id: null,
      startTime: '2024-05-31T07:30:00.000Z',
      scan_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(scan.report_pdfs).toEqual([
      { label: 'View Scan Report', url: expect.stringMatching(/\.pdf\?expires=\d+&uid=\d+&sig=[\w-]{43}$/), path: expect.any(String) },
      { label: 'Customer Portal PDF', url: expect.stringMatching(/\.pdf\?expires=\d+&uid=\d+&sig=[\w-]{43}$/), path: expect.any(String) },
    ]);
    expect(events.map((e) => e.kind)).toEqual(['created']);
    const defaulted = await t.as(admin, { method: 'POST', url: '/api/scan/scans', payload: { agent_id: agentB.id } });
    expect(defaulted.json().data).toMatchObject({ client_id: clientY.id, client_name: 'Yarra Fleet', type: 'tire', status: 'uploaded' });
  });

  it('refuses an agent or client outside the scope and bad fields with 422 on the field, storing nothing', async () => {
    const count = async () =>
      (
        await t.db
          .selectFrom('scans')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await count();
    const agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA.id] })).email);
    const clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [clientX.id], permissions: ['scan_edit'] })).email);
    // Every id the body names must be one the writer may see.
    const foreign: [string, Record<string, unknown>, Record<string, string>][] = [
      [agentUser, { agent_id: agentB.id }, { agent_id: 'The selected agent is invalid' }],
      [agentUser, { agent_id: agentA.id, client_id: clientZ.id }, { client_id: 'The selected client is invalid' }],
      [clientUser, { agent_id: agentA.id, client_id: clientZ.id }, { client_id: 'The selected client is invalid' }],
      [clientUser, { agent_id: agentB.id, client_id: clientX.id }, { agent_id: 'The selected agent is invalid' }],
    ];
    for (const [token, payload, error] of foreign) {
      const res = await t.as(token, { method: 'POST', url: '/api/scan/scans', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toEqual({ error });
    }
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{}, { agent_id: 'Agent is required' }],
      [{ agent_id: 999999 }, { agent_id: 'The selected agent is invalid' }],
      [{ agent_id: agentA.id, client_id: 999999 }, { client_id: 'The selected client is invalid' }],
      [{ agent_id: agentA.id, startTime: 'soon' }, { startTime: 'Start Time must be a date like 2024-05-31 or 2024-05-31 17:30:00' }],
    ];
    for (const [payload, error] of cases) {
      const res = await t.as(admin, { method: 'POST', url: '/api/scan/scans', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toEqual({ error });
    }
    expect(await count()).toBe(before);
    // An Agent user's own agent works.
    expect((await t.as(agentUser, { method: 'POST', url: '/api/scan/scans', payload: { agent_id: agentA.id } })).statusCode).toBe(201);
  });
});

describe('deleting and refreshing', () => {
  it('deletes a scan with its rows and files, keeping a file another scan still uses', async () => {
    const make = async () => (await t.as(admin, { method: 'POST', url: '/api/scan/scans', payload: { agent_id: agentA.id } })).json().data;
    const a = await make();
    const b = await make();
    // b shares a's report file too (as the demo scans share their pictures).
    await sql`insert into scan_annotates (scan_id, src) values (${b.id}, ${`/api/user/files/${a.pdf_path}`})`.execute(t.db);
    await sql`insert into scan_files (scan_id, key) values (${b.id}, ${a.pdf_path})`.execute(t.db);
    const res = await t.as(admin, { method: 'DELETE', url: `/api/scan/scans/${a.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: a.id });
    expect((await t.as(admin, { method: 'GET', url: `/api/scan/scans/${a.id}` })).json()).toEqual(notFound(a.id));
    expect(await t.app.storage.get(a.pdf_path)).not.toBeNull();
    expect((await t.as(admin, { method: 'DELETE', url: `/api/scan/scans/${b.id}` })).statusCode).toBe(200);
    expect(await t.app.storage.get(a.pdf_path)).toBeNull();
    expect(await t.app.storage.get(b.pdf_path)).toBeNull();
    const left = await t.db.selectFrom('scan_files').select('key').where('scan_id', 'in', [a.id, b.id]).execute();
    expect(left).toEqual([]);
  });

  it('refreshes a scan: totals recounted, a missing report written', async () => {
    await sql`insert into scan_measures (scan_id, car_panel, type, level, count) values (${s.s5}, 'roof', 'dents', 'heavy', 4), (${s.s5}, 'bonnet', 'scratchs', 'light', 1)`.execute(
      t.db,
    );
    const res = await t.as(admin, { method: 'POST', url: `/api/scan/scans/${s.s5}/refresh` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: s.s5,
      dentCount: 4,
      scratchCount: 1,
      damageCount: 5,
      pdf_url: expect.stringMatching(/\.pdf\?expires=\d+&uid=\d+&sig=[\w-]{43}$/),
    });
    expect((await list(admin, `q=qld777`)).items[0]).toMatchObject({ damageCount: 5, dentCount: 4 });
  });
});
