import type { Database } from '../../db/database';
import { NotFoundError } from '../../errors';
import type { CallLog } from '../../lib/caller';
import type { Signer } from '../../lib/signing';
import { type FileStorage, fileUrl } from '../../lib/storage';
import type { Broadcaster } from '../../realtime/broadcaster';
import { releaseFiles, withStoredFiles } from './files';
import { syncScanFiles } from './files-repository';
import { SCAN_REPORTS, scanReportPdf } from './report';
import { findScanDetail, upsertScanReport } from './scan-repository';

export const SCAN_MODEL = 'Scan';

/** What the scan services draw on: the database, the file store, the link signer, and the live-event side when the app has one. */
export interface ScanDeps {
  db: Database;
  storage: FileStorage;
  /** Signs download links (exports are private to their maker). */
  signer: Signer;
  broadcaster?: Broadcaster;
  /** The app's log: a scan event that could not be published is no single request's line. */
  log: CallLog;
}

/** Ids in paths are positive integers; anything else names no row, so it is the model's 404. */
export function parseIdOf(model: string, raw: string) {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError(model, raw);
  return Number(raw);
}

export const parseScanId = (raw: string) => parseIdOf(SCAN_MODEL, raw);

/** (Re)writes the scan's report PDFs (SCAN_REPORTS) from what the scan holds now, replacing the previous ones. */
export async function writeScanReport(db: Database, storage: FileStorage, scanId: number, log?: CallLog) {
  const scan = await findScanDetail(db, scanId);
  if (!scan) return;
  const reports = await Promise.all(
    SCAN_REPORTS.map(async (r) => ({ ...r, key: await storage.put(scanReportPdf(scan, r.audience), 'application/pdf') })),
  );
  const gone = await withStoredFiles(
    storage,
    reports.map((r) => r.key),
    () =>
      db.transaction().execute(async (trx) => {
        for (const r of reports) await upsertScanReport(trx, scanId, r, fileUrl(r.key));
        return syncScanFiles(trx, scanId);
      }),
  );
  await releaseFiles(db, storage, gone, log);
}
