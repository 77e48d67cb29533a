import type { Executor } from '../../db/database';
import { ValidationError } from '../../errors';
import { isUploadedFile } from '../../lib/images';
import type { CallLog } from '../../lib/caller';
import type { FileStorage } from '../../lib/storage';
import { releaseAgentUploads } from '../../lib/upload-quota';
import { keysInUse } from './files-repository';

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

/** Removes from storage the files no scan uses any more (the demo scans share files, so a key may still be in use). */
export async function releaseFiles(db: Executor, storage: FileStorage, keys: string[], log?: CallLog) {
  if (!keys.length) return;
  const still = await keysInUse(db, keys);
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
