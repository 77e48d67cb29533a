import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { broadcasterOf } from '../../lib/events';
import { multipartPlugin } from '../../lib/multipart';
import { signDocumentUrlsOfReplies, storageOf } from '../../lib/storage';
import { evaluateRoutes } from './evaluate';
import { ingestRoutes } from './ingest';
import { plateLookupProvider } from './plate-lookup';
import { plateRoutes } from './plate-routes';
import { portalScanRoutes } from './portal';
import { scanIngestion } from './ingest-service';
import { scanRoutes } from './routes';
import { statisticsRoutes } from './statistics';
import { type ScanDeps, scanRecords } from './service';

/** The sweep of expired export files, run by server.ts. */
export { removeExpiredExports } from './export';

/** The scan service (/api/scan): the scan list and records, the customer portal's list and the devices' ingestion API (docs/ingestion.md). */
export async function scanService(app: FastifyInstance, opts: { config: Config }) {
  // Report and quote PDFs in replies (`report_pdfs`, `pdf_url`) become links signed for the requesting user.
  signDocumentUrlsOfReplies(app);
  const deps: ScanDeps = {
    db: app.db,
    storage: storageOf(app),
    signer: app.signer,
    log: app.log,
    // Looked up at each event, as the app holds it then.
    get broadcaster() {
      return broadcasterOf(app);
    },
  };
  await app.register(multipartPlugin);
  await app.register(scanRoutes, { scans: scanRecords(deps) });
  await app.register(ingestRoutes, { ingestion: scanIngestion(deps) });
  await app.register(portalScanRoutes, { deps });
  await app.register(plateRoutes, { plates: plateLookupProvider(app.db, opts.config) });
  await app.register(statisticsRoutes);
  await app.register(evaluateRoutes, { db: app.db });
}
