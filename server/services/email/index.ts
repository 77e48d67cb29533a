import type { FastifyInstance } from 'fastify';
import type { Mailer } from '../../lib/mail-outbox';
import { registerDefinitions } from '../../lib/definitions';
import { storageOf } from '../../lib/storage';
import { scanMails } from './mail-service';
import { mailRoutes } from './mails-routes';
import { emailTemplatesPart } from './templates';

/**
 * The email service (/api/email): e-mail templates, their merge fields and the scan page's mails (POST emails, its preview). The mail outbox every
 * service writes to is server/lib/mail-outbox.ts.
 */
export async function emailService(app: FastifyInstance, opts: { mailer: Mailer; appUrl: string }) {
  registerDefinitions(app, 'email', { 'email-templates': emailTemplatesPart });
  await app.register(mailRoutes, { mails: scanMails({ db: app.db, storage: storageOf(app), mailer: opts.mailer, appUrl: opts.appUrl }) });
}
