import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import { ValidationError } from '../../errors';
import { isUploadedFile } from '../../lib/images';
import { type FileStorage, keyOfUrl } from '../../lib/storage';
import { releaseAgentUploads } from '../../lib/upload-quota';

/** Scan videos up to 50 MB, MP4 or WebM by their first bytes. */
export const VIDEO_MAX_BYTES = 50 * 1024 * 1024;

/** The video's type from its magic bytes: WebM (an EBML header naming the webm doctype) or MP4 (an ftyp box). */
export function sniffVideo(data: Buffer): 'video/webm' | 'video/mp4' | null {
  if (data.length >= 4 && data.readUInt32BE(0) === 0x1a45dfa3 && data.subarray(0, 64).includes('webm', 0, 'latin1')) return 'video/webm';
  if (data.length >= 12 && data.subarray(4, 8).toString('latin1') === 'ftyp') return 'video/mp4';
  return null;
}

export function checkVideo(file: unknown, field: string, label: string) {
  if (!isUploadedFile(file)) throw new ValidationError({ [field]: `${label} must be a video file` });
  if (file.truncated || file.data.length > VIDEO_MAX_BYTES)
    throw new ValidationError({ [field]: `${label} must be less than ${VIDEO_MAX_BYTES / 1024 / 1024} MB` });
  const type = sniffVideo(file.data);
  if (!type) throw new ValidationError({ [field]: `${label} must be an MP4 or WebM video` });
  return { data: file.data, contentType: type };
}

/** Every stored file a scan's rows name. */
async function usedKeys(trx: Executor, scanId: number) {
  const r = await sql<{ url: string | null }>`
    select meta_thumbnail as url from scans where id = ${scanId} union select meta_src from scans where id = ${scanId}
    union select image from scan_damages where scan_id = ${scanId}
    union select measurement_image from scan_tyres where scan_id = ${scanId} union select image_file from scan_tyres where scan_id = ${scanId}
    union select src from scan_videos where scan_id = ${scanId} union select thumbnail from scan_videos where scan_id = ${scanId}
    union select src from scan_annotates where scan_id = ${scanId}
    union select url from scan_reports where scan_id = ${scanId}`.execute(trx);
  return new Set(r.rows.map((row) => keyOfUrl(row.url)).filter((k): k is string => !!k));
}

/**
 * Brings scan_files in line with what the scan's rows name, in the write's transaction; returns the keys
 * the scan no longer uses (to release once the transaction has committed).
 */
export async function syncScanFiles(trx: Executor, scanId: number): Promise<string[]> {
  const used = await usedKeys(trx, scanId);
  const linked = (await sql<{ key: string }>`select key from scan_files where scan_id = ${scanId}`.execute(trx)).rows.map((r) => r.key);
  const gone = linked.filter((k) => !used.has(k));
  const added = [...used].filter((k) => !linked.includes(k));
  if (gone.length) await sql`delete from scan_files where scan_id = ${scanId} and key = any(${gone}::text[])`.execute(trx);
  if (added.length)
    await sql`insert into scan_files (scan_id, key) select ${scanId}, unnest(${added}::text[]) on conflict do nothing`.execute(trx);
  return gone;
}

/** Removes from storage the files no scan uses any more (the demo scans share files, so a key may still be in use). */
export async function releaseFiles(db: Executor, storage: FileStorage, keys: string[], log?: FastifyBaseLogger) {
  if (!keys.length) return;
  const still = new Set(
    (await sql<{ key: string }>`select distinct key from scan_files where key = any(${keys}::text[])`.execute(db)).rows.map((r) => r.key),
  );
  const removed = keys.filter((k) => !still.has(k));
  for (const key of removed) await storage.delete(key).catch((err: unknown) => log?.warn({ err, key }, 'could not remove a stored file'));
  await releaseAgentUploads(db, removed);
}

/** Runs a write that names freshly stored files; if it fails, the files go again. */
export async function withStoredFiles<T>(storage: FileStorage, keys: string[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    await Promise.all(keys.map((k) => storage.delete(k).catch(() => {})));
    throw e;
  }
}
