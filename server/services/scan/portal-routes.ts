import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PORTAL_HOURS, PORTAL_MAX_ROWS, PortalManualScanBody, PortalScanDetailRecord, PortalScanRecord } from '../../../src/domain/portal';
import { NotFoundError } from '../../errors';
import { dataReply, ErrorReply } from '../../lib/replies';
import { attemptThrottle } from '../../lib/throttle';
import { broadcastScan, queueScanEvent } from './events';
import { portalScanDetail, portalScans } from './portal-repository';
import { agentDefaultClient, insertManualScan } from './repository';
import { parseScanId, SCAN_MODEL, type ScanDeps, writeScanReport } from './service';

export { PORTAL_HOURS, PORTAL_MAX_ROWS };

/** Manual scans a kiosk may create (an open portal is anyone's): per agent and client address, per window. */
export const PORTAL_MANUAL_MAX = 20;
export const PORTAL_MANUAL_WINDOW_SECONDS = 15 * 60;

const AgentParams = z.object({ agentId: z.string() });
const errors = { 401: ErrorReply, 404: ErrorReply, 422: ErrorReply, 429: ErrorReply };
const enrolled = 'Enrolled portals send X-Kiosk-Token (401 without); a disabled or unknown agent is the model 404.';

/**
 * The customer portal's scan calls (docs/portal.md): no sign-in; access 'portal' (the agent is enabled, and its
 * portal is open or the request's X-Kiosk-Token was enrolled with its current pincode). Replies carry the portal
 * records only (src/domain/portal.ts), of that agent's last 48 hours.
 */
export function portalScanRoutes(app: FastifyInstance, opts: { deps: ScanDeps }, done: () => void) {
  const { deps } = opts;
  const { db } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Customer portal'];
  const config = { access: 'portal' as const };
  const manualThrottle = attemptThrottle(db, {
    bucket: 'portal-manual-scan',
    max: PORTAL_MANUAL_MAX,
    windowSeconds: PORTAL_MANUAL_WINDOW_SECONDS,
    message: (retry) => `Too many manual scans. Please try again in ${retry} seconds.`,
  });
  const detail = async (agentId: number, scanId: number) => {
    const scan = await portalScanDetail(db, agentId, scanId, PORTAL_HOURS);
    if (!scan) throw new NotFoundError(SCAN_MODEL, scanId);
    return scan;
  };

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
    async (req) => {
      const items = await portalScans(db, Number(req.params.agentId), PORTAL_HOURS, PORTAL_MAX_ROWS);
      return { items, total: items.length };
    },
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
    async (req) => ({ data: await detail(Number(req.params.agentId), parseScanId(req.params.scanId)) }),
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
    async (req, reply) => {
      const agentId = Number(req.params.agentId);
      await manualThrottle.claim(`${agentId}|${req.ip}`);
      const { id, item } = await db.transaction().execute(async (trx) => {
        const id = await insertManualScan(trx, {
          scan_id: randomUUID(),
          agent_id: agentId,
          client_id: await agentDefaultClient(trx, agentId),
          startTime: null,
        });
        return { id, item: await queueScanEvent(trx, 'created', id) };
      });
      // Like the admin's manual scan: its report, then the live events (the kiosk's own grid gets it on `saved`).
      await writeScanReport(db, deps.storage, id, req.log);
      await broadcastScan(deps, 'created', item);
      return reply.status(201).send({ data: await detail(agentId, id) });
    },
  );
  done();
}
