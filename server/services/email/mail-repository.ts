import { sql } from 'kysely';
import { OPTION_NAMES } from '../../../src/domain/options';
import type { Executor } from '../../db/database';
import { FILES_PATH } from '../../lib/storage';

/** The stored default e-mail header and footer settings. */
export const findHeaderAndFooter = (db: Executor) =>
  db
    .selectFrom('options')
    .select(['option_name', 'option_value'])
    .where('option_name', 'in', [OPTION_NAMES.EMAIL_DEFAULT_HEADER, OPTION_NAMES.EMAIL_DEFAULT_FOOTER])
    .execute();

export const templateExists = async (db: Executor, id: number) =>
  !!(await db.selectFrom('email_templates').select('id').where('id', '=', id).executeTakeFirst());

/**
 * What each stored file of the scan is, for its attachment's name: a detection's close-up, a saved image or vehicle
 * photo, a report, the quote's PDF, a video, another picture. Only files the scan uses (scan_files, and its quote's PDF) are named;
 * others are not the scan's.
 */
export async function scanFileNames(db: Executor, scanId: number, keys: string[]) {
  const url = sql`${FILES_PATH} || f.key`;
  const r = await sql<{ key: string; name: string }>`
    select f.key, coalesce(
      (select 'damage-' || d.car_panel || '-' || d.type || '-' || d.level from scan_damages d
        where d.scan_id = f.scan_id and d.image = ${url} order by d.id limit 1),
      (select case when a.vehicle_photo then 'vehicle-photo-' else 'image-' end || a.id from scan_annotates a
        where a.scan_id = f.scan_id and a.src = ${url} order by a.id limit 1),
      (select r.label from scan_reports r where r.scan_id = f.scan_id and r.url = ${url} order by r.id limit 1),
      (select 'View Quote' from quotes q where q.scan_id = f.scan_id and q.pdf_key = f.key),
      (select 'video-' || v.id from scan_videos v where v.scan_id = f.scan_id and v.src = ${url} order by v.id limit 1),
      'file') as name
    from (select scan_id, key from scan_files union all select scan_id, pdf_key from quotes where pdf_key is not null) f
    where f.scan_id = ${scanId} and f.key = any(${keys}::text[])`.execute(db);
  return new Map(r.rows.map((x) => [x.key, x.name]));
}

/** Records a mail sent about a scan. */
export function insertScanMail(
  trx: Executor,
  m: {
    scanId: number;
    userId: number;
    mailId: number;
    templateId: number | null;
    recipients: string[];
    subject: string;
    attachments: string;
  },
) {
  return trx
    .insertInto('scan_mails')
    .values({
      scan_id: m.scanId,
      user_id: m.userId,
      mail_id: m.mailId,
      template_id: m.templateId,
      recipients: m.recipients,
      subject: m.subject,
      attachments: m.attachments,
    })
    .returning(['id', 'scan_id', 'recipients', 'subject', 'created_at'])
    .executeTakeFirstOrThrow();
}
