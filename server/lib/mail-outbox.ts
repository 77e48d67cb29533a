import { sql } from 'kysely';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import type { Database, Executor } from '../db/database';
import type { MailOutboxTable } from '../db/schema';

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Copied into the outbox with the mail (mail_attachments), so it is sent even if the file is gone by then. */
  attachments?: MailAttachment[];
}

export interface Mailer {
  /** Writes the mail in the caller's transaction: it is sent only if what caused it commits. */
  enqueue(trx: Executor, mail: OutgoingMail): Promise<number>;
  /**
   * Sends pending mails, one claimed at a time; returns how many were sent. Without SMTP settings, mails stay pending.
   * An aborted `signal` stops it after the mail being sent (graceful shutdown).
   */
  deliverPending(limit?: number, signal?: AbortSignal): Promise<number>;
}

const MAX_ATTEMPTS = 5;
/**
 * A mail is claimed for this long while it is sent (a lease, `claimed_until`): other instances skip it meanwhile and take
 * it over afterwards if its sender died. It outlasts the SMTP timeouts set below, so a live sender is never overtaken.
 */
const CLAIM_SECONDS = 150;
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

type Claimed = Pick<MailOutboxTable, 'recipients' | 'subject' | 'text_body' | 'html'> & { id: number; attempts: number };

/**
 * Claims the oldest pending mail no live instance is sending: `for update skip locked` so two instances never take the
 * same row, and a lease so the claim survives its short transaction.
 */
async function claimNext(db: Database, claimSeconds: number, skip: number[]) {
  const r = await sql<Claimed>`update mail_outbox set claimed_until = now() + make_interval(secs => ${claimSeconds})
    where id = (select id from mail_outbox where status = 'pending' and (claimed_until is null or claimed_until <= now())
                  and id <> all(${skip}::bigint[])
                order by id limit 1 for update skip locked)
    returning id, recipients, subject, text_body, html, attempts`.execute(db);
  return r.rows[0] ?? null;
}

/**
 * With SMTP_URL the outbox sends through SMTP; without it, `log` decides: mails are written to the
 * server's console (the embedded default, so a newcomer can follow a reset link) or stay pending.
 */
export function createMailer(
  db: Database,
  opts: { smtpUrl?: string; from: string; transport?: Transporter; log?: (text: string) => void; claimSeconds?: number },
): Mailer {
  const transport =
    opts.transport ??
    (opts.smtpUrl ? nodemailer.createTransport({ url: opts.smtpUrl, ...SMTP_TIMEOUTS }) : opts.log ? consoleTransport(opts.log) : null);
  const claimSeconds = opts.claimSeconds ?? CLAIM_SECONDS;
  return {
    async enqueue(trx, mail) {
      const row = await trx
        .insertInto('mail_outbox')
        .values({ recipients: mail.to, subject: mail.subject, text_body: mail.text, html: mail.html })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (mail.attachments?.length)
        await trx
          .insertInto('mail_attachments')
          .values(mail.attachments.map((a) => ({ mail_id: row.id, filename: a.filename, content_type: a.contentType, content: a.content })))
          .execute();
      return row.id;
    },
    async deliverPending(limit = 20, signal) {
      if (!transport) return 0;
      let sent = 0;
      // One claimed at a time, so a lease covers one send only; a mail that failed waits for the next pass.
      const tried: number[] = [];
      for (let i = 0; i < limit && !signal?.aborted; i++) {
        const m = await claimNext(db, claimSeconds, tried);
        if (!m) break;
        tried.push(m.id);
        try {
          const attachments = await db
            .selectFrom('mail_attachments')
            .select(['filename', 'content_type', 'content'])
            .where('mail_id', '=', m.id)
            .orderBy('id')
            .execute();
          await transport.sendMail({
            from: opts.from,
            to: m.recipients,
            subject: m.subject,
            text: m.text_body,
            html: m.html,
            attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.content_type, content: a.content })),
          });
          await db
            .updateTable('mail_outbox')
            .set({ status: 'sent', sent_at: new Date(), attempts: m.attempts + 1, claimed_until: null })
            .where('id', '=', m.id)
            .execute();
          // The bytes were only kept to send them; scan_mails records what was attached.
          await db.deleteFrom('mail_attachments').where('mail_id', '=', m.id).execute();
          sent++;
        } catch (e) {
          const attempts = m.attempts + 1;
          await db
            .updateTable('mail_outbox')
            .set({
              attempts,
              last_error: String((e as Error).message).slice(0, 500),
              status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
              claimed_until: null,
            })
            .where('id', '=', m.id)
            .execute();
          if (attempts >= MAX_ATTEMPTS) await db.deleteFrom('mail_attachments').where('mail_id', '=', m.id).execute();
        }
      }
      return sent;
    },
  };
}

/** nodemailer's `to` as text: a string, an address object, or a list of either. */
const recipients = (to: SendMailOptions['to']): string =>
  Array.isArray(to) ? to.map(recipients).join(',') : typeof to === 'string' ? to : (to?.address ?? '');

const LINE_BREAK_ESCAPES: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\u2028': '\\u2028', '\u2029': '\\u2029' };
/** A header value on the mail's first line: a stored line break is shown escaped, so it cannot start a line of its own. */
const oneLine = (s: string | undefined) => (s ?? '').replace(/[\r\n\u2028\u2029]/g, (c) => LINE_BREAK_ESCAPES[c]);

/** A nodemailer transport that prints the message instead of sending it (no SMTP configured). */
function consoleTransport(log: (text: string) => void): Transporter {
  const t = nodemailer.createTransport({ jsonTransport: true });
  return {
    sendMail: async (m: SendMailOptions) => {
      const info = await t.sendMail(m);
      log(
        `mail (no SMTP_URL set, printed instead of sent) to ${oneLine(recipients(m.to))}: ${oneLine(m.subject)}\n${typeof m.text === 'string' ? m.text : ''}`,
      );
      return info;
    },
  } as Transporter;
}
