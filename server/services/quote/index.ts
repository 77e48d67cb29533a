import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../lib/resource';
import { calculateCategoryRoute, clientsResource } from './clients';
import { panelsResource, partsResource, productsResource } from './catalogue';
import { panelGroupRoutes } from './panel-groups';

export { clientScope } from './scopes';

/** The quote service (/api/quote): clients (with `clients/lists`, the header's client selector), products, parts, panel groups, panels; quotes next. */
export async function quoteService(app: FastifyInstance) {
  registerResource(app, clientsResource);
  await app.register(calculateCategoryRoute);
  registerResource(app, productsResource);
  registerResource(app, partsResource);
  await app.register(panelGroupRoutes);
  registerResource(app, panelsResource);
}
