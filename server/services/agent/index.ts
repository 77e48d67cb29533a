import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../lib/resource';
import { agentSelectorRoutes } from './agents';
import { locationsResource } from './locations';

/** The agent service (/api/agent): locations now; devices, agents and webhooks with the catalogue. */
export async function agentService(app: FastifyInstance) {
  registerResource(app, locationsResource);
  await app.register(agentSelectorRoutes);
}
