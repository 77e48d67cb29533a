import { isBlankHtml, OPTION_NAMES } from '../../src/domain/options';
import type { Executor } from '../db/database';
import { sanitizeRichText } from './rich-text';

/** How every mail the services write looks: the default header and footer around the message, and its plain-text part. */

const findHeaderAndFooter = (db: Executor) =>
  db
    .selectFrom('options')
    .select(['option_name', 'option_value'])
    .where('option_name', 'in', [OPTION_NAMES.EMAIL_DEFAULT_HEADER, OPTION_NAMES.EMAIL_DEFAULT_FOOTER])
    .execute();

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
export async function headerAndFooter(db: Executor) {
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
