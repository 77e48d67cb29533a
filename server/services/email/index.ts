import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../lib/resource';
import { emailTemplatesResource } from './templates';

/** The email service (/api/email): e-mail templates; the outbox is in ./outbox. */
export async function emailService(app: FastifyInstance) {
  registerResource(app, emailTemplatesResource);
}
