import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileUrl, keyOfUrl } from '../../server/lib/storage';
import type { Broadcaster, ScanEvent } from '../../server/realtime/broadcaster';
import { createTestContext, formData, type TestContext } from './helper';
import { jpegImage, pngImage } from './image-fixtures';

/** The scan page's routes on the scan service (meta, car sketch, damage counts, saved images, tyre repairs). */
let t: TestContext;
let admin: string;
let agentUser: string;
let mine: { agent: number; client: number; scan: number };
let other: { agent: number; client: number; scan: number };
/** The list rows published as `updated` (further list columns travel with the product's fields). */
const updates: (ScanEvent & { dentCount?: number; scratchCount?: number })[] = [];

async function owned(tag: string) {
  const client = (await t.build.client({ name: `Page ${tag} client` })).id;
  const agent = (await t.build.agent({ name: `Page ${tag} agent`, default_client_id: client })).id;
  const scan = (await t.build.scan({ agent_id: agent, client_id: client, status: 'uploaded' })).id;
  return { agent, client, scan };
}

/** Every table's row count and content digest, to show a refused call changed nothing. */
async function digest() {
  const tables = ['scans', 'scan_measures', 'scan_annotates', 'scan_files', 'scan_tyre_repairs', 'webhook_deliveries', 'agent_uploads'];
  const parts = tables.map(
    (name) =>
      sql<{
        d: string;
      }>`select ${name}::text || count(*) || ':' || coalesce(sum(hashtextextended(x::text, 0)::numeric), 0) as d from ${sql.table(name)} x`,
  );
  return (await sql<{ d: string }>`${sql.join(parts, sql` union all `)}`.execute(t.db)).rows.map((r) => r.d).join('|');
}

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  mine = await owned('mine');
  other = await owned('other');
  agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [mine.agent] })).email);
  const holder = t.app as FastifyInstance & { broadcaster?: Broadcaster };
  const real = holder.broadcaster;
  holder.broadcaster = {
    scanCreated: async (scan) => real?.scanCreated(scan),
    async scanUpdated(scan) {
      updates.push(scan);
      await real?.scanUpdated(scan);
    },
    portalScanSaved: async (agentId, scan) => real?.portalScanSaved(agentId, scan),
    revoke: async (r) => real?.revoke(r),
    close: async () => real?.close(),
  };
  const group = (await t.build.panelGroup({ name: 'Front', position: 1 })).id;
  const rear = (await t.build.panelGroup({ name: 'Rear', position: 2 })).id;
  await t.build.panel({ panel_group_id: group, name: 'Bonnet', label: 'B', car_panel: 'bonnet', position: 1 });
  await t.build.panel({ panel_group_id: group, name: 'Front Bumper', label: 'FB', car_panel: 'front_bumper', position: 2 });
  await t.build.panel({ panel_group_id: rear, name: 'Boot Lid', label: 'BL', car_panel: 'boot_lid', position: 1 });
});

const inject = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.as(token, { method, url, payload: payload as string | undefined });

