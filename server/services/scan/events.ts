import type { FastifyInstance } from 'fastify';
import type { Broadcaster } from '../../realtime/broadcaster';
import { enqueueWebhooks } from '../agent/webhook-delivery';
import type { ScanItem } from './repository';

/** The broadcaster when the app has one (server/realtime decorates it; a service deployed alone may run without). */
const broadcasterOf = (app: FastifyInstance): Broadcaster | undefined => (app as Partial<Pick<FastifyInstance, 'broadcaster'>>).broadcaster;

/**
 * Publishes a scan's creation or change: `created` / `updated` with the list row on the scan channels, and
 * `saved` on the agent's customer-portal channel (the broadcaster keeps only the portal fields, enabled agents only);
 * and queues `scan.created` / `scan.updated` for the agent's subscribed webhooks (sent by the delivery loop).
 * A failure is logged; it never undoes the write that has already committed.
 */
export async function publishScan(app: FastifyInstance, kind: 'created' | 'updated', scan: ScanItem) {
  try {
    await enqueueWebhooks(app.db, scan.agent_id, kind === 'created' ? 'scan.created' : 'scan.updated', scan);
  } catch (err) {
    app.log.error({ err, scan: scan.id }, 'could not queue the scan webhooks');
  }
  const b = broadcasterOf(app);
  if (!b) return;
  try {
    await (kind === 'created' ? b.scanCreated(scan) : b.scanUpdated(scan));
    // Quotes arrive with the quote issue; until then no scan has one.
    await b.portalScanSaved(scan.agent_id, {
      id: scan.id,
      licensePlate: scan.licensePlate,
      timestamp: scan.timestamp,
      has_quote: false,
      status: scan.status,
      type: scan.type,
    });
  } catch (err) {
    app.log.warn({ err, scan: scan.id }, 'could not publish a scan event');
  }
}
