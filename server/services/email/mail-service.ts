import type { z } from 'zod';
import { isBlankHtml, OPTION_NAMES } from '../../../src/domain/options';
import { messages } from '../../../src/domain/fields';
import { MAIL_MAX_ATTACHMENT_BYTES, type sendMailBody } from '../../../src/domain/scans';
import type { Database, Executor } from '../../db/database';
import { NotFoundError, ValidationError } from '../../errors';
import type { MailAttachment, Mailer } from '../../lib/mail-outbox';
import { sanitizeRichText } from '../../lib/rich-text';
import { visibleScan } from '../../lib/scan-scope';
import type { FileStorage } from '../../lib/storage';
import type { Caller } from '../../lib/caller';
import { findHeaderAndFooter, insertScanMail, scanFileNames, templateExists } from './mail-repository';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** The plain-text part of an HTML mail: block ends become line breaks, tags go, the common entities are decoded. */
export function htmlToText(html: string) {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|blockquote)>/gi, '\n')
    .replace(/<li[^>]*>/gi, '- ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;|&#34;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;|&#38;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The application's default e-mail header and footer (the Email Header & Footer page); blank when not set. */
async function headerAndFooter(db: Executor) {
  const rows = await findHeaderAndFooter(db);
  const value = (name: string) => {
    const v = rows.find((r) => r.option_name === name)?.option_value ?? '';
    // Stored sanitised by the options routes; sanitised again here in case a row was written another way.
    return isBlankHtml(v) ? '' : sanitizeRichText(v);
  };
  return { header: value(OPTION_NAMES.EMAIL_DEFAULT_HEADER), footer: value(OPTION_NAMES.EMAIL_DEFAULT_FOOTER) };
}

/** The mail's HTML: the default header, the message, the default footer, each in its own block. */
export function wrapMail(parts: { header: string; message: string; footer: string; subject: string }) {
  const block = (name: string, html: string) => (html ? `<div class="mail-${name}">${html}</div>` : '');
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(parts.subject)}</title></head><body>` +
    `${block('header', parts.header)}${block('message', parts.message)}${block('footer', parts.footer)}</body></html>`
  );
}

const extensionOf = (key: string) => key.slice(key.lastIndexOf('.') + 1);
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'file';

/**
 * POST emails (the scan page's Communication section): a mail about one scan in the sender's scope, sent through the outbox with the
 * default header and footer; attachments are the scan's own stored files, named by their keys and read on the server.
 * The mail and its record with the scan (scan_mails) are written in one transaction; the outbox sends it.
 */
export function scanMails(deps: { db: Database; storage: FileStorage; mailer: Mailer }) {
  const { db, storage, mailer } = deps;
  return {
    async send(caller: Pick<Caller, 'actor' | 'scope'>, body: z.output<typeof sendMailBody>) {
      const scan = await visibleScan(db, caller.scope, body.scan_id);
      if (!scan) throw new NotFoundError('Scan', body.scan_id);
      const message = sanitizeRichText(body.message);
      if (isBlankHtml(message)) throw new ValidationError({ message: messages.required('Message') });
      if (body.template_id !== undefined) {
        if (!(await templateExists(db, body.template_id))) throw new ValidationError({ template_id: messages.choice('Template') });
      }
      const recipients = [...new Set(body.recipients)];
      const keys = [...new Set(body.attachments)];
      const names = await scanFileNames(db, scan.id, keys);
      const attachments: (MailAttachment & { key: string })[] = [];
      const used = new Set<string>();
      let total = 0;
      for (const [i, key] of keys.entries()) {
        const name = names.get(key);
        const file = name ? await storage.get(key) : null;
        if (!name || !file) throw new ValidationError({ [`attachments.${i}`]: 'The selected attachment is not a file of this scan' });
        total += file.data.length;
        if (total > MAIL_MAX_ATTACHMENT_BYTES)
          throw new ValidationError({ attachments: `Attachments must be less than ${MAIL_MAX_ATTACHMENT_BYTES / 1024 / 1024} MB in all` });
        let filename = `${slug(name)}.${extensionOf(key)}`;
        for (let n = 2; used.has(filename); n++) filename = `${slug(name)}-${n}.${extensionOf(key)}`;
        used.add(filename);
        attachments.push({ key, filename, contentType: file.contentType.split(';')[0], content: file.data });
      }
      const { header, footer } = await headerAndFooter(db);
      const html = wrapMail({ header, message, footer, subject: body.subject });
      const text = [htmlToText(header), htmlToText(message), htmlToText(footer)].filter(Boolean).join('\n\n');
      const recorded = attachments.map((a) => ({ key: a.key, filename: a.filename, content_type: a.contentType, size: a.content.length }));
      const row = await db.transaction().execute(async (trx) => {
        const mailId = await mailer.enqueue(trx, { to: recipients, subject: body.subject, text, html, attachments });
        return insertScanMail(trx, {
          scanId: scan.id,
          userId: caller.actor.id,
          mailId,
          templateId: body.template_id ?? null,
          recipients,
          subject: body.subject,
          attachments: JSON.stringify(recorded),
        });
      });
      return { ...row, attachments: recorded };
    },
  };
}