describe('GET meta/{id} and GET archData/search', () => {
  it("answers the scan's meta images, or null without them", async () => {
    await t.db
      .updateTable('scans')
      .set({ meta_thumbnail: '/api/user/files/aa.png', meta_src: '/api/user/files/bb.png' })
      .where('id', '=', mine.scan)
      .execute();
    const res = await inject(agentUser, 'GET', `/api/scan/meta/${mine.scan}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: mine.scan,
      thumbnailImagePathUrl: '/api/user/files/aa.png',
      srcImagePathUrl: '/api/user/files/bb.png',
    });
    const bare = (await t.build.scan({ agent_id: mine.agent, client_id: mine.client })).id;
    expect((await inject(admin, 'GET', `/api/scan/meta/${bare}`)).json()).toEqual({ data: null });
    expect((await inject(agentUser, 'GET', `/api/scan/meta/${other.scan}`)).json().error).toBe(
      `No query results for model [Scan] ${other.scan}`,
    );
  });

  it('groups the counts by measure into the panel groups of the sketch, with totals and per-level counts', async () => {
    const scan = (await t.build.scan({ agent_id: mine.agent, client_id: mine.client })).id;
    await t.db
      .insertInto('scan_measures')
      .values([
        { scan_id: scan, car_panel: 'bonnet', type: 'dents', level: 'light', count: 3 },
        { scan_id: scan, car_panel: 'bonnet', type: 'dents', level: 'heavy', count: 1 },
        { scan_id: scan, car_panel: 'bonnet', type: 'scratchs', level: 'medium', count: 2 },
        { scan_id: scan, car_panel: 'boot_lid', type: 'scratchs', level: 'oversize', count: 1 },
        { scan_id: scan, car_panel: 'mystery_panel', type: 'dents', level: 'light', count: 4 },
      ])
      .execute();
    const res = await inject(agentUser, 'GET', `/api/scan/archData/search?scan_id=${scan}&arch_id=x`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.countbymeasure.dents.bonnet).toEqual({ light: 3, medium: 0, heavy: 1, severe: 0, oversize: 0 });
    expect(data.countbymeasure.damage_count).toEqual({ bonnet: 6, boot_lid: 1, mystery_panel: 4 });
    const front = data.panel_groups.find((g: { name: string }) => g.name === 'Front');
    expect(front).toMatchObject({ dent_total: 4, scratch_total: 2, dents: { light: 3, heavy: 1 }, scratchs: { medium: 2 } });
    expect(
      front.panels.map((p: { carPanel: string; dent_count: number; scratch_count: number }) => [p.carPanel, p.dent_count, p.scratch_count]),
    ).toEqual([
      ['bonnet', 4, 2],
      ['front_bumper', 0, 0],
    ]);
    expect(data.panel_groups.find((g: { name: string }) => g.name === 'Rear')).toMatchObject({ dent_total: 0, scratch_total: 1 });
    expect(data.unplaced).toEqual(['mystery_panel']);
    expect((await inject(agentUser, 'GET', `/api/scan/archData/search?scan_id=${other.scan}`)).statusCode).toBe(404);
    expect((await inject(agentUser, 'GET', '/api/scan/archData/search?scan_id=abc')).json().error).toEqual({
      scan_id: 'Scan must be an id',
    });
  });
});

describe('POST scans/arch/edit-damage-count', () => {
  const url = '/api/scan/scans/arch/edit-damage-count';

  it('sets the levels sent, keeps the others, recomputes the totals, queues the webhook and publishes the list row', async () => {
    const scan = (await t.build.scan({ agent_id: mine.agent, client_id: mine.client, status: 'uploaded' })).id;
    await t.build.webhook({ agent_id: mine.agent, events: ['scan.updated'] });
    await t.db
      .insertInto('scan_measures')
      .values([
        { scan_id: scan, car_panel: 'bonnet', type: 'dents', level: 'light', count: 5 },
        { scan_id: scan, car_panel: 'bonnet', type: 'dents', level: 'medium', count: 2 },
        { scan_id: scan, car_panel: 'roof', type: 'scratchs', level: 'light', count: 1 },
      ])
      .execute();
    await inject(admin, 'POST', `/api/scan/scans/${scan}/refresh`);
    updates.length = 0;
    const deliveries = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries
          where event = 'scan.updated' and (payload -> 'data' ->> 'id')::int = ${scan}`.execute(t.db)
      ).rows[0].n;
    const queuedBefore = await deliveries();

    const res = await inject(agentUser, 'POST', url, {
      scan_id: scan,
      car_panel: 'bonnet',
      dents: { light: 1, heavy: 4 },
      scratchs: { severe: 2 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.measures.dents.bonnet).toEqual({ light: 1, medium: 2, heavy: 4, severe: 0, oversize: 0 });
    expect(data.measures.scratchs.bonnet).toMatchObject({ severe: 2 });
    expect([data.dentCount, data.scratchCount, data.damageCount]).toEqual([7, 3, 10]);
    const row = await t.db.selectFrom('scans').select(['dent_count', 'scratch_count']).where('id', '=', scan).executeTakeFirstOrThrow();
    expect(row).toEqual({ dent_count: 7, scratch_count: 3 });
    expect(updates.map((u) => [u.id, u.dentCount, u.scratchCount])).toEqual([[scan, 7, 3]]);
    expect((await deliveries()) - queuedBefore).toBe(1);

    // A level set to 0 removes its row; the totals follow again.
    await inject(agentUser, 'POST', url, { scan_id: scan, car_panel: 'bonnet', dents: { light: 0, medium: 0, heavy: 0 } });
    const left = await t.db
      .selectFrom('scan_measures')
      .select(['car_panel', 'type', 'level', 'count'])
      .where('scan_id', '=', scan)
      .orderBy('car_panel')
      .execute();
    expect(left).toEqual([
      { car_panel: 'bonnet', type: 'scratchs', level: 'severe', count: 2 },
      { car_panel: 'roof', type: 'scratchs', level: 'light', count: 1 },
    ]);
    const list = (await inject(admin, 'GET', `/api/scan/scans?agent_id=${mine.agent}&per_page=100`)).json().items;
    expect(list.find((s: { id: number }) => s.id === scan)).toMatchObject({ dentCount: 0, scratchCount: 3, damageCount: 3 });
  });

  it('refuses bad counts with 422 on the field and changes nothing', async () => {
    const scan = mine.scan;
    const before = await digest();
    const bad: [unknown, string][] = [
      [{ scan_id: scan, car_panel: 'bonnet', dents: { light: 1000 } }, 'dents.light'],
      [{ scan_id: scan, car_panel: 'bonnet', dents: { light: -1 } }, 'dents.light'],
      [{ scan_id: scan, car_panel: 'bonnet', dents: { light: 1.5 } }, 'dents.light'],
      [{ scan_id: scan, car_panel: 'bonnet', dents: { light: '2' } }, 'dents.light'],
      [{ scan_id: scan, car_panel: 'bonnet', dents: { Light: 2 } }, 'dents'],
      [{ scan_id: scan, car_panel: 'bonnet', scratchs: { tiny: 2 } }, 'scratchs'],
      [{ scan_id: scan, car_panel: 'bonnet' }, 'dents'],
      [{ scan_id: scan, car_panel: 'Bonnet!', dents: { light: 1 } }, 'car_panel'],
      [{ scan_id: scan, car_panel: 'not_a_panel', dents: { light: 1 } }, 'car_panel'],
      [{ car_panel: 'bonnet', dents: { light: 1 } }, 'scan_id'],
    ];
    for (const [payload, field] of bad) {
      const res = await inject(admin, 'POST', url, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(typeof res.json().error[field], `${JSON.stringify(payload)} -> ${res.body}`).toBe('string');
    }
    // The app asks for message keys: the rule messages come back translatable.
    const keyed = await t.as(admin, {
      method: 'POST',
      url,
      headers: { 'x-message-keys': '1' },
      payload: { scan_id: scan, car_panel: 'not_a_panel', dents: { light: 1 } },
    });
    expect(keyed.json().messages).toEqual({ car_panel: { key: 'app.validation.choice' } });
    const over = await t.as(admin, {
      method: 'POST',
      url,
      headers: { 'x-message-keys': '1' },
      payload: { scan_id: scan, car_panel: 'bonnet', dents: { heavy: 1000 } },
    });
    expect(over.json()).toEqual({
      error: { 'dents.heavy': 'Heavy must be less than 1000' },
      messages: { 'dents.heavy': { key: 'app.validation.max', params: { max: 1000 } } },
    });
    expect(await digest()).toBe(before);
  });

  it("gives an Agent user the model's 404 for another agent's scan, and changes nothing", async () => {
    const before = await digest();
    const res = await inject(agentUser, 'POST', url, { scan_id: other.scan, car_panel: 'bonnet', dents: { light: 9 } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(`No query results for model [Scan] ${other.scan}`);
    expect(await digest()).toBe(before);
  });
});

describe('POST and DELETE scans/{id}/annotates', () => {
  it('stores a checked image as a saved image, replaces it with edit, and deletes it with its file', async () => {
    const scan = (await t.build.scan({ agent_id: mine.agent, client_id: mine.client })).id;
    const created = await t.as(agentUser, {
      method: 'POST',
      url: `/api/scan/scans/${scan}/annotates`,
      ...(await formData({
        scan_id: String(scan),
        edit: '0',
        file: { data: await jpegImage(), filename: 'crop.jpg', type: 'image/jpeg' },
      })),
    });
    expect(created.statusCode, created.body).toBe(201);
    const saved = created.json().data;
    expect(saved).toMatchObject({ vehicle_photo: false, src: fileUrl(saved.path) });
    expect(saved.path).toMatch(/^[0-9a-f]{32}\.jpg$/);
    const file = await t.app.inject({ method: 'GET', url: saved.src });
    expect(file.headers['content-type']).toBe('image/jpeg');
    const detail = (await inject(agentUser, 'GET', `/api/scan/scans/${scan}`)).json().data;
    expect(detail.annotates).toEqual([saved]);
    const uploads = await t.db.selectFrom('agent_uploads').select(['agent_id']).where('key', '=', saved.path).execute();
    expect(uploads).toEqual([{ agent_id: mine.agent }]);

    const edited = await t.as(agentUser, {
      method: 'POST',
      url: `/api/scan/scans/${scan}/annotates`,
      ...(await formData({
        edit: '1',
        image_id: String(saved.id),
        file: { data: await pngImage(), filename: 'annotated.png', type: 'image/png' },
      })),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ id: saved.id });
    // A saved image is a photograph: an SVG, however clean, is refused.
    const svg = await t.as(agentUser, {
      method: 'POST',
      url: `/api/scan/scans/${scan}/annotates`,
      ...(await formData({
        file: { data: '<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4"/></svg>', filename: 'a.svg' },
      })),
    });
    expect([svg.statusCode, svg.json().error]).toEqual([422, { file: 'File must be a PNG, JPEG or WebP image' }]);
    expect(edited.json().data.path).toMatch(/\.png$/);
    // The replaced file left storage and the scan's files.
    expect(await t.app.storage.get(saved.path)).toBeNull();
    const files = await t.db.selectFrom('scan_files').select('key').where('scan_id', '=', scan).execute();
    expect(files.map((f) => f.key)).toEqual([edited.json().data.path]);

    const gone = await inject(agentUser, 'DELETE', `/api/scan/scans/${scan}/annotates/${saved.id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await t.app.storage.get(edited.json().data.path)).toBeNull();
    expect((await inject(agentUser, 'GET', `/api/scan/scans/${scan}`)).json().data.annotates).toEqual([]);
    expect((await inject(agentUser, 'DELETE', `/api/scan/scans/${scan}/annotates/${saved.id}`)).json().error).toBe(
      `No query results for model [ScanImage] ${saved.id}`,
    );
    // The history names the image by its number on the scan, as the strip counts them, not by its row id.
    const history = (await inject(agentUser, 'GET', `/api/scan/scans/${scan}/history`)).json().data as {
      action: string;
      before: object;
      after: object;
    }[];
    expect(history.map(({ action, before, after }) => ({ action, before, after }))).toEqual([
      { action: 'scan.image_saved', before: { saved_image: null }, after: { saved_image: 1 } },
      { action: 'scan.image_saved', before: { saved_image: null }, after: { saved_image: 1 } },
      { action: 'scan.image_deleted', before: { saved_image: 1 }, after: { saved_image: null } },
    ]);
  });

  it('refuses a file that is not an image by its bytes, a missing file and an edit of an image the scan lacks; nothing kept', async () => {
    const scan = (await t.build.scan({ agent_id: mine.agent, client_id: mine.client })).id;
    const foreignImage = (await t.build.annotate({ scan_id: other.scan })).id;
    const before = await digest();
    const post = async (fields: Parameters<typeof formData>[0]) =>
      t.as(agentUser, { method: 'POST', url: `/api/scan/scans/${scan}/annotates`, ...(await formData(fields)) });
    const html = await post({ file: { data: '<html><script>alert(1)</script></html>', filename: 'x.jpg', type: 'image/jpeg' } });
    expect(html.statusCode).toBe(422);
    expect(html.json().error).toEqual({ file: 'File must be a PNG, JPEG or WebP image' });
    expect((await post({ edit: '1' })).json().error).toMatchObject({ image_id: 'Image is required' });
    expect((await post({ file: { data: 'x', filename: 'x.txt' } })).statusCode).toBe(422);
    expect((await post({ edit: '0' })).json().error).toEqual({ file: 'File is required' });
    const stolen = await post({
      edit: '1',
      image_id: String(foreignImage),
      file: { data: await pngImage(), filename: 'a.png', type: 'image/png' },
    });
    expect(stolen.statusCode).toBe(422);
    expect(stolen.json().error).toEqual({ image_id: 'The selected image is invalid' });
    expect((await post({ edit: 'maybe', file: { data: await pngImage(), filename: 'a.png' } })).json().error).toEqual({
      edit: 'Edit must be true or false',
    });
    expect(await digest()).toBe(before);
  });

  it("refuses an Agent user another agent's scan and its images (404), storing and deleting nothing", async () => {
    const theirs = (await t.build.annotate({ scan_id: other.scan })).id;
    const before = await digest();
    const put = await t.as(agentUser, {
      method: 'POST',
      url: `/api/scan/scans/${other.scan}/annotates`,
      ...(await formData({ file: { data: await pngImage(), filename: 'a.png', type: 'image/png' } })),
    });
    expect(put.statusCode).toBe(404);
    expect((await inject(agentUser, 'DELETE', `/api/scan/scans/${other.scan}/annotates/${theirs}`)).statusCode).toBe(404);
    // Their image named under my own scan is not mine either.
    expect((await inject(agentUser, 'DELETE', `/api/scan/scans/${mine.scan}/annotates/${theirs}`)).statusCode).toBe(404);
    expect(await digest()).toBe(before);
  });
});

describe('PUT scans/{id}/tyre-repairs', () => {
  it('keeps one choice per wheel, replaces it, clears it, and shows the choices with the scan', async () => {
    const scan = (await t.build.scan({ agent_id: mine.agent, client_id: mine.client, type: 'tire' })).id;
    await t.build.tyre({ scan_id: scan, row: 1, direction: 'L', label: 'FRONT LEFT' });
    await t.build.tyre({ scan_id: scan, row: 1, direction: 'R', label: 'FRONT RIGHT' });
    await t.build.tyre({ scan_id: scan, row: 2, direction: 'R', label: 'REAR RIGHT' });
    const url = `/api/scan/scans/${scan}/tyre-repairs`;
    expect((await inject(agentUser, 'PUT', url, { row: 1, direction: 'L', repair_type: 'repair' })).statusCode).toBe(200);
    await inject(agentUser, 'PUT', url, { row: 2, direction: 'R', repair_type: 'replace' });
    const res = await inject(agentUser, 'PUT', url, { row: 1, direction: 'L', repair_type: 'recheck' });
    expect(res.json().data).toEqual([
      { row: 1, direction: 'L', position: 'left', label: 'FRONT LEFT', repair_type: 'recheck', repair_label: 'Recheck Next Visit' },
      { row: 2, direction: 'R', position: 'right', label: 'REAR RIGHT', repair_type: 'replace', repair_label: 'Replace' },
    ]);
    await inject(agentUser, 'PUT', url, { row: 2, direction: 'R', repair_type: null });
    expect((await inject(agentUser, 'GET', `/api/scan/scans/${scan}`)).json().data.tyre_repairs).toEqual([
      { row: 1, direction: 'L', position: 'left', label: 'FRONT LEFT', repair_type: 'recheck', repair_label: 'Recheck Next Visit' },
    ]);
    const before = await digest();
    expect((await inject(agentUser, 'PUT', url, { row: 3, direction: 'L', repair_type: 'repair' })).json().error).toEqual({
      row: 'The selected tyre is invalid',
    });
    expect((await inject(agentUser, 'PUT', url, { row: 1, direction: 'L', repair_type: 'Fix' })).json().error).toEqual({
      repair_type: 'The selected repair type is invalid',
    });
    expect((await inject(agentUser, 'PUT', url, { row: 1, direction: 'X', repair_type: 'repair' })).statusCode).toBe(422);
    expect(
      (await inject(agentUser, 'PUT', `/api/scan/scans/${other.scan}/tyre-repairs`, { row: 1, direction: 'L', repair_type: 'repair' }))
        .statusCode,
    ).toBe(404);
    expect(await digest()).toBe(before);
  });
});

describe('the files route serves byte ranges (video seeking)', () => {
  it('reads only the range from the local store, and slices the whole file from a store that cannot', async () => {
    const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 256));
    const key = await t.app.storage.put(data, 'video/mp4');
    const storage = t.app.storage;
    const reads: string[] = [];
    const original = { get: storage.get.bind(storage), getRange: storage.getRange!.bind(storage), stat: storage.stat!.bind(storage) };
    storage.get = async (k) => (reads.push('whole'), original.get(k));
    storage.getRange = async (k, a, b) => (reads.push(`range ${a}-${b}`), original.getRange(k, a, b));
    try {
      const res = await t.app.inject({ method: 'GET', url: fileUrl(key), headers: { range: 'bytes=4000-4099' } });
      expect([res.statusCode, res.headers['content-range'], res.headers['content-type']]).toEqual([
        206,
        'bytes 4000-4099/5000',
        'video/mp4',
      ]);
      expect(res.rawPayload.equals(data.subarray(4000, 4100))).toBe(true);
      expect(reads).toEqual(['range 4000-4099']);
      reads.length = 0;
      storage.stat = undefined;
      const sliced = await t.app.inject({ method: 'GET', url: fileUrl(key), headers: { range: 'bytes=4000-4099' } });
      expect([sliced.statusCode, sliced.headers['content-range']]).toEqual([206, 'bytes 4000-4099/5000']);
      expect(sliced.rawPayload.equals(data.subarray(4000, 4100))).toBe(true);
      expect(reads).toEqual(['whole']);
      const none = await t.app.inject({ method: 'GET', url: fileUrl(key), headers: { range: 'bytes=6000-' } });
      expect([none.statusCode, none.headers['content-range']]).toEqual([416, 'bytes */5000']);
    } finally {
      Object.assign(storage, original);
    }
    const missing = await t.app.inject({ method: 'GET', url: fileUrl('0'.repeat(32) + '.mp4'), headers: { range: 'bytes=0-1' } });
    expect(missing.statusCode).toBe(404);
  });

  it('answers a range with 206 and Content-Range, a suffix and an open range, and 416 outside the file', async () => {
    const data = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    const key = await t.app.storage.put(Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), data]), 'video/webm');
    const url = fileUrl(key);
    const size = 1004;
    const whole = await t.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.length).toBe(size);

    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${size}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.headers['content-type']).toBe('video/webm');
    expect(part.rawPayload.equals(whole.rawPayload.subarray(100, 200))).toBe(true);

    const suffix = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-4' } });
    expect([suffix.statusCode, suffix.headers['content-range']]).toEqual([206, `bytes 1000-1003/${size}`]);
    const open = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=1000-' } });
    expect([open.statusCode, open.headers['content-range'], open.rawPayload.length]).toEqual([206, `bytes 1000-1003/${size}`, 4]);
    const past = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=990-5000' } });
    expect([past.statusCode, past.headers['content-range']]).toEqual([206, `bytes 990-1003/${size}`]);

    for (const range of ['bytes=5000-', 'bytes=300-200', 'bytes=-0', 'bytes=abc', 'bytes=-']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { range } });
      expect(res.statusCode, range).toBe(416);
      expect(res.headers['content-range'], range).toBe(`bytes */${size}`);
    }
    // Several ranges, or another unit: the whole file (RFC 9110 lets a server ignore Range).
    for (const range of ['bytes=0-1,5-6', 'items=0-1'])
      expect((await t.app.inject({ method: 'GET', url, headers: { range } })).statusCode).toBe(200);
    expect(keyOfUrl(url)).toBe(key);
  });
});
