import type { FastifyInstance } from 'fastify';

/** The scan service (/api/scan): scans, ingestion and statistics arrive with the scans issue. */
export async function scanService(_app: FastifyInstance) {}
