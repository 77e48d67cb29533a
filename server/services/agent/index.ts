import type { FastifyInstance } from 'fastify';
import { multipartPlugin } from '../../lib/multipart';
import { registerResource } from '../../lib/resource';
import { agentRoutes, agentsResource } from './agents';
import { devicesResource } from './devices';
import { locationsResource } from './locations';
import { webhookEventRoutes, webhooksResource } from './webhooks';

/** The deliverer of the webhook outbox, run by server.ts (one loop per process). */
export { createWebhookDeliverer } from './webhook-delivery';

/** The agent service (/api/agent): locations, devices, agents (with the portal pin check) and their webhooks. */
export async function agentService(app: FastifyInstance) {
  await app.register(multipartPlugin);
  registerResource(app, locationsResource);
  registerResource(app, devicesResource);
  registerResource(app, agentsResource);
  await app.register(agentRoutes);
  registerResource(app, webhooksResource);
  await app.register(webhookEventRoutes);
}
