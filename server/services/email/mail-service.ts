import type { z } from 'zod';
import { isBlankHtml } from '../../../src/domain/options';
import { messages } from '../../../src/domain/fields';
import { MAIL_MAX_ATTACHMENT_BYTES } from '../../../src/domain/scan-codes';
import { type sendMailBody } from '../../../src/domain/scans';
import type { Database } from '../../db/database';
import { NotFoundError, ValidationError } from '../../errors';
import type { MailAttachment, Mailer } from '../../lib/mail-outbox';
import { sanitizeRichText } from '../../lib/rich-text';
import { headerAndFooter, htmlToText, wrapMail } from '../../lib/mail-layout';
import { visibleScan } from '../../lib/scan-scope';
import type { FileStorage } from '../../lib/storage';
import type { Caller } from '../../lib/caller';
import { formatDateTime } from '../../../src/domain/format';
import {
  attachmentFileNames,
  damageAttachmentName,
  fillMergeFields,
  type MergeFieldName,
  reportAttachmentName,
  savedImageAttachmentName,
  unresolvedMessage,
} from '../../../src/domain/scan-mail';
import { panelLabelOf } from '../../../src/domain/scan-view';
import { insertScanMail, type ScanFileFacts, scanFileFacts, scanMergeSource, templateExists } from './mail-repository';

const extensionOf = (key: string) => key.slice(key.lastIndexOf('.') + 1);

/** An attachment's name without its extension, as people write it ('Right C Pillar – heavy dent', 'Scan Report – ABC123'). */
function attachmentName(facts: ScanFileFacts, registration: string | null) {
  switch (facts.kind) {
    case 'damage':
      return damageAttachmentName(facts.panel_label || panelLabelOf(facts.panel), facts.type, facts.level);
    case 'image':
      return savedImageAttachmentName(facts.n, facts.vehicle_photo);
    case 'report':
      return reportAttachmentName(facts.label, registration);
    case 'video':
      return `Video ${facts.n}`;
    default:
      return 'File';
  }
}

/** Every merge field's value for a scan (MERGE_FIELDS); null where the scan has nothing for it. */
export function mergeValuesOf(source: Awaited<ReturnType<typeof scanMergeSource>>, appUrl: string): Record<MergeFieldName, string | null> {
  const base = appUrl.replace(/\/$/, '');
  return {
    customer_name: source.client_name,
    client_name: source.client_name,
    registration: source.license_plate,
    make: source.make,
    model: source.model,
    colour: source.car_color,
    body_type: source.body_type,
    dent_count: String(source.dent_count),
    scratch_count: String(source.scratch_count),
    damage_count: String(source.dent_count + source.scratch_count),
    scan_date: formatDateTime(source.scanned_at, 'en'),
    location: source.location_name,
    agent_name: source.agent_name,
    agent_phone: source.agent_phone,
    agent_email: source.agent_email,
    scan_link: `${base}/scans/${source.id}`,
    quote_link: source.quote_id === null ? null : `${base}/quotes/${source.quote_id}/invoice`,
  };
}

/**
 * POST emails (the scan page's Communication section) and its preview: a mail about one scan in the sender's scope,
 * the merge fields of its subject and message filled from the scan, wrapped in the default header and footer;
 * attachments are the scan's own stored files, named by their keys and read on the server. Sending refuses a mail with
 * a placeholder left (422 on subject or message); the mail and its record with the scan (scan_mails) are written in
 * one transaction, and the outbox sends it. The preview renders the same mail and stores nothing.
 */
