import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { VALUATION_FORMAT_MESSAGE, VALUATION_MAX_MESSAGE } from '../../src/domain/valuation';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keyOfUrl } from '../../server/lib/storage';
import type { Broadcaster, PortalScanEvent, ScanEvent } from '../../server/realtime/broadcaster';
import { SAMPLE_VIDEO_PATH } from '../../server/scans-generator/images';
import { createTestContext, formData, type TestContext } from './helper';
import { pdfLines } from './pdf-text';
import { pngImage } from './image-fixtures';

let t: TestContext;
let admin: string;
let agentA: { id: number; name: string };
let agentB: { id: number; name: string };
let clientA: { id: number; name: string };
let clientB: { id: number; name: string };
let siteA: { id: number; name: string };
let deviceA: number;
let deviceB: number;
let keyA: string;
let keyB: string;

const puts: string[] = [];
/** Events the scan service published, captured around the app's real broadcaster. */
const events: { kind: string; scan: ScanEvent | PortalScanEvent; agentId?: number }[] = [];

/** A user of the agent, holding an API key made by the real users route. */
async function apiKeyFor(agentId: number) {
  const user = await t.build.user({ roles: ['Agent'], agents: [agentId] });
  const res = await t.as(admin, { method: 'GET', url: `/api/user/users/${user.id}/apikey` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.token as string;
}

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  clientA = await t.build.client({ name: 'Ingest client A' });
  clientB = await t.build.client({ name: 'Ingest client B' });
  agentA = await t.build.agent({ name: 'Ingest agent A', default_client_id: clientA.id });
  agentB = await t.build.agent({ name: 'Ingest agent B', default_client_id: clientB.id });
  siteA = await t.build.location({ name: 'Ingest site A', state: 'NSW', agent_id: agentA.id });
  const siteB = await t.build.location({ name: 'Ingest site B', state: 'QLD', agent_id: agentB.id });
  deviceA = (await t.build.device({ location_id: siteA.id, agent_id: agentA.id, default_client_id: clientA.id, serial: '5100000001' })).id;
  deviceB = (await t.build.device({ location_id: siteB.id, agent_id: agentB.id, default_client_id: clientB.id, serial: '5100000002' })).id;
  keyA = await apiKeyFor(agentA.id);
  keyB = await apiKeyFor(agentB.id);
  // Every file the storage is asked to keep, so a test can check that refused uploads leave none behind.
  const storage = t.app.storage;
  const put = storage.put.bind(storage);
  storage.put = async (data, type) => {
    const key = await put(data, type);
    puts.push(key);
    return key;
  };
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
      events.push({ kind: 'saved', scan, agentId });
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

const device = (key: string, opts: { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: unknown; headers?: Record<string, string> }) =>
  t.app.inject({
    method: opts.method,
    url: opts.url,
    payload: opts.payload as string,
    headers: { authorization: `Bearer ${key}`, ...opts.headers },
  });
const upload = async (key: string, url: string, fields: Parameters<typeof formData>[0]) => {
  const form = await formData(fields);
  return t.app.inject({ method: 'POST', url, payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${key}` } });
};
let seq = 0;
const newScan = (over: Record<string, unknown> = {}) => ({
  scan_id: `DEV-${Date.now()}-${++seq}`,
  device_id: deviceA,
  type: 'arch',
  timestamp: '2024-05-31T07:30:00Z',
  startTime: '2024-05-31T07:29:00Z',
  licensePlate: 'ab 12 cd',
  make: 'Mazda',
  model: 'CX-5',
  carColor: 'Red',
  body_type: 'SUV',
  valuation: '31,500',
  ...over,
});
const create = async (key = keyA, over: Record<string, unknown> = {}) => {
  const res = await device(key, { method: 'POST', url: '/api/scan/ingest/scans', payload: newScan(over) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; scan_id: string; client_id: number | null };
};
const results = {
  arch: { panels_scanned: 28, duration_s: 41 },
  damages: [
    { id: 'd-001', carPanel: 'bonnet', type: 'dents', level: 'medium', width_mm: 24, height_mm: 18 },
    { id: 'd-002', carPanel: 'bonnet', type: 'dents', level: 'light', width_mm: 8, height_mm: 7 },
    { id: 'd-003', carPanel: 'left_front_door', type: 'scratchs', level: 'heavy', width_mm: 180, height_mm: 3 },
  ],
  tyres: [1, 2, 3].flatMap((row) =>
    (['L', 'R'] as const).map((direction) => ({
      row,
      direction,
      position: 'O',
      depths: [6.1, 5.8, 6.4],
      eatenTire: 'NONE',
      pressureTire: row === 3 ? 'UNDER_INFLATED' : 'NONE',
    })),
  ),
};
const count = async (
  table: 'scans' | 'scan_damages' | 'scan_tyres' | 'scan_videos' | 'scan_annotates' | 'scan_measures' | 'scan_files',
  scanId?: number,
) => {
  let q = t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  if (scanId !== undefined) q = q.where(table === 'scans' ? 'id' : 'scan_id', '=', scanId);
  return (await q.executeTakeFirstOrThrow()).n;
};
const scanPage = async (id: number) => {
  const res = await t.as(admin, { method: 'GET', url: `/api/scan/scans/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const stored = async (url: string) => t.app.storage.get(keyOfUrl(url)!);

describe('the device ingestion happy path', () => {
  it('creates a scan, takes its results, images and video, marks it ready then uploaded with a report, publishing each step', async () => {
    const created = await device(keyA, { method: 'POST', url: '/api/scan/ingest/scans', payload: newScan({ scan_id: 'HAPPY-0001' }) });
    expect(created.statusCode, created.body).toBe(201);
    const scan = created.json().data;
    expect(scan).toMatchObject({
      scan_id: 'happy-0001',
      status: 'metadata',
      type: 'arch',
      agent_id: agentA.id,
      agent_name: 'Ingest agent A',
      client_id: clientA.id,
      client_name: 'Ingest client A',
      location_id: siteA.id,
      location_name: 'Ingest site A',
      location_state: 'NSW',
      device_id: deviceA,
      licensePlate: 'AB12CD',
      make: 'Mazda',
      valuation: 31500,
      timestamp: '2024-05-31T07:30:00.000Z',
      damageCount: 0,
    });
    expect(events.map((e) => e.kind)).toEqual(['created', 'saved']);
    expect(events[0].scan).toMatchObject({
      id: scan.id,
      agent_id: agentA.id,
      client_id: clientA.id,
      status: 'metadata',
      licensePlate: 'AB12CD',
    });
    expect(events[1]).toMatchObject({ agentId: agentA.id, scan: { id: scan.id, has_quote: false } });

    const put = await device(keyA, { method: 'PUT', url: `/api/scan/ingest/scans/${scan.id}/results`, payload: results });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ damageCount: 3, dentCount: 2, scratchCount: 1 });

    const base = `/api/scan/ingest/scans/${scan.id}`;
    const img = { data: await pngImage(), filename: 'x.png', type: 'image/png' };
    const slots: (Parameters<typeof formData>[0] & { kind: string })[] = [
      { kind: 'thumbnail', file: img },
      { kind: 'src', file: img },
      { kind: 'damage', damage_id: 'd-001', file: img },
      { kind: 'tyre_measurement', row: 1, direction: 'L', position: 'O', file: img },
      { kind: 'tyre_image', row: 3, direction: 'R', position: 'O', file: img },
      { kind: 'vehicle_photo', image_id: 'photo-1', file: img },
    ];
    for (const fields of slots) {
      const res = await upload(keyA, `${base}/images`, fields);
      expect(res.statusCode, `${fields.kind}: ${res.body}`).toBe(200);
      expect(res.json().data.url).toMatch(/^\/api\/user\/files\/[0-9a-f]{32}\.png$/);
    }
    const video = await upload(keyA, `${base}/videos`, {
      video_id: 'v-001',
      file: { data: fs.readFileSync(SAMPLE_VIDEO_PATH), filename: 'scan.webm', type: 'video/webm' },
      thumbnail: img,
    });
    expect(video.statusCode, video.body).toBe(200);

    events.length = 0;
    const ready = await device(keyA, { method: 'POST', url: `${base}/status`, payload: { status: 'ready' } });
    expect(ready.json().data.status).toBe('ready');
    const uploaded = await device(keyA, { method: 'POST', url: `${base}/status`, payload: { status: 'uploaded' } });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json().data.status).toBe('uploaded');
    expect(events.filter((e) => e.kind === 'updated').map((e) => (e.scan as ScanEvent).status)).toEqual(['ready', 'uploaded']);

    const page = await scanPage(scan.id);
    expect(page.meta).toEqual({
      id: scan.id,
      scan_id: 'happy-0001',
      thumbnailImagePathUrl: expect.stringMatching(/\.png$/),
      srcImagePathUrl: expect.stringMatching(/\.png$/),
    });
    expect(page.arch).toEqual({ panels_scanned: 28, duration_s: 41 });
    expect(page.damages).toHaveLength(3);
    expect(page.damages.find((d: { damage_id: string }) => d.damage_id === 'd-001')).toMatchObject({
      carPanel: 'bonnet',
      type: 'dents',
      level: 'medium',
      width_mm: 24,
      height_mm: 18,
      src: expect.stringMatching(/\.png$/),
      data: [{ measure: 'medium', width_mm: 24, height_mm: 18 }],
    });
    expect(page.measures.dents.bonnet).toEqual({ light: 1, medium: 1, heavy: 0, severe: 0, oversize: 0 });
    expect(page.measures.scratchs.left_front_door).toMatchObject({ heavy: 1 });
    expect(page.measures.damage_count).toEqual({ bonnet: 2, left_front_door: 1 });
    // Row 1 FRONT, the last row REAR, others by number.
    expect(page.data.map((x: { label: string }) => x.label)).toEqual([
      'FRONT LEFT',
      'FRONT RIGHT',
      '2 LEFT',
      '2 RIGHT',
      'REAR LEFT',
      'REAR RIGHT',
    ]);
    expect(page.data[0]).toMatchObject({
      direction: 'L',
      position: 'O',
      depths: [6.1, 5.8, 6.4],
      measurementImageUrl: expect.any(String),
      conclusionDescription: { eatenTire: 'NONE', pressureTire: 'NONE' },
    });
    expect(page.data[5]).toMatchObject({ imageFileUrl: expect.any(String), conclusionDescription: { pressureTire: 'UNDER_INFLATED' } });
    expect(page.annotates).toEqual([
      { id: expect.any(Number), src: expect.any(String), path: expect.stringMatching(/\.png$/), vehicle_photo: true },
    ]);
    expect(page.videos).toEqual([
      { id: expect.any(Number), video_id: 'v-001', src: expect.stringMatching(/\.webm$/), thumbnail: expect.stringMatching(/\.png$/) },
    ]);
    expect(page.report_pdfs).toEqual([
      { label: 'View Scan Report', url: page.pdf_url, path: expect.stringMatching(/^[0-9a-f]{32}\.pdf$/) },
      { label: 'Customer Portal PDF', url: expect.any(String), path: expect.stringMatching(/^[0-9a-f]{32}\.pdf$/) },
    ]);

    // The files are served: the video as WebM, the report as a PDF naming the registration and the counts.
    const served = await t.app.inject({ method: 'GET', url: page.videos[0].src });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('video/webm');
    const pdf = await t.app.inject({ method: 'GET', url: page.pdf_url });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfLines(pdf.rawPayload);
    expect(text).toContain('Registration AB12CD (NSW)');
    expect(text).toContain('Damage Dents: 2 Scratches: 1 Total: 3');
    expect(text.some((line) => line.startsWith('Client ') || line.startsWith('Scan id '))).toBe(true);
    // The customer portal's PDF: the same vehicle and damage for its owner, without whom the scan is for or its ids.
    const portal = pdfLines((await t.app.inject({ method: 'GET', url: page.report_pdfs[1].url })).rawPayload);
    expect(portal).toContain('Your Vehicle Scan');
    expect(portal).toContain('Registration AB12CD (NSW)');
    expect(portal).toContain('Damage Dents: 2 Scratches: 1 Total: 3');
    expect(portal.filter((line) => line.startsWith('Client ') || line.startsWith('Scan id ') || line.startsWith('Status '))).toEqual([]);
    // scan_files knows every file the scan uses: 2 meta, 1 damage, 2 tyre, 1 photo, video + thumbnail, two reports.
    expect(await count('scan_files', scan.id)).toBe(10);
  });

  it("lists the devices of the key's agents only", async () => {
    const res = await device(keyA, { method: 'GET', url: '/api/scan/ingest/devices' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      {
        id: deviceA,
        serial: '5100000001',
        type: 'arch',
        agent_id: agentA.id,
        location_id: siteA.id,
        location_name: 'Ingest site A',
        location_state: 'NSW',
      },
    ]);
  });

  it('accepts the key in X-Api-Key too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/scan/ingest/devices', headers: { 'x-api-key': keyA } });
    expect(res.statusCode).toBe(200);
  });
});

