import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PORTAL_HOURS, PORTAL_MAX_ROWS, PortalManualScanBody, PortalScanDetailRecord, PortalScanRecord } from '../../../src/domain/portal';
import { dataReply, ErrorReply } from '../../lib/replies';
import { PORTAL_MANUAL_MAX, PORTAL_MANUAL_WINDOW_SECONDS, type portalScanService } from './portal-service';

const AgentParams = z.object({ agentId: z.string() });
const errors = { 401: ErrorReply, 404: ErrorReply, 422: ErrorReply, 429: ErrorReply };
const enrolled = 'Enrolled portals send X-Kiosk-Token (401 without); a disabled or unknown agent is the model 404.';

/**
 * The customer portal's scan calls (docs/portal.md): no sign-in; access 'portal' (the agent is enabled, and its
 * portal is open or the request's X-Kiosk-Token was enrolled with its current pincode). Replies carry the portal
 * records only (src/domain/portal.ts), of that agent's last 48 hours.
 */
export function portalScanRoutes(app: FastifyInstance, opts: { portal: ReturnType<typeof portalScanService> }, done: () => void) {
  const { portal } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Customer portal'];
  const config = { access: 'portal' as const };

  r.get(
    '/portal/:agentId/scans',
    {
      config,
      schema: {
        tags,
        summary: `The agent's scans of the last ${PORTAL_HOURS} hours, newest first, portal fields only`,
        description: `At most ${PORTAL_MAX_ROWS}. has_quote false: a new scan; true: completed. ${enrolled}`,
        security: [],
        params: AgentParams,
        response: { 200: z.object({ items: z.array(PortalScanRecord), total: z.number() }), ...errors },
      },
    },
    async (req) => portal.list(Number(req.params.agentId)),
  );

  r.get(
    '/portal/:agentId/scans/:scanId',
    {
      config,
      schema: {
        tags,
        summary: "The portal's scan page: the vehicle and its damage, read-only",
        description:
          `Only a scan of this agent from the last ${PORTAL_HOURS} hours (else the model 404). The card's fields, make, model, colour, ` +
          'body type, the overview image, vehicle photos, damage counts per panel and severity with each detection image, tyre findings; ' +
          `never the client, agent, location, valuation, reports, videos or staff annotations. ${enrolled}`,
        security: [],
        params: AgentParams.extend({ scanId: z.string() }),
        response: { 200: dataReply(PortalScanDetailRecord), ...errors },
      },
    },
    async (req) => ({ data: await portal.detail(Number(req.params.agentId), req.params.scanId) }),
  );

  r.post(
    '/portal/:agentId/scans',
    {
      config,
      schema: {
        tags,
        summary: "Create Scan on the portal: a manual scan (type tire, status uploaded) of the agent's default client",
        description:
          `No fields (any sent are ignored: a kiosk picks no agent or client). Replies the portal's scan page record (201) and publishes ` +
          `created / saved like any new scan. At most ${PORTAL_MANUAL_MAX} per ${PORTAL_MANUAL_WINDOW_SECONDS / 60} minutes per agent and ` +
          `client address (429 with Retry-After). ${enrolled}`,
        security: [],
        params: AgentParams,
        body: PortalManualScanBody,
        response: { 201: dataReply(PortalScanDetailRecord), ...errors },
      },
    },
    async (req, reply) =>
      reply.status(201).send({ data: await portal.createManual({ agentId: Number(req.params.agentId), ip: req.ip, log: req.log }) }),
  );
  done();
}
