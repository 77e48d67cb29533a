import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { keyOfUrl, sizedKey } from '../../server/lib/storage';
import { sizedChoice } from '../../server/services/user/files-service';
import { createTestContext, formData, type TestContext } from './helper';
import { jpegImage, pngImage } from './image-fixtures';

let t: TestContext;
let admin: string;
let apiKey: string;
let otherAgentUser: string;
let scanId: number;

const upload = async (url: string, fields: Parameters<typeof formData>[0]) => {
  const form = await formData(fields);
  return t.app.inject({ method: 'POST', url, payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${apiKey}` } });
};
const file = (url: string, accept = 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8') =>
  t.app.inject({ method: 'GET', url, headers: { accept } });
/** Every stored-file URL anywhere in a reply. */
const fileUrls = (reply: unknown) => [...JSON.stringify(reply).matchAll(/\/api\/user\/files\/[0-9a-f]{32}\.\w+/g)].map((m) => m[0]);

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  const client = await t.build.client({ name: 'Sizes client' });
  const agent = await t.build.agent({ name: 'Sizes agent', default_client_id: client.id });
  const other = await t.build.agent({ name: 'Sizes other agent', default_client_id: client.id });
  const site = await t.build.location({ name: 'Sizes site', state: 'NSW', agent_id: agent.id });
  const device = await t.build.device({ location_id: site.id, agent_id: agent.id, default_client_id: client.id, serial: '5200000001' });
  const user = await t.build.user({ roles: ['Agent'], agents: [agent.id] });
  const res = await t.as(admin, { method: 'GET', url: `/api/user/users/${user.id}/apikey` });
  apiKey = res.json().data.token as string;
  otherAgentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [other.id] })).email);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/scan/ingest/scans',
    headers: { authorization: `Bearer ${apiKey}` },
    payload: {
      scan_id: `SIZES-${Date.now()}`,
      device_id: device.id,
      type: 'arch',
      timestamp: '2024-05-31T07:30:00Z',
      startTime: '2024-05-31T07:29:00Z',
      licensePlate: 'SZ 12',
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  scanId = created.json().data.id;
  const results = await t.app.inject({
    method: 'PUT',
    url: `/api/scan/ingest/scans/${scanId}/results`,
    headers: { authorization: `Bearer ${apiKey}` },
    payload: { damages: [{ id: 'd-1', carPanel: 'bonnet', type: 'dents', level: 'medium', width_mm: 20, height_mm: 10 }] },
  });
  expect(results.statusCode, results.body).toBe(200);
});

describe('sized copies of stored images', () => {
  it('stores a 320 and a 1280 px WebP copy beside an ingested image, which the scan reply lets the browser ask for', async () => {
    const res = await upload(`/api/scan/ingest/scans/${scanId}/images`, {
      kind: 'damage',
      damage_id: 'd-1',
      file: { data: await pngImage(2000, 1000), filename: 'd.png', type: 'image/png' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const url: string = res.json().data.url;
    const key = keyOfUrl(url)!;
    for (const [width, height] of [
      [320, 160],
      [1280, 640],
    ]) {
      const copy = await t.app.storage.get(sizedKey(key, width));
      expect(copy, `${width}`).not.toBeNull();
      expect(await sharp(copy!.data).metadata()).toMatchObject({ format: 'webp', width, height });
    }

    const scan = await t.as(admin, { method: 'GET', url: `/api/scan/scans/${scanId}` });
    expect(fileUrls(scan.json())).toContain(url);
    const small = await file(`${url}?w=320`);
    expect(small.statusCode).toBe(200);
    // A capability URL like its original: cached by the browser only, never by a shared cache.
    expect(small.headers).toMatchObject({
      'content-type': 'image/webp',
      vary: 'accept',
      'cache-control': 'private, max-age=31536000, immutable',
    });
    expect(await sharp(small.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 320 });
    expect(small.rawPayload.length).toBeLessThan((await t.app.storage.get(key))!.data.length);
  });

  it('never makes a copy wider than the original, and keeps the original for a browser without WebP', async () => {
    const res = await upload(`/api/scan/ingest/scans/${scanId}/images`, {
      kind: 'thumbnail',
      file: { data: await jpegImage(), filename: 't.jpg', type: 'image/jpeg' },
    });
    const url: string = res.json().data.url;
    const big = await file(`${url}?w=1280`);
    expect(await sharp(big.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 30 });
    const old = await file(`${url}?w=320`, 'image/png,image/jpeg;q=0.9');
    expect(old.headers['content-type']).toBe('image/jpeg');
    expect(old.rawPayload.equals((await t.app.storage.get(keyOfUrl(url)!))!.data)).toBe(true);
    expect((await file(`${url}?w=500`)).statusCode).toBe(422);
  });

  it('makes the copy of an image stored before copies existed on its first request, and keeps it', async () => {
    const key = await t.app.storage.put(await pngImage(800, 400), 'image/png');
    expect(await t.app.storage.get(sizedKey(key, 320))).toBeNull();
    const res = await file(`/api/user/files/${key}?w=320`);
    expect(res.statusCode).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 320, height: 160 });
    expect((await t.app.storage.get(sizedKey(key, 320)))!.data.equals(res.rawPayload)).toBe(true);
  });

  it("gives a copy only to whoever may have its original: never by the copy's own name, gone with the original", async () => {
    const res = await upload(`/api/scan/ingest/scans/${scanId}/images`, {
      kind: 'vehicle_photo',
      image_id: 'p-1',
      file: { data: await pngImage(640, 480), filename: 'p.png', type: 'image/png' },
    });
    const url: string = res.json().data.url;
    const key = keyOfUrl(url)!;
    // A user outside the scan's agent never gets the reply that names the image.
    expect((await t.as(otherAgentUser, { method: 'GET', url: `/api/scan/scans/${scanId}` })).statusCode).toBe(404);
    expect((await file(`/api/user/files/${sizedKey(key, 320)}`)).statusCode).toBe(404);
    expect((await file(`/api/user/files/${key.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}?w=320`)).statusCode).toBe(404);

    const deleted = await t.as(admin, { method: 'DELETE', url: `/api/scan/scans/${scanId}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await t.app.storage.get(sizedKey(key, 320))).toBeNull();
    expect(await t.app.storage.get(sizedKey(key, 1280))).toBeNull();
    expect((await file(`${url}?w=320`)).statusCode).toBe(404);
  });

  it('keeps the rules of documents, exports and SVGs when a width is asked for: w changes only what a raster image sends', async () => {
    const storage = t.app.storage;
    const pdf = await storage.put(Buffer.from('%PDF-1.4\n% sizes\n'), 'application/pdf');
    const csv = await storage.put(Buffer.from('a,b\n'), 'text/csv; charset=utf-8');
    for (const key of [pdf, csv]) {
      const plain = await file(`/api/user/files/${key}`);
      const sized = await file(`/api/user/files/${key}?w=320`);
      expect(sized.statusCode, key).toBe(plain.statusCode);
      expect(sized.statusCode, key).toBe(401);
      const signedIn = await t.as(otherAgentUser, { method: 'GET', url: `/api/user/files/${key}?w=320` });
      expect([403, 404], key).toContain(signedIn.statusCode);
    }
    const svg = await storage.put(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'image/svg+xml');
    const vector = await file(`/api/user/files/${svg}?w=320`);
    expect(vector.headers['content-type']).toBe('image/svg+xml');
    expect(vector.headers['content-security-policy']).toBeDefined();

    const png = await storage.put(await pngImage(800, 400), 'image/png');
    const download = await file(`/api/user/files/${png}?w=320&download=car.png`);
    expect(download.headers).toMatchObject({ 'content-type': 'image/png', 'content-disposition': 'attachment; filename="car.png"' });
  });
});

describe('sizedChoice', () => {
  const key = '0123456789abcdef0123456789abcdef.jpg';
  it('sends the copy when the browser takes WebP, else the original, and says the reply turns on Accept', () => {
    expect(sizedChoice(key, 640, 'image/avif,image/webp,*/*')).toEqual({ width: 640, varies: true });
    expect(sizedChoice(key, 640, undefined)).toEqual({ width: 640, varies: true });
    expect(sizedChoice(key, 640, 'image/png,image/jpeg')).toEqual({ width: null, varies: true });
  });
  it('sends the original without a width, for a download, and for files without copies', () => {
    expect(sizedChoice(key, undefined, '*/*')).toEqual({ width: null, varies: false });
    expect(sizedChoice(key, 320, '*/*', 'car.jpg')).toEqual({ width: null, varies: false });
    for (const other of ['0123456789abcdef0123456789abcdef.svg', '0123456789abcdef0123456789abcdef.pdf', `${key}.w320.webp`])
      expect(sizedChoice(other, 320, '*/*')).toEqual({ width: null, varies: false });
  });
});
