import { hash } from '@node-rs/argon2';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { PORTAL_MANUAL_MAX } from '../../server/services/scan/portal-service';
import { createTestContext, type TestContext } from './helper';

/**
 * The customer portal's endpoints (docs/portal.md): each reply carries the portal fields only (the exact keys
 * are asserted, so a new column cannot slip out), of the agent's last 48 hours; disabled or unknown agents get the
 * model 404; the pincode throttle holds.
 */
let t: TestContext;
let clientId: number;
const PIN = '246810';

/** The portal card (the wire's Portal scan): nothing else may leave. */
const CARD_KEYS = ['damageCount', 'dentCount', 'has_quote', 'id', 'licensePlate', 'scratchCount', 'status', 'timestamp', 'type'];
/** The portal's scan page: the card, the vehicle, its images and its damage; no client, agent, location, price, report or staff data. */
const DETAIL_KEYS = [...CARD_KEYS, 'body_type', 'carColor', 'damages', 'image', 'make', 'measures', 'model', 'photos', 'tyres'].sort();
const keys = (o: object) => Object.keys(o).sort();

beforeAll(async () => {
  t = await createTestContext();
  clientId = (await t.build.client({ name: 'Portal client' })).id;
});

let address = 0;
const nextAddress = () => `10.41.0.${++address}`;
const openAgent = async (over: { is_enabled?: number } = {}) =>
  t.build.agent({ is_enabled: 1, portal_mode: 'open', pincode_hash: await hash(PIN), default_client_id: clientId, ...over });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const create = (agentId: number, payload: unknown = {}, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: `/api/scan/portal/${agentId}/scans`, payload: payload as object, remoteAddress });
const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);

/** A scan with everything the staff side holds: detections, counts, tyres, a vehicle photo, an annotation, a report, a video. */
async function fullScan(agentId: number) {
  const scan = await t.build.scan({
    agent_id: agentId,
    client_id: clientId,
    license_plate: 'FULL01',
    make: 'Mazda',
    model: 'CX-5',
    car_color: 'Red',
    scanned_at: hoursAgo(2),
  });
  await sql`update scans set valuation = 31500, location_state = 'VIC', dent_count = 2, scratch_count = 1,
    meta_thumbnail = '/api/user/files/thumb.jpg', meta_src = '/api/user/files/src.jpg', body_type = 'SUV' where id = ${scan.id}`.execute(
    t.db,
  );
  await sql`insert into scan_damages (scan_id, damage_id, car_panel, type, level, width_mm, height_mm, image) values
    (${scan.id}, 'd1', 'front_bumper', 'dents', 'heavy', 20, 10, '/api/user/files/d1.jpg'),
    (${scan.id}, 'd2', 'front_bumper', 'dents', 'light', 5, 5, null),
    (${scan.id}, 's1', 'left_door', 'scratchs', 'medium', 40, 2, '/api/user/files/s1.jpg')`.execute(t.db);
  await sql`insert into scan_measures (scan_id, car_panel, type, level, count) values
    (${scan.id}, 'front_bumper', 'dents', 'heavy', 1), (${scan.id}, 'front_bumper', 'dents', 'light', 1),
    (${scan.id}, 'left_door', 'scratchs', 'medium', 1)`.execute(t.db);
  await sql`insert into scan_tyres (scan_id, "row", direction, position, label, depths, eaten_tire, pressure_tire, image_file) values
    (${scan.id}, 1, 'L', 'O', 'FRONT LEFT', '{6.5,7,6.8}', 'NONE', 'UNDER_INFLATED', '/api/user/files/t1.jpg')`.execute(t.db);
  await sql`insert into scan_annotates (scan_id, src, vehicle_photo) values
    (${scan.id}, '/api/user/files/photo.jpg', true), (${scan.id}, '/api/user/files/marked-up.jpg', false)`.execute(t.db);
  await sql`insert into scan_reports (scan_id, kind, label, url) values (${scan.id}, 'scan_report', 'View Scan Report', '/api/user/files/r.pdf')`.execute(
    t.db,
  );
  await sql`insert into scan_videos (scan_id, video_id, src, content_type, size) values (${scan.id}, 'v1', '/api/user/files/v.mp4', 'video/mp4', 10)`.execute(
    t.db,
  );
  return scan.id;
}

describe('GET portal/{agentId}/scans', () => {
  it("replies exactly the card fields of this agent's last 48 hours, newest first", async () => {
    const agent = await openAgent();
    const other = await openAgent();
    const newer = await t.build.scan({
      agent_id: agent.id,
      client_id: clientId,
      license_plate: 'NEW002',
      make: 'Kia',
      scanned_at: hoursAgo(1),
    });
    const older = await fullScan(agent.id);
    await t.build.scan({ agent_id: agent.id, license_plate: 'OLD002', scanned_at: hoursAgo(48.5) });
    await t.build.scan({ agent_id: other.id, license_plate: 'OTH002', scanned_at: hoursAgo(1) });

    const res = await get(`/api/scan/portal/${agent.id}/scans`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ items: Record<string, unknown>[]; total: number }>();
    expect(keys(body)).toEqual(['items', 'total']);
    expect(body.total).toBe(2);
    for (const item of body.items) expect(keys(item)).toEqual(CARD_KEYS);
    expect(body.items).toEqual([
      {
        id: newer.id,
        licensePlate: 'NEW002',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        status: 'uploaded',
        type: 'arch',
        has_quote: false,
        damageCount: 0,
        dentCount: 0,
        scratchCount: 0,
      },
      expect.objectContaining({ id: older, licensePlate: 'FULL01', damageCount: 3, dentCount: 2, scratchCount: 1 }),
    ]);
  });
});

