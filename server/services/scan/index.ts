import type { FastifyInstance } from 'fastify';
import { multipartPlugin } from '../../lib/multipart';
import { ingestRoutes } from './ingest';
import { portalScanRoutes } from './portal';
import { scanRoutes } from './routes';

/** The scan service (/api/scan): the scan list and records (spec 2 §7), the customer portal's list and the devices' ingestion API (docs/ingestion.md). */
export async function scanService(app: FastifyInstance) {
  await app.register(multipartPlugin);
  await app.register(scanRoutes);
  await app.register(ingestRoutes);
  await app.register(portalScanRoutes);
}
