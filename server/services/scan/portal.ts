import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorReply } from '../../lib/replies';
import { portalScans } from './repository';

/** The portal shows the agent's scans of the last 48 hours (DECISIONS); at most this many, newest first. */
export const PORTAL_HOURS = 48;
export const PORTAL_MAX_ROWS = 200;

/** Only what a portal card shows (spec 1 §3 Portal scan), never the rest of the scan. */
const PortalScan = z.object({
  id: z.number(),
  licensePlate: z.string().nullable(),
  timestamp: z.date(),
  has_quote: z.boolean(),
  status: z.string(),
  type: z.string(),
});

/**
 * The customer portal's scan calls (no sign-in; access 'portal': the agent is enabled, and its portal is open or the
 * request's X-Kiosk-Token was enrolled with its current pincode).
 */
export function portalScanRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/portal/:agentId/scans',
    {
      config: { access: 'portal' },
      schema: {
        tags: ['Customer portal'],
        summary: `The agent's scans of the last ${PORTAL_HOURS} hours, newest first, portal fields only`,
        description: `At most ${PORTAL_MAX_ROWS}. has_quote false: a new scan; true: completed. Enrolled portals send X-Kiosk-Token (401 without).`,
        security: [],
        params: z.object({ agentId: z.string() }),
        response: {
          200: z.object({ items: z.array(PortalScan), total: z.number() }),
          401: ErrorReply,
          404: ErrorReply,
        },
      },
    },
    async (req) => {
      const items = await portalScans(app.db, Number(req.params.agentId), PORTAL_HOURS, PORTAL_MAX_ROWS);
      return { items, total: items.length };
    },
  );
  return Promise.resolve();
}
