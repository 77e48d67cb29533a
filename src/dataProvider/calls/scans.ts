import type { Identifier } from 'react-admin';
import type { ArchData, EvaluationReply, PlateLookup, PlateSuggestion, ScanDetail, TyreRepair } from '../../domain/records';
import type { TyreWear } from '../../domain/vehicles';
import type { Request } from '../http';
import { exportCall, type ExportQuery } from './exports';

const scanPath = (id: Identifier, rest = '') => `scans/${encodeURIComponent(String(id))}${rest}`;

/** The scan service's calls from the scan list, the scan page and the quote screens. */
export const scanCalls = (request: Request) => ({
  /** The scan list as a file (the list's search and filters; `format` xlsx, else CSV): the file's url. */
  exportScans: (query: ExportQuery) => exportCall(request, 'scan', 'scans/export-scan-report', query),
  scan: (id: Identifier) => request<ScanDetail>('scan', scanPath(id)),
  /** Saves changed scan fields (noLoading: no loading screen on the devices); the reply is the saved scan. */
  saveScan: (id: Identifier, changes: object) =>
    request<ScanDetail>('scan', scanPath(id), { method: 'PUT', body: { ...changes, noLoading: true } }),
  /** Asks the server to refresh the scan. */
  refreshScan: (id: Identifier) => request('scan', scanPath(id, '/refresh'), { method: 'POST' }),
  /** The scan's damage priced for a quote; `newDamageOnly`: only its gains over the vehicle's previous scan. */
  evaluateScan: (id: Identifier, newDamageOnly = false) =>
    request<EvaluationReply>('scan', scanPath(id, '/evaluate'), { query: { new_damage_only: newDamageOnly ? '1' : undefined } }),
  /** Each wheel's tread across the scan's vehicle up to the scan, with the wear projection (an estimate). */
  tyreWear: (id: Identifier) => request<TyreWear>('scan', scanPath(id, '/tyre-wear')),
  /** Sets (or with null clears) a tyre's repair; the reply is the scan's tyre repairs. */
  tyreRepairs: (
    id: Identifier,
    body: { row: number; direction: TyreRepair['direction']; repair_type: TyreRepair['repair_type'] | null; version?: number },
  ) => request<TyreRepair[]>('scan', scanPath(id, '/tyre-repairs'), { method: 'PUT', body }),
  /** Stores an annotated image (multipart: scan_id, edit, file). */
  addAnnotate: (id: Identifier, form: FormData) => request('scan', scanPath(id, '/annotates'), { method: 'POST', body: form }),
  deleteAnnotate: (id: Identifier, imageId: Identifier) => request('scan', scanPath(id, `/annotates/${imageId}`), { method: 'DELETE' }),
  /** Sets a panel's dent and scratch counts by size. */
  editDamageCount: (body: object) => request('scan', 'scans/arch/edit-damage-count', { method: 'POST', body }),
  /** The wheel arch measurements of a scan. */
  archData: (scanId: Identifier) => request<ArchData>('scan', 'archData/search', { query: { scan_id: scanId } }),
  /** Registrations starting with `number`. */
  searchPlates: (number: string) => request<PlateSuggestion[]>('scan', 'license-plates/search', { method: 'POST', body: { number } }),
  /** The vehicle registered under `plate` (in `state` when known). */
  fetchPlate: (plate: string, state?: string | null) =>
    request<PlateLookup>('scan', `license-plates/fetch/${encodeURIComponent(plate)}`, { query: { state: state ?? undefined } }),
});
