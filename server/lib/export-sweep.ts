import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../db/database';
import type { FileStorage } from './storage';

/** The tables that record the lists' report files. */
export const EXPORT_TABLES = ['scan_exports', 'quote_exports', 'vehicle_exports'] as const;
export type ExportTable = (typeof EXPORT_TABLES)[number];

/**
 * Removes the export files of `table` older than `hours` from the file store, then their rows; returns how many went
 * (the workers run it hourly for each list's reports). One row at a time, taken `for update skip locked` and
 * deleted in the same transaction as its file, so instances sweeping at once split the work and never remove a file
 * twice; one that dies mid-way leaves its row to the next sweep; a file the storage will not remove is kept for then.
 */
export async function sweepExpiredExports(
  table: ExportTable,
  hours: number,
  {
    db,
    storage,
    log,
    now = new Date(),
    signal,
  }: { db: Database; storage: FileStorage; log?: FastifyBaseLogger; now?: Date; signal?: AbortSignal },
) {
  const failed: string[] = [];
  let removed = 0;
  for (let i = 0; i < 1000 && !signal?.aborted; i++) {
    const key = await db.transaction().execute(async (trx) => {
      const row = await sql<{ key: string }>`select key from ${sql.table(table)}
        where created_at < ${now.toISOString()}::timestamptz - ${`${hours} hours`}::interval and key <> all(${failed}::text[])
        order by created_at limit 1 for update skip locked`.execute(trx);
      const found = row.rows[0]?.key;
      if (!found) return null;
      try {
        await storage.delete(found);
      } catch (error) {
        log?.warn({ err: error, key: found, table }, 'could not remove an expired export');
        failed.push(found);
        return found;
      }
      await sql`delete from ${sql.table(table)} where key = ${found}`.execute(trx);
      removed++;
      return found;
    });
    if (key === null) break;
  }
  return removed;
}
