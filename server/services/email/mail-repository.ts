import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import { FILES_PATH } from '../../lib/storage';

export const templateExists = async (db: Executor, id: number) =>
  !!(await db.selectFrom('email_templates').select('id').where('id', '=', id).executeTakeFirst());

/** What a stored file of the scan is, for its attachment's name. */
export type ScanFileFacts =
  | { kind: 'damage'; panel: string; panel_label: string | null; type: string; level: string }
  | { kind: 'image'; n: number; vehicle_photo: boolean }
  | { kind: 'report'; label: string }
  | { kind: 'video'; n: number }
  | { kind: 'file' };

/**
 * What each stored file of the scan is: a detection's close-up (its panel's label from the panels, else the code), a
 * saved image or vehicle photo (its place among the scan's saved images), a report, the quote's PDF, a video, another
 * file. Only files the scan uses (scan_files, and its quote's PDF) are named; others are not the scan's.
 */
export async function scanFileFacts(db: Executor, scanId: number, keys: string[]) {
  const url = sql`${FILES_PATH} || f.key`;
  const r = await sql<{ key: string; facts: ScanFileFacts }>`
    select f.key, coalesce(
      (select json_build_object('kind', 'damage', 'type', d.type, 'level', d.level, 'panel', d.car_panel,
          'panel_label', (select coalesce(nullif(p.label, ''), p.name) from panels p
            where p.car_panel = d.car_panel and p.status order by p.id limit 1)) from scan_damages d
        where d.scan_id = f.scan_id and d.image = ${url} order by d.id limit 1),
      (select json_build_object('kind', 'image', 'n', a.n, 'vehicle_photo', a.vehicle_photo) from
        (select src, vehicle_photo, row_number() over (order by id) as n from scan_annotates where scan_id = f.scan_id) a
        where a.src = ${url} order by a.n limit 1),
      (select json_build_object('kind', 'report', 'label', r.label) from scan_reports r
        where r.scan_id = f.scan_id and r.url = ${url} order by r.id limit 1),
      (select json_build_object('kind', 'report', 'label', 'View Quote') from quotes q where q.scan_id = f.scan_id and q.pdf_key = f.key limit 1),
      (select json_build_object('kind', 'video', 'n', v.n) from
        (select src, row_number() over (order by id) as n from scan_videos where scan_id = f.scan_id) v
        where v.src = ${url} order by v.n limit 1),
      json_build_object('kind', 'file')) as facts
    from (select scan_id, key from scan_files union all select scan_id, pdf_key from quotes where pdf_key is not null) f
    where f.scan_id = ${scanId} and f.key = any(${keys}::text[])`.execute(db);
  return new Map(r.rows.map((x) => [x.key, x.facts]));
}

/** What a scan's merge fields are filled from: the scan with its client, agent, location and latest quote. */
export async function scanMergeSource(db: Executor, scanId: number) {
  const r = await sql<{
    id: number;
    license_plate: string | null;
    make: string | null;
    model: string | null;
    car_color: string | null;
    body_type: string | null;
    dent_count: number;
    scratch_count: number;
    scanned_at: Date;
    client_name: string | null;
    agent_name: string;
    agent_phone: string | null;
    agent_email: string | null;
    location_name: string | null;
    quote_id: number | null;
  }>`select s.id, s.license_plate, s.make, s.model, s.car_color, s.body_type, s.dent_count, s.scratch_count, s.scanned_at,
      c.name as client_name, a.name as agent_name, a.phone as agent_phone, a.email as agent_email, l.name as location_name,
      (select q.id from quotes q where q.scan_id = s.id order by q.id desc limit 1) as quote_id
    from scans s join agents a on a.id = s.agent_id
      left join clients c on c.id = s.client_id left join locations l on l.id = s.location_id
    where s.id = ${scanId}`.execute(db);
  return r.rows[0];
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
