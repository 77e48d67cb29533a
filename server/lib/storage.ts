import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { IMAGE_WIDTHS } from '../../src/domain/images';
import type { Signer } from './signing';

/** The stored file types, by the extension of their server-made names. */
export const FILE_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
} as const;
/** Other stored files: scan videos, report PDFs and exports; served like images, never sniffed as one. */
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
/**
 * A sized copy of a stored raster image: the original's name with the copy's width (`<name>.w320.webp`). Never served
 * by its own name: only through the original's URL (`?w=`), so it has exactly the original's readers.
 */
export const SIZED_KEY = /^([0-9a-f]{32})\.(png|jpg|webp)\.w(\d{2,4})\.webp$/;
export const sizedKey = (key: string, width: number) => `${key}.w${width}.webp`;
/** Names the store keeps: server-made originals and their sized copies. */
const isStoredKey = (key: string) => FILE_KEY.test(key) || SIZED_KEY.test(key);
/** Raster images get sized copies; SVGs scale by themselves. */
export const isSizableKey = (key: string) => FILE_KEY.test(key) && /\.(png|jpg|webp)$/.test(key);
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

/**
 * Documents (quote PDFs, scan report PDFs, which mails attach) carry prices and client names: served only to a
 * signed-in user whose data scope reaches their scan or quote, by bearer token or a signed link.
 */
export const DOCUMENT_EXTENSIONS = ['pdf'] as const;
export const isDocumentKey = (key: string) => (DOCUMENT_EXTENSIONS as readonly string[]).includes(key.slice(key.lastIndexOf('.') + 1));
/** How long the signed document links of the scan and quote services' replies work: a page's use, opened or downloaded. */
export const DOCUMENT_LINK_MINUTES = 30;

/** `/api/user/files/<key>?expires=&uid=&sig=`: the browser's download link, valid `minutes` (FILE_LINK_MINUTES) for that user's file. */
export function signedFileUrl(signer: Signer, key: string, userId: number, now = Date.now(), minutes = FILE_LINK_MINUTES) {
  const expires = Math.floor(now / 1000) + minutes * 60;
  const sig = signer.sign(FILE_LINK_PURPOSE, `${key}|${userId}|${expires}`);
  return `${fileUrl(key)}?expires=${expires}&uid=${userId}&sig=${sig}`;
}

/** The user a signed link was made for, or null when it is not ours, altered or expired. */
export function signedFileUser(signer: Signer, key: string, link: { expires: string; uid: string; sig: string }, now = Date.now()) {
  if (Number(link.expires) * 1000 <= now) return null;
  return signer.verify(FILE_LINK_PURPOSE, `${key}|${link.uid}|${link.expires}`, link.sig) ? Number(link.uid) : null;
}

/**
 * `value` with every plain URL of a stored document in it (strings equal to `/api/user/files/<key>.pdf`, at any depth)
 * replaced by a link signed for `userId` (DOCUMENT_LINK_MINUTES): the browser opens documents through plain links,
 * which carry no bearer token. Other values are returned as they are; objects holding no document are not copied.
 */
export function signDocumentUrls<T>(value: T, signer: Signer, userId: number, now = Date.now()): T {
  const sign = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const key = keyOfUrl(v);
      return key && isDocumentKey(key) ? signedFileUrl(signer, key, userId, now, DOCUMENT_LINK_MINUTES) : v;
    }
    if (Array.isArray(v)) {
      const items: unknown[] = v;
      let copy: unknown[] | null = null;
      items.forEach((item, i) => {
        const signed = sign(item);
        if (signed !== item) (copy ??= [...items])[i] = signed;
      });
      return copy ?? items;
    }
    if (v && typeof v === 'object' && !Buffer.isBuffer(v) && !(v instanceof Date)) {
      let copy: Record<string, unknown> | null = null;
      for (const [k, item] of Object.entries(v)) {
        const signed = sign(item);
        if (signed !== item) (copy ??= { ...v })[k] = signed;
      }
      return copy ?? v;
    }
    return v;
  };
  return sign(value) as T;
}

/**
 * Signs the document URLs of every JSON reply of the calling plugin's routes for the signed-in user (the scan and
 * quote services). Only object replies pass here: the list pages PostgreSQL writes, kept in the per-scope page cache,
 * arrive as text and hold no document, so a link signed for one user is never kept for another.
 */
export function signDocumentUrlsOfReplies(app: FastifyInstance) {
  app.addHook('preSerialization', async (request, _reply, payload) => {
    if (!request.user || !payload || typeof payload !== 'object') return payload;
    return signDocumentUrls(payload, app.signer, request.user.id);
  });
}

const extensionOf = (contentType: string): FileExtension => {
  const ext = (Object.keys(STORED_TYPES) as FileExtension[]).find((e) => STORED_TYPES[e] === contentType);
  if (!ext) throw new Error(`Cannot store content type ${contentType}`);
  return ext;
};
const typeOf = (key: string) => STORED_TYPES[key.slice(key.lastIndexOf('.') + 1) as FileExtension];
/** The sized copies an image's deletion takes along (every width a copy may have been made at). */
const copiesOf = (key: string, widths: readonly number[]) => (isSizableKey(key) ? widths.map((w) => sizedKey(key, w)) : []);
const newKey = (contentType: string) => `${randomBytes(16).toString('hex')}.${extensionOf(contentType)}`;

