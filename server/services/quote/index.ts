import type { FastifyInstance } from 'fastify';
import { broadcasterOf } from '../../lib/events';
import { multipartPlugin } from '../../lib/multipart';
import { registerResource } from '../../lib/resource';
import { signDocumentUrlsOfReplies, storageOf } from '../../lib/storage';
import { calculateCategoryRoute, clientsResource } from './clients';
import { panelsResource, partsResource, productsResource } from './catalogue';
import { panelGroupRoutes } from './panel-groups';
import { quoteRoutes } from './quotes-routes';
import { type QuoteDeps, quoteRecords } from './quotes-service';

export { clientScope } from './scopes';
/** The sweep of expired quote export files, run by server.ts. */
export { removeExpiredQuoteExports } from './quotes-export';

/** The quote service (/api/quote): clients (with `clients/lists`, the header's client selector), products, parts, panel groups, panels, quotes. */
export async function quoteService(app: FastifyInstance) {
  // Quote PDFs in replies (`pdf`, `pdf_url`) become links signed for the requesting user.
  signDocumentUrlsOfReplies(app);
  registerResource(app, clientsResource);
  await app.register(calculateCategoryRoute);
  registerResource(app, productsResource);
  registerResource(app, partsResource);
  await app.register(panelGroupRoutes);
  registerResource(app, panelsResource);
  const deps: QuoteDeps = {
    db: app.db,
    storage: storageOf(app),
    signer: app.signer,
    log: app.log,
    get broadcaster() {
      return broadcasterOf(app);
    },
  };
  await app.register(multipartPlugin);
  await app.register(quoteRoutes, { quotes: quoteRecords(deps) });
}
