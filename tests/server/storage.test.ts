import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { checkImage, IMAGE_MAX_BYTES, sanitizeSvg, type UploadedFile } from '../../server/lib/images';
import S3rver from 's3rver';
import { createStorage, FILE_KEY, localStorage, s3Storage } from '../../server/lib/storage';
import { ValidationError } from '../../server/errors';
import { createTestContext, formData, type TestContext } from './helper';
import { bombPng, hostileSvg, jpegImage, pngImage, webpImage } from './image-fixtures';

const upload = (data: Buffer | string, truncated = false): UploadedFile => ({
  filename: 'x.png',
  mimetype: 'image/png',
  data: Buffer.from(data),
  truncated,
});
const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ValidationError);
  return (e as ValidationError).body;
};

describe('the S3-compatible storage (@aws-sdk/client-s3 against s3rver)', () => {
  let server: S3rver;
  let endpoint: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-s3rver-'));
  // s3rver's one built-in key pair.
  const settings = () => ({ endpoint, bucket: 'scan-files', region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });

  beforeAll(async () => {
    server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'scan-files' }] });
    const address = await server.run();
    endpoint = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('puts, gets and deletes objects; a missing key is null and deleting it again is no error', async () => {
    const storage = s3Storage(settings());
    const png = await pngImage();
    const key = await storage.put(png, 'image/png');
    expect(key).toMatch(FILE_KEY);
    expect(key.endsWith('.png')).toBe(true);
    // The object is really in the bucket, under the key, with its type.
    const raw = await fetch(`${endpoint}/scan-files/${key}`);
    expect(raw.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await raw.arrayBuffer()).equals(png)).toBe(true);
    const got = await storage.get(key);
    expect(got?.contentType).toBe('image/png');
    expect(got?.size).toBe(png.length);
    expect(got?.data.equals(png)).toBe(true);
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    await storage.delete(key);
    expect(await storage.get(`${'0'.repeat(32)}.png`)).toBeNull();
  });

  it('reads a byte range: the part asked for, and the whole size', async () => {
    const storage = s3Storage(settings());
    const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    const key = await storage.put(data, 'video/mp4');
    const part = await storage.get(key, { start: 100, end: 1099 });
    expect(part?.size).toBe(5000);
    expect(part?.data.length).toBe(1000);
    expect(part?.data.equals(data.subarray(100, 1100))).toBe(true);
    // What the files route's Range replies use: the size, then only the bytes asked for.
    expect(await storage.stat!(key)).toEqual({ size: 5000, contentType: 'video/mp4' });
    expect((await storage.getRange!(key, 10, 19))?.equals(data.subarray(10, 20))).toBe(true);
    expect(await storage.stat!(`${'0'.repeat(32)}.mp4`)).toBeNull();
    const tail = await storage.get(key, { start: 4990 });
    expect(tail?.data.equals(data.subarray(4990))).toBe(true);
    // The local storage answers the same.
    const local = localStorage(path.join(dir, 'local'));
    const localKey = await local.put(data, 'video/mp4');
    expect((await local.get(localKey, { start: 100, end: 1099 }))?.data.equals(part!.data)).toBe(true);
    expect((await local.get(localKey, { start: 100, end: 1099 }))?.size).toBe(5000);
  });

  it('fails loudly when the bucket is not there, on a write and on a read', async () => {
    const storage = s3Storage({ ...settings(), bucket: 'no-such-bucket' });
    await expect(storage.put(Buffer.from('x'), 'image/png')).rejects.toThrow(/S3 PUT failed: 404 .*bucket/i);
    // A missing bucket is not a missing file.
    await expect(storage.get(`${'0'.repeat(32)}.png`)).rejects.toThrow(/S3 GET failed: 404/);
  });

  it('serves a file uploaded through one instance from another, both on the bucket', async () => {
    const env = {
      S3_BUCKET: 'scan-files',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
    const a = createStorage(loadConfig(env));
    const b = createStorage(loadConfig(env));
    const png = await pngImage();
    const key = await a.put(png, 'image/png');
    expect((await b.get(key))?.data.equals(png)).toBe(true);
  });

  it('is chosen when all S3_* settings are given; half a configuration is refused and named', () => {
    const env = {
      S3_BUCKET: 'scan-files',
      S3_ENDPOINT: 'https://s3.example.test',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'a',
      S3_SECRET_ACCESS_KEY: 'b',
    };
    expect(loadConfig(env).S3_BUCKET).toBe('scan-files');
    const { S3_REGION: _r, S3_SECRET_ACCESS_KEY: _s, ...half } = env;
    expect(() => loadConfig(half)).toThrow(ConfigError);
    expect(() => loadConfig(half)).toThrow(/S3_REGION: is required when any S3_\* setting is set[\s\S]*S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ ...env, S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT: must be an http\(s\) URL/);
  });
});

