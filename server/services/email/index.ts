import type { FastifyInstance } from 'fastify';

/** The email service (/api/email): templates and sending arrive with the catalogue issue; the outbox is in ./outbox. */
export async function emailService(_app: FastifyInstance) {}