describe('GET portal/{agentId}/scans/{scanId}', () => {
  it('replies the vehicle and its damage only: no client, agent, location, valuation, report, video or staff annotation', async () => {
    const agent = await openAgent();
    const id = await fullScan(agent.id);
    const res = await get(`/api/scan/portal/${agent.id}/scans/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(keys(res.json())).toEqual(['data']);
    const scan = res.json().data as Record<string, unknown>;
    expect(keys(scan)).toEqual(DETAIL_KEYS);
    expect(scan).toMatchObject({
      id,
      licensePlate: 'FULL01',
      make: 'Mazda',
      model: 'CX-5',
      carColor: 'Red',
      body_type: 'SUV',
      has_quote: false,
      damageCount: 3,
      image: { thumbnail: '/api/user/files/thumb.jpg', src: '/api/user/files/src.jpg' },
      photos: [{ id: expect.any(Number), src: '/api/user/files/photo.jpg' }],
      tyres: [
        {
          label: 'FRONT LEFT',
          row: 1,
          direction: 'L',
          position: 'O',
          depths: [6.5, 7, 6.8],
          eatenTire: 'NONE',
          pressureTire: 'UNDER_INFLATED',
          imageFileUrl: '/api/user/files/t1.jpg',
        },
      ],
      measures: {
        dents: { front_bumper: { light: 1, medium: 0, heavy: 1, severe: 0, oversize: 0 } },
        scratchs: { left_door: { light: 0, medium: 1, heavy: 0, severe: 0, oversize: 0 } },
      },
    });
    const damages = scan.damages as Record<string, unknown>[];
    expect(damages.map((d) => [d.carPanel, d.type, d.level, d.src])).toEqual([
      ['front_bumper', 'dents', 'heavy', '/api/user/files/d1.jpg'],
      ['front_bumper', 'dents', 'light', null],
      ['left_door', 'scratchs', 'medium', '/api/user/files/s1.jpg'],
    ]);
    for (const d of damages) expect(keys(d)).toEqual(['carPanel', 'id', 'level', 'src', 'type']);
    for (const p of scan.photos as object[]) expect(keys(p)).toEqual(['id', 'src']);
    expect(keys(scan.image as object)).toEqual(['src', 'thumbnail']);
    // Nothing staff-side anywhere in the reply.
    for (const secret of ['Portal client', '31500', 'r.pdf', 'v.mp4', 'marked-up', 'VIC']) expect(res.body).not.toContain(secret);
  });

  it("answers the model 404 for another agent's scan, one older than 48 hours, a missing one and a bad id", async () => {
    const agent = await openAgent();
    const other = await openAgent();
    const foreign = await t.build.scan({ agent_id: other.id, scanned_at: hoursAgo(1) });
    const old = await t.build.scan({ agent_id: agent.id, scanned_at: hoursAgo(49) });
    for (const id of [foreign.id, old.id, 999_999_999]) {
      const res = await get(`/api/scan/portal/${agent.id}/scans/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: `No query results for model [Scan] ${id}` });
    }
    expect((await get(`/api/scan/portal/${agent.id}/scans/abc`)).json()).toEqual({ error: 'No query results for model [Scan] abc' });
    // The other agent's own portal shows it.
    expect((await get(`/api/scan/portal/${other.id}/scans/${foreign.id}`)).statusCode).toBe(200);
  });
});

