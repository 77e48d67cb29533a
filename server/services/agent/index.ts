import type { FastifyInstance } from 'fastify';
import { multipartPlugin } from '../../lib/multipart';
import { registerDefinitions } from '../../lib/definitions';
import { registerResource } from '../../lib/resource';
import { agentRoutes } from './agents-routes';
import { agentsPart, agentsService } from './agents-service';
import { devicesPart } from './devices';
import { locationsPart } from './locations';
import { webhookEventRoutes } from './webhooks-routes';
import { webhooksResource, webhooksService } from './webhooks-service';

/** The deliverer of the webhook outbox, run by server.ts (one loop per process). */
export { createWebhookDeliverer } from './webhook-delivery';

/** The agent service (/api/agent): locations, devices, agents (with the portal pin check) and their webhooks. */
export async function agentService(app: FastifyInstance, opts: { allowPrivateWebhooks: boolean }) {
  await app.register(multipartPlugin);
  registerDefinitions(app, 'agent', { locations: locationsPart, devices: devicesPart, agents: agentsPart });
  await app.register(agentRoutes, { agents: agentsService({ db: app.db, signer: app.signer }) });
  registerResource(app, webhooksResource({ allowPrivate: opts.allowPrivateWebhooks }));
  await app.register(webhookEventRoutes, { webhooks: webhooksService({ db: app.db }) });
}
