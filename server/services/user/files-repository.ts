import { sql } from 'kysely';
import type { DataScope } from '../../../src/domain/permissions';
import type { Executor } from '../../db/database';
import { EXPORT_TABLES } from '../../lib/export-sweep';
import { scopePredicate } from '../../lib/resource';
import { quoteScope, scanScope } from '../../lib/scan-scope';
import { FILES_PATH } from '../../lib/storage';

/** The maker of an export (every list's exports are recorded alike); undefined when it is not one. */
export async function exportOwner(db: Executor, key: string) {
  const owners = sql.join(
    EXPORT_TABLES.map((table) => sql`select user_id from ${sql.table(table)} where key = ${key}`),
    sql` union all `,
  );
  return (await sql<{ user_id: number | null }>`${owners}`.execute(db)).rows[0];
}

/**
 * Whether the scope reaches a document: its scan (a scan's file or report, or its quote's PDF) when `scans`, its quote
 * when `quotes`.
 */
export async function documentReached(db: Executor, key: string, scope: DataScope, reads: { scans: boolean; quotes: boolean }) {
  const url = `${FILES_PATH}${key}`;
  const scanDocument = sql<boolean>`(exists (select 1 from scan_files f join scans s on s.id = f.scan_id
      where f.key = ${key} and ${scopePredicate(scope, scanScope)})
    or exists (select 1 from scan_reports r join scans s on s.id = r.scan_id
      where r.url = ${url} and ${scopePredicate(scope, scanScope)})
    or exists (select 1 from quotes q join scans s on s.id = q.scan_id
      where q.pdf_key = ${key} and ${scopePredicate(scope, scanScope)}))`;
  // A quote's document: its current PDF, a sent revision's frozen copy, or the customer's signed answer.
  const quoteDocument = sql<boolean>`(exists (select 1 from quotes q where q.pdf_key = ${key} and ${scopePredicate(scope, quoteScope)})
    or exists (select 1 from quote_revisions r join quotes q on q.id = r.quote_id
      where r.pdf_key = ${key} and ${scopePredicate(scope, quoteScope)})
    or exists (select 1 from quote_approvals l join quotes q on q.id = l.quote_id
      where l.signed_pdf_key = ${key} and ${scopePredicate(scope, quoteScope)}))`;
  return (
    await sql<{
      ok: boolean;
    }>`select ${reads.scans ? scanDocument : sql`false`} or ${reads.quotes ? quoteDocument : sql`false`} as ok`.execute(db)
  ).rows[0].ok;
}

export async function insertUploadedFile(trx: Executor, f: { key: string; userId: number; contentType: string; size: number }) {
  await trx.insertInto('uploaded_files').values({ key: f.key, user_id: f.userId, content_type: f.contentType, size: f.size }).execute();
}

export const findUploadedFile = (db: Executor, key: string) =>
  db.selectFrom('uploaded_files').select(['key', 'user_id']).where('key', '=', key).executeTakeFirst();

export const deleteUploadedFile = async (db: Executor, key: string) => {
  await db.deleteFrom('uploaded_files').where('key', '=', key).execute();
};