describe('idempotency', () => {
  it('answers a replayed scan_id with the same scan (200), case-insensitively, and stores one row', async () => {
    const body = newScan({ scan_id: 'Replay-01' });
    const first = await device(keyA, { method: 'POST', url: '/api/scan/ingest/scans', payload: body });
    expect(first.statusCode).toBe(201);
    const before = await count('scans');
    const again = await device(keyA, {
      method: 'POST',
      url: '/api/scan/ingest/scans',
      payload: { ...body, scan_id: 'REPLAY-01', make: 'Changed' },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first.json().data);
    expect(await count('scans')).toBe(before);
    // The replay is not news: nothing is published for it.
    expect(events.filter((e) => e.kind === 'created')).toHaveLength(1);
  });

  it('updates results, images and videos in place when the same device ids come again', async () => {
    const scan = await create();
    const url = `/api/scan/ingest/scans/${scan.id}`;
    for (let i = 0; i < 2; i++)
      expect((await device(keyA, { method: 'PUT', url: `${url}/results`, payload: results })).statusCode).toBe(200);
    const changed = { damages: [{ ...results.damages[0], level: 'severe' }] };
    expect((await device(keyA, { method: 'PUT', url: `${url}/results`, payload: changed })).statusCode).toBe(200);
    expect(await count('scan_damages', scan.id)).toBe(3);
    expect(await count('scan_tyres', scan.id)).toBe(6);
    const page = await scanPage(scan.id);
    expect(page.measures.dents.bonnet).toEqual({ light: 1, medium: 0, heavy: 0, severe: 1, oversize: 0 });
    expect(page.dentCount).toBe(2);

    const first = await upload(keyA, `${url}/images`, {
      kind: 'damage',
      damage_id: 'd-002',
      file: { data: await pngImage(), filename: 'a.png' },
    });
    const second = await upload(keyA, `${url}/images`, {
      kind: 'damage',
      damage_id: 'd-002',
      file: { data: await pngImage(30, 30), filename: 'b.png' },
    });
    expect(second.statusCode).toBe(200);
    const damage = (await scanPage(scan.id)).damages.find((d: { damage_id: string }) => d.damage_id === 'd-002');
    expect(damage.src).toBe(second.json().data.url);
    // The replaced picture is gone from storage; the new one is there.
    expect(await stored(first.json().data.url)).toBeNull();
    expect(await stored(second.json().data.url)).not.toBeNull();

    const webm = { data: fs.readFileSync(SAMPLE_VIDEO_PATH), filename: 'v.webm' };
    for (let i = 0; i < 2; i++) expect((await upload(keyA, `${url}/videos`, { video_id: 'v-1', file: webm })).statusCode).toBe(200);
    expect(await count('scan_videos', scan.id)).toBe(1);
    for (let i = 0; i < 2; i++)
      expect(
        (
          await upload(keyA, `${url}/images`, {
            kind: 'vehicle_photo',
            image_id: 'p-1',
            file: { data: await pngImage(), filename: 'p.png' },
          })
        ).statusCode,
      ).toBe(200);
    expect(await count('scan_annotates', scan.id)).toBe(1);
  });

  it('takes the counts as sent when the device sends measures', async () => {
    const scan = await create();
    const res = await device(keyA, {
      method: 'PUT',
      url: `/api/scan/ingest/scans/${scan.id}/results`,
      payload: { damages: results.damages, measures: { dents: { roof: { light: 12, heavy: 2 } }, scratchs: { bonnet: { medium: 1 } } } },
    });
    expect(res.json().data).toMatchObject({ dentCount: 14, scratchCount: 1, damageCount: 15 });
    expect((await scanPage(scan.id)).measures.damage_count).toEqual({ roof: 14, bonnet: 1 });
  });

  it('sends the status again without change, and refuses to move it back', async () => {
    const scan = await create();
    const url = `/api/scan/ingest/scans/${scan.id}/status`;
    expect((await device(keyA, { method: 'POST', url, payload: { status: 'uploaded' } })).statusCode).toBe(200);
    const reports = await t.db.selectFrom('scan_reports').select('url').where('scan_id', '=', scan.id).execute();
    events.length = 0;
    const again = await device(keyA, { method: 'POST', url, payload: { status: 'uploaded' } });
    expect(again.statusCode).toBe(200);
    expect(events).toEqual([]);
    expect(await t.db.selectFrom('scan_reports').select('url').where('scan_id', '=', scan.id).execute()).toEqual(reports);
    const back = await device(keyA, { method: 'POST', url, payload: { status: 'ready' } });
    expect(back.statusCode).toBe(422);
    expect(back.json()).toEqual({ error: { status: 'The scan is already uploaded' } });
  });
});

describe('bad payloads: 422 naming the field, nothing partial stored', () => {
  it('names every missing field of a new scan', async () => {
    const before = await count('scans');
    const res = await device(keyA, { method: 'POST', url: '/api/scan/ingest/scans', payload: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { scan_id: 'Scan Id is required', device_id: 'Device is required', type: 'Type is required' } });
    const bad = await device(keyA, {
      method: 'POST',
      url: '/api/scan/ingest/scans',
      payload: newScan({ type: 'laser', timestamp: 'yesterday', location_state: 'XX', scan_id: 'a b', licensePlate: 'AB!12' }),
    });
    expect(bad.json()).toEqual({
      error: {
        scan_id: 'Scan Id may hold only letters, digits and . _ : -',
        type: 'The selected type is invalid',
        timestamp: 'Timestamp must be an ISO 8601 date-time, e.g. 2024-05-31T07:30:00Z',
        location_state: 'The selected location state is invalid',
        licensePlate: 'Registration may hold only letters and digits',
      },
    });
    const noDevice = await device(keyA, { method: 'POST', url: '/api/scan/ingest/scans', payload: newScan({ device_id: 999999 }) });
    expect(noDevice.json()).toEqual({ error: { device_id: 'The selected device is invalid' } });
    const noClient = await device(keyA, { method: 'POST', url: '/api/scan/ingest/scans', payload: newScan({ client_id: 999999 }) });
    expect(noClient.json()).toEqual({ error: { client_id: 'The selected client is invalid' } });
    // A client agent A does not serve (agent B's) is not one its devices may name.
    const foreign = await device(keyA, { method: 'POST', url: '/api/scan/ingest/scans', payload: newScan({ client_id: clientB.id }) });
    expect(foreign.json()).toEqual({ error: { client_id: 'The selected client is invalid' } });
    // A device's clock far off, and valuations written in no dollar form (or past the largest), are refused too.
    const offClock = await device(keyA, {
      method: 'POST',
      url: '/api/scan/ingest/scans',
      payload: newScan({ timestamp: '0001-01-01T00:00:00Z', startTime: '2090-01-01T00:00:00Z' }),
    });
    expect(offClock.json()).toEqual({
      error: {
        timestamp: 'Timestamp must be in 1900 or later',
        startTime: "Start Time must not be more than 24 hours ahead of now: check the device's clock",
      },
    });
    for (const [valuation, error] of [
      ['1,2,3', VALUATION_FORMAT_MESSAGE],
      ['0x10', VALUATION_FORMAT_MESSAGE],
      ['1e15', VALUATION_FORMAT_MESSAGE],
      [1e15, VALUATION_MAX_MESSAGE],
      ['200,000,000', VALUATION_MAX_MESSAGE],
      [true, 'Valuation must be a number'],
    ] as const) {
      const res = await device(keyA, { method: 'POST', url: '/api/scan/ingest/scans', payload: newScan({ valuation }) });
      expect(res.json(), String(valuation)).toEqual({ error: { valuation: error } });
    }
    expect(await count('scans')).toBe(before);
    // Within a day ahead (a device's clock a little fast) and '$15,900' are taken.
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const fast = await device(keyA, {
      method: 'POST',
      url: '/api/scan/ingest/scans',
      payload: newScan({ timestamp: soon, valuation: '$15,900' }),
    });
    expect(fast.statusCode, fast.body).toBe(201);
    expect(fast.json().data).toMatchObject({ valuation: 15900 });
  });

  it('refuses a results upload with one bad item and stores none of it', async () => {
    const scan = await create();
    const url = `/api/scan/ingest/scans/${scan.id}/results`;
    const cases: [unknown, Record<string, string>][] = [
      [
        { damages: [results.damages[0], { ...results.damages[1], level: 'catastrophic' }] },
        { 'damages.1.level': 'The selected level is invalid' },
      ],
      [
        { damages: [results.damages[0], { ...results.damages[1], carPanel: 'Left Door!' }] },
        { 'damages.1.carPanel': 'Car Panel must be a panel code like left_front_door' },
      ],
      [{ damages: [results.damages[0], { ...results.damages[0] }] }, { 'damages.1.id': 'Damage Id is repeated in this upload' }],
      [
        { damages: [{ id: 'x', carPanel: 'roof', type: 'dents', level: 'light' }] },
        { 'damages.0.width_mm': 'Width is required', 'damages.0.height_mm': 'Height is required' },
      ],
      [
        { damages: results.damages, tyres: [{ ...results.tyres[0], depths: [5, 55] }] },
        { 'tyres.0.depths.1': 'Depth must be less than 40' },
      ],
      [{ tyres: [{ ...results.tyres[0], direction: 'X' }] }, { 'tyres.0.direction': 'The selected direction is invalid' }],
    ];
    for (const [payload, error] of cases) {
      const res = await device(keyA, { method: 'PUT', url, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toEqual({ error });
    }
    expect(await count('scan_damages', scan.id)).toBe(0);
    expect(await count('scan_tyres', scan.id)).toBe(0);
    expect(await count('scan_measures', scan.id)).toBe(0);
  });

  it('refuses bad images and videos, keeping no file', async () => {
    const scan = await create();
    const url = `/api/scan/ingest/scans/${scan.id}`;
    await device(keyA, { method: 'PUT', url: `${url}/results`, payload: results });
    puts.length = 0;
    const cases: [Parameters<typeof formData>[0], string, Record<string, string>][] = [
      [{ kind: 'damage', file: { data: await pngImage(), filename: 'a.png' } }, 'images', { damage_id: 'Damage Id is required' }],
      [
        { kind: 'damage', damage_id: 'nope', file: { data: await pngImage(), filename: 'a.png' } },
        'images',
        { damage_id: 'The selected damage id is invalid: upload the results first' },
      ],
      [
        { kind: 'tyre_image', row: 9, direction: 'L', position: 'I', file: { data: await pngImage(), filename: 'a.png' } },
        'images',
        { row: 'The selected tyre is invalid: upload the results first' },
      ],
      [
        { kind: 'tyre_image', file: { data: await pngImage(), filename: 'a.png' } },
        'images',
        { row: 'Row is required', direction: 'Direction is required', position: 'Position is required' },
      ],
      // Each of the row's rules says its own message (rows are 1 to 10).
      [
        { kind: 'tyre_image', row: 99, direction: 'L', position: 'I', file: { data: await pngImage(), filename: 'a.png' } },
        'images',
        { row: 'Row must be less than 11' },
      ],
      [
        { kind: 'tyre_image', row: 0, direction: 'L', position: 'I', file: { data: await pngImage(), filename: 'a.png' } },
        'images',
        { row: 'Row must be greater than zero' },
      ],
      [
        { kind: 'tyre_image', row: '1.5', direction: 'L', position: 'I', file: { data: await pngImage(), filename: 'a.png' } },
        'images',
        { row: 'Row must be a whole number' },
      ],
      [
        { kind: 'tyre_image', row: 'front', direction: 'L', position: 'I', file: { data: await pngImage(), filename: 'a.png' } },
        'images',
        { row: 'Row must be a number' },
      ],
      [
        { kind: 'thumbnail', file: { data: 'not an image', filename: 'a.png' } },
        'images',
        { file: 'File must be a PNG, JPEG or WebP image' },
      ],
      [
        {
          kind: 'thumbnail',
          file: { data: '<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4"/></svg>', filename: 'a.png' },
        },
        'images',
        { file: 'File must be a PNG, JPEG or WebP image' },
      ],
      [{ kind: 'poster', file: { data: await pngImage(), filename: 'a.png' } }, 'images', { kind: 'The selected kind is invalid' }],
      [{ kind: 'thumbnail' }, 'images', { file: 'File is required' }],
      [{ video_id: 'v1', file: { data: await pngImage(), filename: 'v.mp4' } }, 'videos', { file: 'File must be an MP4 or WebM video' }],
      [{ file: { data: fs.readFileSync(SAMPLE_VIDEO_PATH), filename: 'v.webm' } }, 'videos', { video_id: 'Video Id is required' }],
    ];
    for (const [fields, path, error] of cases) {
      const res = await upload(keyA, `${url}/${path}`, fields);
      expect(res.statusCode, JSON.stringify(error)).toBe(422);
      expect(res.json()).toEqual({ error });
    }
    expect(puts.length).toBeGreaterThan(0);
    // Whatever was stored on the way (a checked image before its slot was refused) is gone again.
    for (const key of puts) expect(await t.app.storage.get(key), key).toBeNull();
    expect((await scanPage(scan.id)).meta).toBeNull();
    expect(await count('scan_videos', scan.id)).toBe(0);
  });
});

describe('who may ingest', () => {
  it('refuses calls without a key, with an unknown key, and with a sign-in token (401)', async () => {
    const url = '/api/scan/ingest/scans';
    expect((await t.app.inject({ method: 'POST', url, payload: newScan() })).statusCode).toBe(401);
    expect((await device('not-a-key', { method: 'POST', url, payload: newScan() })).statusCode).toBe(401);
    const signedIn = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA.id] })).email);
    const res = await device(signedIn, { method: 'POST', url, payload: newScan() });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthenticated.' });
  });

  it('refuses an API key on every route outside ingestion (401)', async () => {
    const scan = await create();
    for (const [method, url] of [
      ['GET', '/api/scan/scans'],
      ['GET', `/api/scan/scans/${scan.id}`],
      ['PUT', `/api/scan/scans/${scan.id}`],
      ['GET', '/api/agent/locations'],
      ['GET', '/api/user/auth/user'],
      ['GET', '/api/scan/scans/export-scan-report'],
    ] as const) {
      const res = await device(keyA, { method, url, payload: method === 'PUT' ? { make: 'X' } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    expect((await scanPage(scan.id)).make).toBe('Mazda');
  });

  it('refuses a device of agent A on agent B (403), storing nothing', async () => {
    const before = await count('scans');
    const res = await device(keyA, { method: 'POST', url: '/api/scan/ingest/scans', payload: newScan({ device_id: deviceB }) });
    expect(res.statusCode).toBe(403);
    expect(await count('scans')).toBe(before);
    const scanB = await create(keyB, { device_id: deviceB });
    const url = `/api/scan/ingest/scans/${scanB.id}`;
    expect((await device(keyA, { method: 'PUT', url: `${url}/results`, payload: results })).statusCode).toBe(403);
    expect(
      (await upload(keyA, `${url}/images`, { kind: 'thumbnail', file: { data: await pngImage(), filename: 'a.png' } })).statusCode,
    ).toBe(403);
    expect(
      (await upload(keyA, `${url}/videos`, { video_id: 'v', file: { data: fs.readFileSync(SAMPLE_VIDEO_PATH), filename: 'a.webm' } }))
        .statusCode,
    ).toBe(403);
    expect((await device(keyA, { method: 'POST', url: `${url}/status`, payload: { status: 'ready' } })).statusCode).toBe(403);
    expect(await count('scan_damages', scanB.id)).toBe(0);
    const page = await scanPage(scanB.id);
    expect(page.status).toBe('metadata');
    expect(page.meta).toBeNull();
    // And agent B's key does work on it.
    expect((await device(keyB, { method: 'POST', url: `${url}/status`, payload: { status: 'ready' } })).statusCode).toBe(200);
  });

  it("keeps a key user held to clients too to their clients' scans and devices (403 on the others, nothing changed)", async () => {
    // Agent A's user, held to client B: agent A's device serving client A is not theirs, one serving client B is.
    const deviceAB = (
      await t.build.device({ location_id: siteA.id, agent_id: agentA.id, default_client_id: clientB.id, serial: '5100000003' })
    ).id;
    const user = await t.build.user({ roles: ['Agent', 'Client'], agents: [agentA.id], clients: [clientB.id] });
    const res = await t.as(admin, { method: 'GET', url: `/api/user/users/${user.id}/apikey` });
    const key = res.json().data.token as string;
    const listed = await device(key, { method: 'GET', url: '/api/scan/ingest/devices' });
    expect(listed.json().data.map((d: { id: number }) => d.id)).toEqual([deviceAB]);

    const before = await count('scans');
    const refused = await device(key, { method: 'POST', url: '/api/scan/ingest/scans', payload: newScan({ device_id: deviceA }) });
    expect(refused.statusCode).toBe(403);
    expect(await count('scans')).toBe(before);
    // A client named that the user may not see is the body's mistake: 422 naming it, not the device's 403.
    const named = await device(key, {
      method: 'POST',
      url: '/api/scan/ingest/scans',
      payload: newScan({ device_id: deviceAB, client_id: clientA.id }),
    });
    expect(named.statusCode).toBe(422);
    expect(named.json()).toEqual({ error: { client_id: 'The selected client is invalid' } });
    expect(await count('scans')).toBe(before);
    const mine = await create(key, { device_id: deviceAB });
    expect(mine.client_id).toBe(clientB.id);

    // Client A's scan on agent A: neither read nor written.
    const other = await create(keyA, { device_id: deviceA });
    const url = `/api/scan/ingest/scans/${other.id}`;
    const status = await device(key, { method: 'POST', url: `${url}/status`, payload: { status: 'ready' } });
    expect(status.statusCode).toBe(403);
    expect(status.body).not.toContain(clientA.name);
    expect((await device(key, { method: 'PUT', url: `${url}/results`, payload: results })).statusCode).toBe(403);
    expect(
      (await upload(key, `${url}/images`, { kind: 'thumbnail', file: { data: await pngImage(), filename: 'a.png' } })).statusCode,
    ).toBe(403);
    expect(await count('scan_damages', other.id)).toBe(0);
    expect((await scanPage(other.id)).status).toBe('metadata');
    expect(
      (await device(key, { method: 'POST', url: `/api/scan/ingest/scans/${mine.id}/status`, payload: { status: 'ready' } })).statusCode,
    ).toBe(200);
  });

  it('answers 404 with the model text for a scan that does not exist', async () => {
    const res = await device(keyA, { method: 'POST', url: '/api/scan/ingest/scans/999999/status', payload: { status: 'ready' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'No query results for model [Scan] 999999' });
  });

  it('stops working once a new key is generated', async () => {
    const user = await t.build.user({ roles: ['Agent'], agents: [agentA.id] });
    const old = (await t.as(admin, { method: 'GET', url: `/api/user/users/${user.id}/apikey` })).json().data.token;
    await t.as(admin, { method: 'GET', url: `/api/user/users/${user.id}/apikey` });
    expect((await device(old, { method: 'GET', url: '/api/scan/ingest/devices' })).statusCode).toBe(401);
  });
});

describe('documentation', () => {
  it('documents every ingestion call in the OpenAPI page with an example or a description', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const paths = [
      '/api/scan/ingest/scans',
      '/api/scan/ingest/scans/{id}/results',
      '/api/scan/ingest/scans/{id}/images',
      '/api/scan/ingest/scans/{id}/videos',
      '/api/scan/ingest/scans/{id}/status',
    ];
    for (const p of paths) {
      const op = doc.paths[p].post ?? doc.paths[p].put;
      expect(op.summary, p).toBeTruthy();
      expect(op.tags).toEqual(['Scan ingestion (devices)']);
    }
    const create = doc.paths['/api/scan/ingest/scans'].post.requestBody.content['application/json'].schema;
    expect(create.example).toMatchObject({ scan_id: expect.any(String), device_id: 1, type: 'arch' });
    const upload = doc.paths['/api/scan/ingest/scans/{id}/images'].post;
    expect(Object.keys(upload.requestBody.content)).toContain('multipart/form-data');
  });
});
