import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { NotFoundError } from '../../errors';
import { type FileStorage, fileUrl } from '../../lib/storage';
import { releaseFiles, syncScanFiles, withStoredFiles } from './files';
import { findScanDetail } from './repository';
import { scanReportPdf } from './report';

export const SCAN_MODEL = 'Scan';

/** Scan ids in paths are positive integers; anything else names no scan, so it is the model's 404. */
export function parseScanId(raw: string) {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError(SCAN_MODEL, raw);
  return Number(raw);
}

/** (Re)writes the scan's report PDF ('View Scan Report') from what the scan holds now, replacing the previous one. */
export async function writeScanReport(db: Database, storage: FileStorage, scanId: number, log?: FastifyBaseLogger) {
  const scan = await findScanDetail(db, scanId);
  if (!scan) return;
  const key = await storage.put(scanReportPdf(scan), 'application/pdf');
  const gone = await withStoredFiles(storage, [key], () =>
    db.transaction().execute(async (trx) => {
      await sql`insert into scan_reports (scan_id, kind, label, url) values (${scanId}, 'scan_report', 'View Scan Report', ${fileUrl(key)})
      on conflict (scan_id, kind) do update set url = excluded.url, label = excluded.label, created_at = now()`.execute(trx);
      return syncScanFiles(trx, scanId);
    }),
  );
  await releaseFiles(db, storage, gone, log);
}

/** Deletes a scan with its rows, then the files no other scan uses. */
export async function deleteScan(db: Database, storage: FileStorage, scanId: number, log?: FastifyBaseLogger) {
  const keys = await db.transaction().execute(async (trx) => {
    const linked = (await sql<{ key: string }>`select key from scan_files where scan_id = ${scanId}`.execute(trx)).rows.map((r) => r.key);
    await sql`delete from scans where id = ${scanId}`.execute(trx);
    return linked;
  });
  await releaseFiles(db, storage, keys, log);
}