export function scanMails(deps: { db: Database; storage: FileStorage; mailer: Mailer; appUrl: string }) {
  const { db, storage, mailer, appUrl } = deps;

  async function render(caller: Pick<Caller, 'scope'>, body: z.output<typeof sendMailBody>) {
    const scan = await visibleScan(db, caller.scope, body.scan_id);
    if (!scan) throw new NotFoundError('Scan', body.scan_id);
    const sanitised = sanitizeRichText(body.message);
    if (isBlankHtml(sanitised)) throw new ValidationError({ message: messages.required('Message') });
    if (body.template_id !== undefined) {
      if (!(await templateExists(db, body.template_id))) throw new ValidationError({ template_id: messages.choice('Template') });
    }
    const source = await scanMergeSource(db, scan.id);
    const values = mergeValuesOf(source, appUrl);
    const subject = fillMergeFields(body.subject, values, 'text');
    const filled = fillMergeFields(sanitised, values, 'html');
    // Sanitised again once filled: a value is escaped text, but one filled into a link's address must still be a safe one.
    const message = { text: sanitizeRichText(filled.text), unresolved: filled.unresolved };
    const keys = [...new Set(body.attachments)];
    const facts = await scanFileFacts(db, scan.id, keys);
    const files: { key: string; contentType: string; content: Buffer; name: string }[] = [];
    let total = 0;
    for (const [i, key] of keys.entries()) {
      const fact = facts.get(key);
      const file = fact ? await storage.get(key) : null;
      if (!fact || !file) throw new ValidationError({ [`attachments.${i}`]: 'The selected attachment is not a file of this scan' });
      total += file.data.length;
      if (total > MAIL_MAX_ATTACHMENT_BYTES)
        throw new ValidationError({ attachments: `Attachments must be less than ${MAIL_MAX_ATTACHMENT_BYTES / 1024 / 1024} MB in all` });
      files.push({
        key,
        contentType: file.contentType.split(';')[0],
        content: file.data,
        name: attachmentName(fact, source.license_plate),
      });
    }
    const filenames = attachmentFileNames(files.map((f) => ({ name: f.name, extension: extensionOf(f.key) })));
    const attachments: (MailAttachment & { key: string })[] = files.map((f, i) => ({
      key: f.key,
      filename: filenames[i],
      contentType: f.contentType,
      content: f.content,
    }));
    const { header, footer } = await headerAndFooter(db);
    const html = wrapMail({ header, message: message.text, footer, subject: subject.text });
    const text = [htmlToText(header), htmlToText(message.text), htmlToText(footer)].filter(Boolean).join('\n\n');
    const recorded = attachments.map((a) => ({ key: a.key, filename: a.filename, content_type: a.contentType, size: a.content.length }));
    return { scan, subject, message, html, text, attachments, recorded };
  }

  return {
    /** The mail as it would go out, with the placeholders left in `unresolved`; nothing is stored or queued. */
    async preview(caller: Pick<Caller, 'scope'>, body: z.output<typeof sendMailBody>) {
      const m = await render(caller, body);
      const unresolved = [...new Set([...m.subject.unresolved, ...m.message.unresolved])];
      return { subject: m.subject.text, html: m.html, text: m.text, attachments: m.recorded, unresolved };
    },

    async send(caller: Pick<Caller, 'actor' | 'scope'>, body: z.output<typeof sendMailBody>) {
      const m = await render(caller, body);
      const errors: Record<string, string> = {};
      if (m.subject.unresolved.length) errors.subject = unresolvedMessage('Subject', m.subject.unresolved);
      if (m.message.unresolved.length) errors.message = unresolvedMessage('Message', m.message.unresolved);
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const recipients = [...new Set(body.recipients)];
      const row = await db.transaction().execute(async (trx) => {
        const mailId = await mailer.enqueue(trx, {
          to: recipients,
          subject: m.subject.text,
          text: m.text,
          html: m.html,
          attachments: m.attachments,
        });
        return insertScanMail(trx, {
          scanId: m.scan.id,
          userId: caller.actor.id,
          mailId,
          templateId: body.template_id ?? null,
          recipients,
          subject: m.subject.text,
          attachments: JSON.stringify(m.recorded),
        });
      });
      return { ...row, attachments: m.recorded };
    },
  };
}
