import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../lib/resource';
import { emailTemplatesResource } from './templates';

/** The email service (/api/email): e-mail templates. The mail outbox every service writes to is server/lib/mail-outbox.ts. */
export async function emailService(app: FastifyInstance) {
  registerResource(app, emailTemplatesResource);
}
