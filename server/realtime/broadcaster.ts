/**
 * The one interface the services publish live events through. Two
 * implementations: the embedded Pusher-protocol endpoint (embedded.ts, the default) and an
 * external Pusher-compatible server through the official SDK (external.ts, when PUSHER_* are set).
 *
 * Channels and events (names as Laravel Echo sees them; `.listen('.created')` means the wire name `created`):
 * - `private-scan` (Echo `private('scan')`): `created`, `updated` with a ScanEvent. Embedded: every holder of
 *   `scan` may subscribe and receives only the scans inside their data scope. External: only unrestricted users.
 * - `private-scan.agent.{agentId}`, `private-scan.client.{clientId}`, `private-scan.agent.{agentId}.client.{clientId}`:
 *   the same events, for restricted users when the server cannot filter per subscriber (external servers).
 *   `GET /api/broadcasting/channels` tells the browser which of these to subscribe to.
 * - `agent.{agentId}.scans` (public, the customer portal kiosk): `saved` with a PortalScanEvent, enabled agents only.
 */
export interface ScanEvent {
  id: number;
  agent_id: number | null;
  client_id: number | null;
  status: string;
  type: string;
  carColor: string | null;
  licensePlate: string | null;
  make: string | null;
  model: string | null;
  client_name: string | null;
  body_type: string | null;
  valuation: number | string | null;
  location_state: string | null;
  /** A quote's change travels as its scan's `updated` event with the quote's id and status (`deleted` once gone). */
  quote_id?: number;
  quote_status?: string;
  // Further list columns of the object passed (agent_name, location_name, timestamps...) travel as given.
}

/** The customer portal's fields only (src/domain/portal.ts PortalScanRecord): the channel is public, so nothing else may travel on it. */
export interface PortalScanEvent {
  id: number;
  licensePlate: string | null;
  timestamp: string | Date;
  has_quote: boolean;
  status: string;
  type: string;
  damageCount: number;
  dentCount: number;
  scratchCount: number;
}

export interface Broadcaster {
  /** `created` on the scan channels. Never rejects: a failed publication is logged, the caller's write stands. */
  scanCreated(scan: ScanEvent): Promise<void>;
  /** `updated` on the scan channels. Never rejects. */
  scanUpdated(scan: ScanEvent): Promise<void>;
  /** `saved` on `agent.{agentId}.scans` with the portal fields only, when the agent is enabled. Never rejects. */
  portalScanSaved(agentId: number, scan: PortalScanEvent): Promise<void>;
  /**
   * Closes the live connections (on every instance) that `revocation` no longer authorises. Never rejects. The
   * embedded endpoint only: an external server's sockets keep their subscriptions until they reconnect.
   */
  revoke(revocation: Revocation): Promise<void>;
  close(): Promise<void>;
}

/** What no longer holds: sign-in tokens revoked, users whose access changed, agents whose portal access changed. */
export interface Revocation {
  tokens?: number[];
  users?: number[];
  portals?: number[];
}

declare module 'fastify' {
  interface FastifyInstance {
    broadcaster: Broadcaster;
  }
}

/** Picks the portal fields, whatever the caller passed (a full scan row must not reach a public channel). */
export const portalPayload = (scan: PortalScanEvent): PortalScanEvent => ({
  id: scan.id,
  licensePlate: scan.licensePlate,
  timestamp: scan.timestamp,
  has_quote: scan.has_quote,
  status: scan.status,
  type: scan.type,
  damageCount: scan.damageCount,
  dentCount: scan.dentCount,
  scratchCount: scan.scratchCount,
});

export const SCAN_CREATED = 'created';
export const SCAN_UPDATED = 'updated';
export const PORTAL_SAVED = 'saved';
