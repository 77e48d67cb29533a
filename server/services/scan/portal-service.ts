import { randomUUID } from 'node:crypto';
import { PORTAL_HOURS, PORTAL_MAX_ROWS } from '../../../src/domain/portal';
import { NotFoundError } from '../../errors';
import type { CallLog } from '../../lib/caller';
import { attemptThrottle } from '../../lib/throttle';
import { broadcastScan, queueScanEvent } from './events';
import { portalScanDetail, portalScans } from './portal-repository';
import { agentDefaultClient, insertManualScan } from './scan-repository';
import { parseScanId, SCAN_MODEL, type ScanDeps, writeScanReport } from './shared';

export { PORTAL_HOURS, PORTAL_MAX_ROWS };

/** Manual scans a kiosk may create (an open portal is anyone's): per agent and client address, per window. */
export const PORTAL_MANUAL_MAX = 20;
export const PORTAL_MANUAL_WINDOW_SECONDS = 15 * 60;

/**
 * The customer portal's scans (docs/portal.md) of one agent, for a caller the auth plugin let in ('portal' access):
 * the portal records only (src/domain/portal.ts), of that agent's last 48 hours.
 */
export function portalScanService(deps: Pick<ScanDeps, 'db' | 'storage' | 'broadcaster' | 'log'>) {
  const { db } = deps;
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

  return {
    async list(agentId: number) {
      const items = await portalScans(db, agentId, PORTAL_HOURS, PORTAL_MAX_ROWS);
      return { items, total: items.length };
    },

    detail: (agentId: number, rawScanId: string) => detail(agentId, parseScanId(rawScanId)),

    /** A manual scan of the agent's default client, throttled per agent and client address (`ip`). */
    async createManual(input: { agentId: number; ip: string; log: CallLog }) {
      const { agentId } = input;
      await manualThrottle.claim(`${agentId}|${input.ip}`);
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
      await writeScanReport(db, deps.storage, id, input.log);
      await broadcastScan(deps, 'created', item);
      return detail(agentId, id);
    },
  };
}
