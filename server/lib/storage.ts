import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { sha256Hex, signV4 } from './sigv4';
import type { Signer } from './signing';

/** The stored file types, by the extension of their server-made names. */
export const FILE_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
} as const;
/** Other stored files: scan videos, report PDFs and exports (issue 4); served like images, never sniffed as one. */
export const DOCUMENT_TYPES = {
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  webm: 'video/webm',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;
const STORED_TYPES = { ...FILE_TYPES, ...DOCUMENT_TYPES };
export type FileExtension = keyof typeof STORED_TYPES;

/** Server-made names: 128 random bits and the extension of the checked type, nothing from the client. */
export const FILE_KEY = /^[0-9a-f]{32}\.(png|jpg|webp|svg|pdf|mp4|webm|csv|xlsx)$/;
/** Where the user service serves stored files; records keep this URL. */
export const FILES_PATH = '/api/user/files/';
export const fileUrl = (key: string) => `${FILES_PATH}${key}`;
/** The key of one of our file URLs, or null for anything else. */
export const keyOfUrl = (url: unknown) => {
  if (typeof url !== 'string' || !url.startsWith(FILES_PATH)) return null;
  const key = url.slice(FILES_PATH.length);
  return FILE_KEY.test(key) ? key : null;
};

/** Exports (scan lists as CSV / XLSX) are private: served only to their maker, by bearer token or a signed link. */
export const PRIVATE_EXTENSIONS = ['csv', 'xlsx'] as const;
export const isPrivateKey = (key: string) => (PRIVATE_EXTENSIONS as readonly string[]).includes(key.slice(key.lastIndexOf('.') + 1));
/** How long a signed download link works. */
export const FILE_LINK_MINUTES = 10;
const FILE_LINK_PURPOSE = 'file';

/** `/api/user/files/<key>?expires=&uid=&sig=`: the browser's download link, valid FILE_LINK_MINUTES for that user's file. */
export function signedFileUrl(signer: Signer, key: string, userId: number, now = Date.now()) {
  const expires = Math.floor(now / 1000) + FILE_LINK_MINUTES * 60;
  const sig = signer.sign(FILE_LINK_PURPOSE, `${key}|${userId}|${expires}`);
  return `${fileUrl(key)}?expires=${expires}&uid=${userId}&sig=${sig}`;
}

/** The user a signed link was made for, or null when it is not ours, altered or expired. */
export function signedFileUser(signer: Signer, key: string, link: { expires: string; uid: string; sig: string }, now = Date.now()) {
  if (Number(link.expires) * 1000 <= now) return null;
  return signer.verify(FILE_LINK_PURPOSE, `${key}|${link.uid}|${link.expires}`, link.sig) ? Number(link.uid) : null;
}

const extensionOf = (contentType: string): FileExtension => {
  const ext = (Object.keys(STORED_TYPES) as FileExtension[]).find((e) => STORED_TYPES[e] === contentType);
  if (!ext) throw new Error(`Cannot store content type ${contentType}`);
  return ext;
};
const typeOf = (key: string) => STORED_TYPES[key.slice(key.lastIndexOf('.') + 1) as FileExtension];
const newKey = (contentType: string) => `${randomBytes(16).toString('hex')}.${extensionOf(contentType)}`;

export interface StoredFile {
  data: Buffer;
  contentType: string;
}
/** Where uploads live: a local directory or an S3-compatible bucket. */
export interface FileStorage {
  /** Stores the bytes under a new server-made name and returns it. */
  put(data: Buffer, contentType: string): Promise<string>;
  get(key: string): Promise<StoredFile | null>;
  /** Removes the file; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Optional, for Range requests (the scan page's video player): the size of a stored file and bytes `start`..`end`
   * (inclusive) of it without reading the rest. Without them the files route reads the file whole and slices it.
   */
  stat?(key: string): Promise<{ size: number; contentType: string } | null>;
  getRange?(key: string, start: number, end: number): Promise<Buffer | null>;
}

const isMissing = (e: unknown) => (e as { code?: string }).code === 'ENOENT';

export function localStorage(dir: string): FileStorage {
  return {
    async put(data, contentType) {
      const key = newKey(contentType);
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, key), data, { flag: 'wx', mode: 0o644 });
      return key;
    },
    async get(key) {
      if (!FILE_KEY.test(key)) return null;
      try {
        return { data: await fs.readFile(path.join(dir, key)), contentType: typeOf(key) };
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    },
    async delete(key) {
      if (!FILE_KEY.test(key)) return;
      await fs.unlink(path.join(dir, key)).catch((e) => {
        if (!isMissing(e)) throw e;
      });
    },
    async stat(key) {
      if (!FILE_KEY.test(key)) return null;
      try {
        return { size: (await fs.stat(path.join(dir, key))).size, contentType: typeOf(key) };
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    },
    async getRange(key, start, end) {
      if (!FILE_KEY.test(key)) return null;
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(path.join(dir, key), 'r');
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
      try {
        const data = Buffer.alloc(end - start + 1);
        const { bytesRead } = await handle.read(data, 0, data.length, start);
        return data.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
  };
}

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** An S3-compatible bucket through path-style URLs (`<endpoint>/<bucket>/<key>`), signed with SigV4. */
export function s3Storage(s: S3Settings, fetchImpl: typeof fetch = fetch): FileStorage {
  const creds = { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey, region: s.region, service: 's3' };
  const base = s.endpoint.replace(/\/+$/, '');
  const call = async (method: 'PUT' | 'GET' | 'DELETE', key: string, body?: Buffer, contentType?: string) => {
    const url = new URL(`${base}/${s.bucket}/${key}`);
    const payloadHash = sha256Hex(body ?? '');
    const headers: Record<string, string> = { 'x-amz-content-sha256': payloadHash };
    if (contentType) headers['content-type'] = contentType;
    // fetch sets Host itself (from the same URL), so it is signed but not passed on.
    const { host: _host, ...signed } = signV4({ method, url, headers, payloadHash }, creds);
    return fetchImpl(url, { method, headers: signed, body: body ? new Uint8Array(body) : undefined });
  };
  const fail = async (what: string, res: Response) => {
    throw new Error(`S3 ${what} failed: ${res.status} ${(await res.text().catch(() => '')).slice(0, 200)}`);
  };
  return {
    async put(data, contentType) {
      const key = newKey(contentType);
      const res = await call('PUT', key, data, contentType);
      if (!res.ok) await fail('PUT', res);
      return key;
    },
    async get(key) {
      if (!FILE_KEY.test(key)) return null;
      const res = await call('GET', key);
      if (res.status === 404) return null;
      if (!res.ok) await fail('GET', res);
      return { data: Buffer.from(await res.arrayBuffer()), contentType: typeOf(key) };
    },
    async delete(key) {
      if (!FILE_KEY.test(key)) return;
      const res = await call('DELETE', key);
      if (!res.ok && res.status !== 404) await fail('DELETE', res);
    },
  };
}

export type StorageConfig = Pick<
  Config,
  'DATA_DIR' | 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY'
>;

/** The bucket when the S3_* settings are given (config validates they come together), else DATA_DIR/files. */
export function createStorage(c: StorageConfig): FileStorage {
  if (c.S3_BUCKET && c.S3_ENDPOINT && c.S3_REGION && c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY) {
    return s3Storage({
      endpoint: c.S3_ENDPOINT,
      bucket: c.S3_BUCKET,
      region: c.S3_REGION,
      accessKeyId: c.S3_ACCESS_KEY_ID,
      secretAccessKey: c.S3_SECRET_ACCESS_KEY,
    });
  }
  return localStorage(path.join(c.DATA_DIR, 'files'));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's file storage, decorated once by buildApp from the configuration. */
    storage: FileStorage;
  }
}

/** The app's storage, shared by its services (decorated by buildApp). */
export const storageOf = (app: FastifyInstance): FileStorage => app.storage;
