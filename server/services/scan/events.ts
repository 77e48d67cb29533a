import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { CallLog } from '../../lib/caller';
import { enqueueWebhooks } from '../../lib/events';
import type { Broadcaster } from '../../realtime/broadcaster';
import { findScanItem, type ScanItem } from './scan-repository';

export type ScanEventKind = 'created' | 'updated';

/**
 * Queues `scan.created` / `scan.updated` for the agent's subscribed webhooks inside the transaction that writes the
 * scan (transactional outbox: the change and its deliveries commit or roll back together, so no crash in between
 * loses one). Returns the list row it sent, to broadcast once the transaction has committed.
 */
export async function queueScanEvent(trx: Transaction<DB>, kind: ScanEventKind, scanId: number): Promise<ScanItem | null> {
  const item = await findScanItem(trx, scanId);
  if (item) await enqueueWebhooks(trx, item.agent_id, kind === 'created' ? 'scan.created' : 'scan.updated', item);
  return item;
}

/**
 * After the commit, the live side of a scan's creation or change: `created` / `updated` with the list row on the scan
 * channels, and `saved` on the agent's customer-portal channel (the broadcaster keeps only the portal fields, enabled
 * agents only). A failure is logged; the write has committed and its webhooks are queued.
 */
export async function broadcastScan(live: { broadcaster?: Broadcaster; log: CallLog }, kind: ScanEventKind, scan: ScanItem | null) {
  const b = live.broadcaster;
  if (!b || !scan) return;
  try {
    await (kind === 'created' ? b.scanCreated(scan) : b.scanUpdated(scan));
    await b.portalScanSaved(scan.agent_id, scan);
  } catch (err) {
    live.log.warn({ err, scan: scan.id }, 'could not publish a scan event');
  }
}
