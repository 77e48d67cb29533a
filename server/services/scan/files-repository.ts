import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import { keyOfUrl } from '../../lib/storage';

/** scan_files, the stored files each scan's rows name (the demo scans share files, so a key may belong to several scans). */

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

/** Of these keys, the ones some scan still names. */
export async function keysInUse(db: Executor, keys: string[]) {
  const r = await sql<{ key: string }>`select distinct key from scan_files where key = any(${keys}::text[])`.execute(db);
  return new Set(r.rows.map((row) => row.key));
}