describe('the local storage', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-storage-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stores under server-made names in DATA_DIR/files and ignores names it did not make', async () => {
    const storage = createStorage(loadConfig({ DATA_DIR: dir }));
    const key = await storage.put(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
    expect(key).toMatch(/^[0-9a-f]{32}\.svg$/);
    expect(fs.existsSync(path.join(dir, 'files', key))).toBe(true);
    expect((await storage.get(key))?.contentType).toBe('image/svg+xml');
    for (const bad of ['../../etc/passwd', `${key}/..`, 'x.png']) expect(await storage.get(bad)).toBeNull();
    await storage.delete(key);
    await storage.delete(key);
    expect(await localStorage(path.join(dir, 'files')).get(key)).toBeNull();
  });
});

describe('image checks', () => {
  it('accepts PNG, JPEG and WebP by their bytes, whatever the client called them', async () => {
    expect((await checkImage(upload(await pngImage()), 'logo', 'Logo')).contentType).toBe('image/png');
    expect((await checkImage({ ...upload(await jpegImage()), mimetype: 'text/plain' }, 'logo', 'Logo')).contentType).toBe('image/jpeg');
    expect((await checkImage(upload(await webpImage()), 'logo', 'Logo')).contentType).toBe('image/webp');
  });

  it('stores a photo without its metadata (GPS, camera), turned upright as its orientation said; keeps a clean file as it is', async () => {
    const photo = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#c33' } })
      .withExif({ IFD0: { Make: 'SpyCam', Model: 'Serial 0042' }, IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '37/1 48/1 0/1' } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const before = await sharp(photo).metadata();
    expect(before.exif).toBeDefined();
    expect(before.orientation).toBe(6);
    expect(photo.includes(Buffer.from('SpyCam'))).toBe(true);
    for (const [data, format] of [
      [photo, 'jpeg'],
      [
        await sharp(photo)
          .rotate()
          .withExif({ IFD0: { Make: 'SpyCam' } })
          .png()
          .toBuffer(),
        'png',
      ],
      [
        await sharp(photo)
          .rotate()
          .withExif({ IFD0: { Make: 'SpyCam' } })
          .webp()
          .toBuffer(),
        'webp',
      ],
    ] as const) {
      const stored = await checkImage(upload(data), 'image', 'Image');
      const after = await sharp(stored.data).metadata();
      expect(after.format, format).toBe(format);
      expect(after.exif, format).toBeUndefined();
      expect(after.orientation, format).toBeUndefined();
      expect(stored.data.includes(Buffer.from('SpyCam')), format).toBe(false);
      // Upright: the 40 x 20 picture tagged "rotate 90°" is stored 20 x 40.
      expect([after.width, after.height], format).toEqual([20, 40]);
    }
    const clean = await pngImage();
    expect((await checkImage(upload(clean), 'image', 'Image')).data.equals(clean)).toBe(true);
  });

  it('refuses a text file renamed .png, naming the field', async () => {
    expect(await refusal(checkImage(upload('just some text, honest'), 'logo', 'Logo'))).toEqual({
      logo: 'Logo must be a PNG, JPEG, WebP or SVG image',
    });
  });

  it('refuses a file over 5 MB', async () => {
    const big = Buffer.concat([await pngImage(), Buffer.alloc(IMAGE_MAX_BYTES)]);
    expect(await refusal(checkImage(upload(big), 'image', 'Image'))).toEqual({ image: 'Image must be less than 5 MB' });
    expect(await refusal(checkImage(upload(await pngImage(), true), 'image', 'Image'))).toEqual({ image: 'Image must be less than 5 MB' });
  });

  it('refuses a decompression bomb from its header, without decoding it', async () => {
    const bomb = bombPng();
    expect(bomb.length).toBeLessThan(200_000);
    const started = Date.now();
    expect(await refusal(checkImage(upload(bomb), 'image', 'Image'))).toEqual({ image: 'Image must be less than 25 megapixels' });
    expect(Date.now() - started).toBeLessThan(2000);
    // Under sharp's own limit too: 6000 x 5000 = 30 megapixels.
    expect(await refusal(checkImage(upload(bombPng(6000, 5000)), 'image', 'Image'))).toEqual({
      image: 'Image must be less than 25 megapixels',
    });
  });

  it('refuses a PNG whose header is cut short', async () => {
    const png = await pngImage();
    expect(await refusal(checkImage(upload(png.subarray(0, 20)), 'logo', 'Logo'))).toEqual({ logo: 'Logo is not a valid image' });
  });

  it('sanitises an SVG: no script, foreignObject, event handler or outside reference survives', async () => {
    const checked = await checkImage(upload(hostileSvg), 'logo', 'Logo');
    expect(checked.contentType).toBe('image/svg+xml');
    const text = checked.data.toString('utf8');
    for (const bad of ['<script', 'alert', 'foreignObject', 'onload', 'onclick', 'javascript:', 'evil.example', '<image', 'html inside'])
      expect(text).not.toContain(bad);
    expect(text).toContain('viewBox="0 0 100 50"');
    expect(text).toContain('<rect');
    expect(text).toContain('stroke="url(#g)"');
    expect(text).toMatch(/^<svg/);
  });

  it('refuses SVGs with entity declarations (billion laughs, external entities)', async () => {
    const entities = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>';
    expect(sanitizeSvg(entities)).toBeNull();
    expect(await refusal(checkImage(upload(entities), 'logo', 'Logo'))).toEqual({ logo: 'Logo is not a valid image' });
    expect(sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
    );
  });
});

describe('files over HTTP', () => {
  let t: TestContext;
  let admin: string;
  let other: string;
  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
    other = await t.login((await t.build.user({ permissions: ['scan'] })).email);
  });

  const uploadAs = async (token: string, file: { data: Buffer | string; filename: string; type?: string }) =>
    t.as(token, { method: 'POST', url: '/api/user/file/upload', ...(await formData({ file })) });

  it('uploads an image (signed-in) and serves it to whoever holds its name with nosniff, its type and long private caching', async () => {
    const png = await pngImage();
    const res = await uploadAs(other, { data: png, filename: 'photo.exe', type: 'application/x-msdownload' });
    expect(res.statusCode).toBe(201);
    const { key, url } = res.json().data;
    expect(key).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(url).toBe(`/api/user/files/${key}`);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(served.rawPayload.equals(png)).toBe(true);
  });

  it('serves an SVG sanitised and sandboxed', async () => {
    const res = await uploadAs(other, { data: hostileSvg, filename: 'logo.svg', type: 'image/svg+xml' });
    expect(res.statusCode).toBe(201);
    const served = await t.app.inject({ method: 'GET', url: res.json().data.url });
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.body).not.toMatch(/script|onload|javascript:/i);
  });

  it('refuses uploads that are not images, too large or bombs, with 422 on the field', async () => {
    const text = await uploadAs(other, { data: 'hello, I am text', filename: 'evil.png', type: 'image/png' });
    expect(text.statusCode).toBe(422);
    expect(text.json()).toEqual({ error: { file: 'File must be a PNG, JPEG, WebP or SVG image' } });
    const big = await uploadAs(other, {
      data: Buffer.concat([await pngImage(), Buffer.alloc(IMAGE_MAX_BYTES)]),
      filename: 'big.png',
      type: 'image/png',
    });
    expect(big.statusCode).toBe(422);
    expect(big.json()).toEqual({ error: { file: 'File must be less than 5 MB' } });
    const bomb = await uploadAs(other, { data: bombPng(), filename: 'bomb.png', type: 'image/png' });
    expect(bomb.statusCode).toBe(422);
    expect(bomb.json()).toEqual({ error: { file: 'File must be less than 25 megapixels' } });
    const none = await t.as(other, { method: 'POST', url: '/api/user/file/upload', ...(await formData({ note: 'no file' })) });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toEqual({ error: { file: 'File is required' } });
    expect(await t.db.selectFrom('uploaded_files').select('key').where('content_type', '=', 'text/plain').execute()).toEqual([]);
  });

  it('needs a sign-in to upload and answers 404 for unknown or malformed names', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/user/file/upload',
      ...(await formData({ file: { data: await pngImage(), filename: 'a.png' } })),
    });
    expect(anonymous.statusCode).toBe(401);
    for (const key of [`${'0'.repeat(32)}.png`, '..%2F..%2Fetc%2Fpasswd', 'x.png']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/user/files/${key}` });
      expect(res.statusCode, key).toBe(404);
      expect(res.json().error).toMatch(/^No query results for model \[File\]/);
    }
  });

  it('lets only the uploader or a Super Admin delete a file uploaded with file/upload', async () => {
    const mine = (await uploadAs(other, { data: await pngImage(), filename: 'a.png' })).json().data;
    const third = await t.login((await t.build.user({ permissions: ['scan'] })).email);
    const refused = await t.as(third, { method: 'POST', url: '/api/user/file/delete', payload: { key: mine.key } });
    expect(refused.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: mine.url })).statusCode).toBe(200);
    const ok = await t.as(other, { method: 'POST', url: '/api/user/file/delete', payload: { key: mine.url } });
    expect(ok.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: mine.url })).statusCode).toBe(404);
    const theirs = (await uploadAs(other, { data: await pngImage(), filename: 'b.png' })).json().data;
    expect((await t.as(admin, { method: 'POST', url: '/api/user/file/delete', payload: { key: theirs.key } })).statusCode).toBe(200);
  });
});