describe('POST portal/{agentId}/scans (Create Scan)', () => {
  it("creates a manual tire scan, status uploaded, of the agent's default client; the body picks nothing", async () => {
    const agent = await openAgent();
    const otherClient = await t.build.client({ name: 'Not chosen' });
    const res = await create(agent.id, { agent_id: 1, client_id: otherClient.id, type: 'arch', status: 'metadata' });
    expect(res.statusCode, res.body).toBe(201);
    const scan = res.json().data as Record<string, unknown>;
    expect(keys(scan)).toEqual(DETAIL_KEYS);
    expect(scan).toMatchObject({ type: 'tire', status: 'uploaded', has_quote: false, licensePlate: null, damageCount: 0 });
    const row = await t.db
      .selectFrom('scans')
      .select(['agent_id', 'client_id', 'type', 'status'])
      .where('id', '=', Number(scan.id))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ agent_id: agent.id, client_id: clientId, type: 'tire', status: 'uploaded' });
    // It is a NEW SCAN on the portal, and its report exists like any uploaded scan's.
    const list = (await get(`/api/scan/portal/${agent.id}/scans`)).json<{ items: { id: number; has_quote: boolean }[] }>();
    expect(list.items[0]).toMatchObject({ id: scan.id, has_quote: false });
    const reports = await t.db.selectFrom('scan_reports').select('kind').where('scan_id', '=', Number(scan.id)).execute();
    expect(reports.map((r) => r.kind).sort()).toEqual(['portal_report', 'scan_report']);
  });

  it('refuses a body that is not an object naming nothing stored, and throttles per agent and address', async () => {
    const agent = await openAgent();
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/scan/portal/${agent.id}/scans`,
      payload: '[1]',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(422);
    const ip = nextAddress();
    // The window's count as PORTAL_MANUAL_MAX creations would leave it.
    await sql`insert into auth_throttles (bucket, throttle_key, attempts, window_start)
      values ('portal-manual-scan', ${`${agent.id}|${ip}`}, ${PORTAL_MANUAL_MAX}, now())`.execute(t.db);
    const before = await t.db
      .selectFrom('scans')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('agent_id', '=', agent.id)
      .executeTakeFirstOrThrow();
    const throttled = await create(agent.id, {}, ip);
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    const after = await t.db
      .selectFrom('scans')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('agent_id', '=', agent.id)
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    // Another address may.
    expect((await create(agent.id)).statusCode).toBe(201);
  });
});

describe('a disabled or unknown agent has no portal', () => {
  it('refuses every portal endpoint with the model 404, open or not', async () => {
    const disabled = await openAgent({ is_enabled: 0 });
    const scan = await t.build.scan({ agent_id: disabled.id, scanned_at: hoursAgo(1) });
    for (const agentId of [disabled.id, 987_654_321]) {
      for (const res of [
        await get(`/api/scan/portal/${agentId}/scans`),
        await get(`/api/scan/portal/${agentId}/scans/${scan.id}`),
        await create(agentId),
        await get(`/api/agent/agents/${agentId}/portal`),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: `No query results for model [Agent] ${agentId}` });
      }
    }
    expect(await t.db.selectFrom('scans').select('id').where('agent_id', '=', disabled.id).execute()).toHaveLength(1);
  });

  it('an enrolled portal needs the kiosk token on the scan page and Create Scan too', async () => {
    const agent = await t.build.agent({ is_enabled: 1, pincode_hash: await hash(PIN), default_client_id: clientId });
    const scan = await t.build.scan({ agent_id: agent.id, scanned_at: hoursAgo(1) });
    expect((await get(`/api/scan/portal/${agent.id}/scans/${scan.id}`)).statusCode).toBe(401);
    expect((await create(agent.id)).statusCode).toBe(401);
    const enrol = await t.app.inject({ method: 'POST', url: `/api/agent/agents/${agent.id}/portal/enrol`, payload: { pincode: PIN } });
    const token = enrol.json().data.kiosk_token as string;
    expect((await get(`/api/scan/portal/${agent.id}/scans/${scan.id}`, { 'x-kiosk-token': token })).statusCode).toBe(200);
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/scan/portal/${agent.id}/scans`,
      payload: {},
      headers: { 'x-kiosk-token': token },
    });
    expect(created.statusCode).toBe(201);
  });
});

describe('the portal agent (branding)', () => {
  it('replies exactly the branding fields: colours, logo, blurb, access mode', async () => {
    const agent = await openAgent();
    await sql`update agents set blurb = '<p>Fast <strong>honest</strong> repairs</p>', logo = '/api/user/files/logo.png' where id = ${agent.id}`.execute(
      t.db,
    );
    const res = await get(`/api/agent/agents/${agent.id}/portal`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        id: agent.id,
        name: agent.name,
        primary_color: '#0c1839',
        text_color: '#000000',
        logo: '/api/user/files/logo.png',
        blurb: '<p>Fast <strong>honest</strong> repairs</p>',
        portal_mode: 'open',
      },
    });
  });
});

describe('the Go to Admin pincode check', () => {
  it('holds 5 failures per 15 minutes per agent and address: then 429 with Retry-After, even for the right pin', async () => {
    const agent = await openAgent();
    const ip = nextAddress();
    const check = (pin: string, remoteAddress = ip) =>
      t.app.inject({ method: 'POST', url: `/api/agent/agents/${agent.id}/validate-pin`, payload: { pin }, remoteAddress });
    for (let i = 0; i < 5; i++) expect((await check('000000')).json()).toEqual({ data: false });
    const refused = await check(PIN);
    expect(refused.statusCode).toBe(429);
    const retry = Number(refused.headers['retry-after']);
    expect(retry).toBeGreaterThan(14 * 60);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    expect(refused.json().error).toBe(`Too many pincode attempts. Please try again in ${retry} seconds.`);
    expect((await check(PIN, nextAddress())).json()).toEqual({ data: true });
  });
});
