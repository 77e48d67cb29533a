import { PORTAL_HOURS } from '../../domain/portal-window';
import type { PortalScan } from '../../domain/portal';

/**
 * A `saved` scan goes on top, once: of COMPLETED SCANS when it has a quote, else of NEW SCANS (the
 * sections split the one list by has_quote, so a scan that gets a quote leaves NEW SCANS). A scan older than the
 * portal's window is not shown, as the list would not show it.
 */
export function applySaved(rows: PortalScan[], scan: PortalScan, now = Date.now()): PortalScan[] {
  if (!(now - Date.parse(scan.timestamp) <= PORTAL_HOURS * 3600_000)) return rows;
  return [scan, ...rows.filter((r) => r.id !== scan.id)];
}

export const newScans = (rows: PortalScan[]) => rows.filter((s) => !s.has_quote);
export const completedScans = (rows: PortalScan[]) => rows.filter((s) => s.has_quote);

/** The newest `saved` event, for the scan page to reload its scan. */
export interface SavedEvent {
  scan: PortalScan;
  at: number;
}
