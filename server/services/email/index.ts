import type { FastifyInstance } from 'fastify';
import type { Mailer } from '../../lib/mail-outbox';
import { registerResource } from '../../lib/resource';
import { storageOf } from '../../lib/storage';
import { scanMails } from './mail-service';
import { mailRoutes } from './mails';
import { emailTemplatesResource } from './templates';

/**
 * The email service (/api/email): e-mail templates and the scan page's mails (POST emails). The mail outbox every
 * service writes to is server/lib/mail-outbox.ts.
 */
export async function emailService(app: FastifyInstance, opts: { mailer: Mailer }) {
  registerResource(app, emailTemplatesResource);
  await app.register(mailRoutes, { mails: scanMails({ db: app.db, storage: storageOf(app), mailer: opts.mailer }) });
}
