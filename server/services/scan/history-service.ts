import type { Transaction } from 'kysely';
import type { EventFields } from '../../../src/domain/history';
import { DAMAGE_LEVELS, SCAN_VEHICLE_FIELDS } from '../../../src/domain/scan-codes';
import type { DB } from '../../db/schema';
import { NotFoundError } from '../../errors';
import type { Caller } from '../../lib/caller';
import { type EventActor, eventRecorder, findEvents } from '../../lib/events-repository';
import { historyCsv } from '../../lib/history';
import { panelMeasures } from './scan-page-repository';
import { findScanItem, type ScanItem } from './scan-repository';
import { parseScanId, SCAN_MODEL, type ScanDeps } from './shared';

/** Records a scan's event in the write's transaction, keeping only the fields that changed. */
export const recordScanEvent = eventRecorder('scan');

/** The editable vehicle fields of a scan (wire names), with the client's name beside its id. */
export function vehicleFields(scan: ScanItem): EventFields {
  const fields: EventFields = { client_name: scan.client_name };
  for (const f of SCAN_VEHICLE_FIELDS) fields[f] = scan[f];
  return fields;
}

/** PUT scans/{id}'s event: `scan.client_changed` when the client moved, else `scan.updated`. */
export async function recordScanUpdate(trx: Transaction<DB>, actor: EventActor, before: ScanItem, after: ScanItem | null) {
  if (!after) return;
  const action = before.client_id === after.client_id ? 'scan.updated' : 'scan.client_changed';
  await recordScanEvent(trx, actor, after, action, vehicleFields(before), vehicleFields(after));
}

/** The scan's damage totals and, with a panel, that panel's count at every level (`<panel>.<dents|scratchs>.<level>`). */
export async function scanCounts(trx: Transaction<DB>, scanId: number, carPanel?: string): Promise<EventFields> {
  const scan = await findScanItem(trx, scanId);
  const fields: EventFields = { dentCount: scan?.dentCount ?? null, scratchCount: scan?.scratchCount ?? null };
  if (carPanel === undefined) return fields;
  const stored = await panelMeasures(trx, scanId, carPanel);
  for (const type of ['dents', 'scratchs'] as const)
    for (const level of DAMAGE_LEVELS)
      fields[`${carPanel}.${type}.${level}`] = stored.find((m) => m.type === type && m.level === level)?.count ?? 0;
  return fields;
}

/** GET scans/{id}/history: the scan's events the caller may see (the scan itself must be visible), as records or CSV. */
export function scanHistory(deps: Pick<ScanDeps, 'db'>) {
  return async (caller: Pick<Caller, 'scope'>, rawId: string, format?: 'csv') => {
    const id = parseScanId(rawId);
    if (!(await findScanItem(deps.db, id, caller.scope))) throw new NotFoundError(SCAN_MODEL, id);
    const events = await findEvents(deps.db, 'scan', id, caller.scope);
    return format === 'csv' ? { csv: historyCsv(events) } : { events };
  };
}
