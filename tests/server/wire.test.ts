import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickEncoding } from '../../server/plugins/compress';
import { precompressDir } from '../../scripts/precompress';
import { createTestContext, type TestContext } from './helper';

/**
 * Bytes on the wire: the build's precompressed copies served by Accept-Encoding, hashed assets cached for a year,
 * index.html revalidated, JSON replies above 1 kB compressed per request.
 */
let t: TestContext;
let admin: string;
let dist: string;
const js = `export const rows = [${Array.from({ length: 800 }, (_, i) => `{ id: ${i}, name: "Row number ${i}" }`).join(', ')}];\n`;
const html = `<!doctype html><html><head><title>ScanQuote</title>${'<meta name="x" content="padding">'.repeat(60)}</head><body><div id="root"></div></body></html>`;
// A PNG signature and some incompressible bytes: images are never compressed again.
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4000, 7)]);

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), html);
  fs.writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js'), js);
  fs.writeFileSync(path.join(dist, 'assets', 'tiny-Zz99.js'), 'export const a = 1;\n');
  fs.writeFileSync(path.join(dist, 'assets', 'logo-Xy12.png'), png);
  await precompressDir(dist);
  t = await createTestContext({ STATIC_DIR: dist });
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
});
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

const get = (url: string, acceptEncoding?: string, token?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

describe('precompressDir (the build step)', () => {
  it('writes .br and .gz beside text files of 1 kB or more, and none beside images or tiny files', () => {
    const files = fs.readdirSync(path.join(dist, 'assets')).sort();
    expect(files).toEqual(['index-Ab12Cd34.js', 'index-Ab12Cd34.js.br', 'index-Ab12Cd34.js.gz', 'logo-Xy12.png', 'tiny-Zz99.js']);
    expect(fs.existsSync(path.join(dist, 'index.html.br'))).toBe(true);
    expect(brotliDecompressSync(fs.readFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js.br'))).toString()).toBe(js);
    expect(gunzipSync(fs.readFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js.gz'))).toString()).toBe(js);
  });
});

describe('the built app on the wire', () => {
  it('sends a hashed asset as brotli to a browser that accepts it, cached for a year', async () => {
    const res = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(js.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(js);
  });

  it('sends gzip when brotli is not accepted, and the plain file when nothing is', async () => {
    const gz = await get('/assets/index-Ab12Cd34.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);
    const plain = await get('/assets/index-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body).toBe(js);
  });

  it('sends images as stored, without a second compression', async () => {
    const res = await get('/assets/logo-Xy12.png', 'gzip, br');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.equals(png)).toBe(true);
  });

  it('sends index.html, for / and for any app route, to be revalidated on every start', async () => {
    for (const url of ['/', '/login', '/scans/12']) {
      const res = await get(url, 'gzip, br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(html);
    }
    const direct = await get('/index.html');
    expect(direct.headers['cache-control']).toBe('no-cache');
    expect(direct.body).toBe(html);
  });

  it("answers 404 for a missing asset (an old build's chunk), not index.html", async () => {
    const res = await get('/assets/gone-Old123.js', 'br');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not Found' });
  });
});

describe('JSON replies', () => {
  beforeAll(async () => {
    const agent = await t.build.agent();
    for (let i = 0; i < 30; i++) await t.build.location({ agent_id: agent.id, name: `Depot with a long enough name ${i}` });
  });

  it('compresses a page above 1 kB with brotli or gzip as accepted; the body is the same JSON', async () => {
    const url = '/api/agent/locations?page=1&per_page=25';
    const plain = await get(url, undefined, admin);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.json().items).toHaveLength(25);

    const br = await get(url, 'gzip, deflate, br', admin);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await get(url, 'gzip', admin);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('compresses a large reply (over 64 kB, off the event loop) the same way', async () => {
    const plain = await get('/api/docs/json');
    expect(plain.body.length).toBeGreaterThan(64 * 1024);
    const br = await get('/api/docs/json', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await get('/api/docs/json', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
  });

  it('leaves small replies alone', async () => {
    const res = await get('/api/health', 'gzip, br');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('pickEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('gzip;q=0, br;q=0')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });

  it('answers the same for a value seen before, and past its cache of 64 values', () => {
    const values = Array.from({ length: 130 }, (_, i) => (i % 2 ? `gzip;q=0.${(i % 9) + 1}, x-${i}` : `br;q=0, identity, x-${i}`));
    const first = values.map(pickEncoding);
    expect(new Set(first)).toEqual(new Set(['gzip', null]));
    expect(values.map(pickEncoding)).toEqual(first);
    expect(pickEncoding('gzip;q=0, br;q=0')).toBeNull();
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
  });
});
