import type { FastifyInstance } from 'fastify';
import { broadcasterOf } from '../../lib/events';
import { multipartPlugin } from '../../lib/multipart';
import { registerDefinitions } from '../../lib/definitions';
import { signDocumentUrlsOfReplies, storageOf } from '../../lib/storage';
import { historyRoutes } from '../../lib/history-routes';
import { RESOURCES } from '../../../src/domain/resources';
import { catalogueRoutes } from './catalogue-routes';
import { catalogueService } from './catalogue-service';
import { clientsPart } from './clients';
import { panelsPart, partsPart } from './catalogue';
import { panelGroupsPart } from './panel-groups';
import { quoteHistory } from './history-service';
import { quoteRoutes } from './quotes-routes';
import { approvalRoutes } from './approvals-routes';
import { approvalStatisticsRoutes } from './approval-statistics-routes';
import { quoteApprovals } from './approvals-service';
import type { Mailer } from '../../lib/mail-outbox';
import { type QuoteDeps, quoteRecords, webhookQueue } from './quotes-service';

export { clientScope } from './scopes';
/** The sweep of expired quote export files, run by server.ts. */

/** The quote service (/api/quote): clients (with `clients/lists`, the header's client selector), products, parts, panel groups, panels, quotes. */
export async function quoteService(app: FastifyInstance, opts: { mailer: Mailer; appUrl: string }) {
  // Quote PDFs in replies (`pdf`, `pdf_url`) become links signed for the requesting user.
  signDocumentUrlsOfReplies(app);
  await app.register(multipartPlugin);
  registerDefinitions(app, 'quote', { clients: clientsPart, panelgroups: panelGroupsPart, panels: panelsPart, parts: partsPart });
  const deps: QuoteDeps = {
    db: app.db,
    storage: storageOf(app),
    signer: app.signer,
    enqueue: webhookQueue,
    get broadcaster() {
      return broadcasterOf(app);
    },
  };
  await app.register(catalogueRoutes, { catalogue: catalogueService(deps) });
  await app.register(quoteRoutes, { quotes: quoteRecords(deps) });
  await app.register(approvalRoutes, {
    approvals: quoteApprovals(deps, { ...opts, afterReply: (name, task) => app.background.run(name, task) }),
  });
  await app.register(approvalStatisticsRoutes, { db: app.db });
  await app.register(historyRoutes, { subject: 'quote', permission: RESOURCES.quotes.permission, read: quoteHistory(deps) });
}
