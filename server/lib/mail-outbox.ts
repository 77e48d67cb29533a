import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import type { Database, Executor } from '../db/database';

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
  /** Sends pending mails; returns how many were sent. Without SMTP settings, mails stay pending. */
  deliverPending(limit?: number): Promise<number>;
}

const MAX_ATTEMPTS = 5;

/**
 * With SMTP_URL the outbox sends through SMTP; without it, `log` decides: mails are written to the
 * server's console (the embedded default, so a newcomer can follow a reset link) or stay pending.
 */
export function createMailer(
  db: Database,
  opts: { smtpUrl?: string; from: string; transport?: Transporter; log?: (text: string) => void },
): Mailer {
  const transport =
    opts.transport ?? (opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : opts.log ? consoleTransport(opts.log) : null);
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
    async deliverPending(limit = 20) {
      if (!transport) return 0;
      const pending = await db.selectFrom('mail_outbox').selectAll().where('status', '=', 'pending').orderBy('id').limit(limit).execute();
      let sent = 0;
      for (const m of pending) {
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
            .set({ status: 'sent', sent_at: new Date(), attempts: m.attempts + 1 })
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

/** A nodemailer transport that prints the message instead of sending it (no SMTP configured). */
function consoleTransport(log: (text: string) => void): Transporter {
  const t = nodemailer.createTransport({ jsonTransport: true });
  return {
    sendMail: async (m: SendMailOptions) => {
      const info = await t.sendMail(m);
      log(
        `mail (no SMTP_URL set, printed instead of sent) to ${recipients(m.to)}: ${m.subject}\n${typeof m.text === 'string' ? m.text : ''}`,
      );
      return info;
    },
  } as Transporter;
}