export interface StoredFile {
  data: Buffer;
  contentType: string;
  /** The whole file's size in bytes (with a range, `data` holds only that part). */
  size: number;
}
/** Bytes `start` to `end` inclusive (HTTP Range's convention); without `end`, to the end of the file. */
export interface ByteRange {
  start: number;
  end?: number;
}
/** Where uploads live: a local directory or an S3-compatible bucket. */
export interface FileStorage {
  /** Stores the bytes under a new server-made name and returns it. */
  put(data: Buffer, contentType: string): Promise<string>;
  /** Stores a sized copy (`sizedKey`) of a stored image, replacing any copy of that name. */
  putCopy(key: string, data: Buffer): Promise<void>;
  /** The file, or the part of it `range` names (clipped to the file); null when missing. */
  get(key: string, range?: ByteRange): Promise<StoredFile | null>;
  /** Removes the file and its sized copies; a missing one is not an error. */
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
    async putCopy(key, data) {
      if (!SIZED_KEY.test(key)) throw new Error(`Not a sized copy: ${key}`);
      await fs.mkdir(dir, { recursive: true });
      // Written aside then renamed, so a reader never gets half a copy when two requests make it at once.
      const aside = path.join(dir, `${key}.${randomBytes(6).toString('hex')}.part`);
      await fs.writeFile(aside, data, { mode: 0o644 });
      await fs.rename(aside, path.join(dir, key));
    },
    async get(key, range) {
      if (!isStoredKey(key)) return null;
      try {
        const data = await fs.readFile(path.join(dir, key));
        const part = range ? data.subarray(range.start, range.end === undefined ? undefined : range.end + 1) : data;
        return { data: part, contentType: typeOf(key), size: data.length };
      } catch (e) {
        if (isMissing(e)) return null;
        throw e;
      }
    },
    async delete(key) {
      if (!FILE_KEY.test(key)) return;
      for (const name of [key, ...copiesOf(key, IMAGE_WIDTHS)])
        await fs.unlink(path.join(dir, name)).catch((e) => {
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

/** The status of a failed S3 call (404 for a missing key), or undefined for a failure before any answer. */
const statusOf = (e: unknown) => (e instanceof S3ServiceException ? e.$metadata.httpStatusCode : undefined);
/** A missing key, not a missing bucket (also 404), which is a fault. */
const isNoSuchKey = (e: unknown) => e instanceof S3ServiceException && e.name === 'NoSuchKey';

/** An S3-compatible bucket through the AWS SDK (`@aws-sdk/client-s3`), path-style URLs (`<endpoint>/<bucket>/<key>`). */
export function s3Storage(s: S3Settings): FileStorage {
  const client = new S3Client({
    endpoint: s.endpoint,
    region: s.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    // Checksums only where S3 requires them: S3-compatible servers (MinIO, s3rver, Ceph) do not all read the newer trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  const fail = (what: string, e: unknown): never => {
    throw new Error(`S3 ${what} failed: ${statusOf(e) ?? ''} ${(e as Error).message}`.slice(0, 300));
  };
  return {
    async put(data, contentType) {
      const key = newKey(contentType);
      await client
        .send(new PutObjectCommand({ Bucket: s.bucket, Key: key, Body: data, ContentType: contentType, ContentLength: data.length }))
        .catch((e: unknown) => fail('PUT', e));
      return key;
    },
    async putCopy(key, data) {
      if (!SIZED_KEY.test(key)) throw new Error(`Not a sized copy: ${key}`);
      await client
        .send(new PutObjectCommand({ Bucket: s.bucket, Key: key, Body: data, ContentType: 'image/webp', ContentLength: data.length }))
        .catch((e: unknown) => fail('PUT', e));
    },
    async get(key, range) {
      if (!isStoredKey(key)) return null;
      try {
        const res = await client.send(
          new GetObjectCommand({
            Bucket: s.bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
          }),
        );
        const data = Buffer.from((await res.Body?.transformToByteArray()) ?? []);
        // "bytes 0-9/1234": the whole size after the slash.
        const size = Number(/\/(\d+)$/.exec(res.ContentRange ?? '')?.[1] ?? data.length);
        return { data, contentType: typeOf(key), size };
      } catch (e) {
        if (isNoSuchKey(e)) return null;
        return fail('GET', e);
      }
    },
    async stat(key) {
      if (!FILE_KEY.test(key)) return null;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: s.bucket, Key: key }));
        return { size: head.ContentLength ?? 0, contentType: typeOf(key) };
      } catch (e) {
        // HEAD has no body: a missing key is a bare 404 ('NotFound').
        if (isNoSuchKey(e) || (e instanceof S3ServiceException && e.name === 'NotFound')) return null;
        return fail('HEAD', e);
      }
    },
    async getRange(key, start, end) {
      return (await this.get(key, { start, end }))?.data ?? null;
    },
    async delete(key) {
      if (!FILE_KEY.test(key)) return;
      for (const name of [key, ...copiesOf(key, IMAGE_WIDTHS)]) {
        try {
          await client.send(new DeleteObjectCommand({ Bucket: s.bucket, Key: name }));
        } catch (e) {
          if (!isNoSuchKey(e)) fail('DELETE', e);
        }
      }
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
