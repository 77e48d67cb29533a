import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { broadcasterOf } from '../../lib/events';
import { historyRoutes } from '../../lib/history-routes';
import { multipartPlugin } from '../../lib/multipart';
import { RESOURCES } from '../../../src/domain/resources';
import { signDocumentUrlsOfReplies, storageOf } from '../../lib/storage';
import { scanEvaluation } from './evaluate-service';
import { evaluateRoutes } from './evaluate-routes';
import { scanHistory } from './history-service';
import { scanIngestion } from './ingest-service';
import { ingestRoutes } from './ingest-routes';
import { plateLookupProvider } from './plate-lookup';
import { plateRoutes } from './plate-routes';
import { portalScanRoutes } from './portal-routes';
import { portalScanService } from './portal-service';
import { scanPage } from './scan-page-service';
import { scanPageRoutes } from './scan-page-routes';
import { scanRecords } from './scans-service';
import { scanRoutes } from './scans-routes';
import type { ScanDeps } from './shared';
import { statisticsRoutes } from './statistics-routes';
import { scanStatisticsService } from './statistics-service';
import { vehicleRoutes } from './vehicles-routes';
import { vehicleRecords } from './vehicles-service';

/** The sweep of expired export files, run by server.ts. */

/**
 * The scan service (/api/scan): the scan list and records, the scan page, the customer portal's list, the dashboard's
 * statistics, the quote screen's reads and the devices' ingestion API (docs/ingestion.md). Each part is routes (schemas,
 * the caller from the request, one service call) over a service factory over its repository.
 */
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
  await app.register(scanPageRoutes, { page: scanPage(deps) });
  await app.register(ingestRoutes, { ingestion: scanIngestion(deps) });
  await app.register(portalScanRoutes, { portal: portalScanService(deps) });
  await app.register(plateRoutes, { plates: plateLookupProvider(app.db, opts.config) });
  await app.register(statisticsRoutes, { statistics: scanStatisticsService(deps) });
  await app.register(evaluateRoutes, { evaluation: scanEvaluation(deps) });
  await app.register(vehicleRoutes, { vehicles: vehicleRecords(deps) });
  await app.register(historyRoutes, { subject: 'scan', permission: RESOURCES.scans.permission, read: scanHistory(deps) });
}
