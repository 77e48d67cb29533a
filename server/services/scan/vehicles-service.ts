import type { DataScope } from '../../../src/domain/permissions';
import { wheelWear } from '../../../src/domain/tyre-wear';
import {
  compareDamage,
  newDamage,
  newDamageSummary,
  normaliseRegistration,
  normaliseVin,
  type PanelComparison,
} from '../../../src/domain/vehicle-history';
import type { Executor } from '../../db/database';
import { NotFoundError, ValidationError } from '../../errors';
import type { Caller } from '../../lib/caller';
import { enqueueWebhooks } from '../../lib/events';
import { comparisonBasis, type ComparisonBasis, visibleScan } from '../../lib/scan-scope';
import { findScanItem } from './scan-repository';
import { legalMinMm, loadTyreWear } from '../../lib/tyre-wear';
import { SCAN_MODEL, type ScanDeps } from './shared';
import {
  comparedAgainst,
  compareWindowDays,
  countsOf,
  countVehiclesUpTo,
  findComparison,
  findScanVehicleFacts,
  findVehicle,
  insertVehicle,
  listVehicles,
  lockVehicleKey,
  nextScansOf,
  previousScansOf,
  quotesOfScans,
  refreshVehicle,
  setScanVehicle,
  setScanVehicleExtras,
  setVehicleVin,
  tyresOfScans,
  type VehicleExportRow,
  vehicleExportRows,
  replaceComparisons,
  type StoredComparison,
  vehicleByRegistration,
  vehicleByVin,
  vehicleScans,
} from './vehicles-repository';
import { VEHICLE_COLUMNS, type VehicleSort } from '../../../src/domain/vehicles';
import { REPORT_LABELS, type ReportLanguage } from '../../../src/domain/report-labels';
import type { ExportFormat } from '../../../src/domain/scan-codes';
import { buildReportFile, readInBatches, REPORT_MAX_ROWS, type ReportLayout, storeReportFile } from '../../lib/report-file';

/** What the list and its export read: the search and the order. */
type VehicleSearch = { q?: string; sort: VehicleSort; order: 'asc' | 'desc' };

export const VEHICLE_MODEL = 'Vehicle';
/** How far back a scan looks for the vehicle's previous scan when the setting is missing or unreadable. */
export const DEFAULT_COMPARE_WINDOW_DAYS = 180;

/** The counts a comparison rests on, as one text (jsonb keeps keys in its own order, so its JSON cannot be compared). */
const countsText = (panels: PanelComparison[]) =>
  panels.map((p) => `${p.carPanel}/${p.type}:${p.levels.map((l) => `${l.level}=${l.before}>${l.after}`).join(',')}`).join(';');

/**
 * Compares the scan with its vehicle's previous scan of its kind within the window, once per basis (any scan, the same
 * agent's, the same client's, both: each viewer reads the one whose previous scan it may see), stored with the scan;
 * bases without a previous scan store nothing. When the same agent's comparison has new or worsened damage and differs
 * from the one stored before, `scan.new_damage` is queued for the agent's webhooks in the same transaction (an agent
 * hears only of its own scans), so a recomputation that changes nothing sends nothing.
 */
async function refreshComparison(trx: Executor, scanId: number, windowDays: number) {
  const previous = await previousScansOf(trx, scanId, windowDays);
  const byScan = new Map<number, { scanned_at: Date; bases: ComparisonBasis[] }>();
  for (const basis of Object.keys(previous) as ComparisonBasis[]) {
    const p = previous[basis];
    if (p) byScan.set(p.id, { scanned_at: p.scanned_at, bases: [...(byScan.get(p.id)?.bases ?? []), basis] });
  }
  const counts = await countsOf(trx, [scanId, ...byScan.keys()]);
  const rows = [...byScan].map(([id, p]): StoredComparison => {
    const comparison = compareDamage(counts.get(id)!, counts.get(scanId)!);
    return {
      previous_scan_id: id,
      previous_scanned_at: p.scanned_at,
      differences: comparison.panels,
      summary: newDamageSummary(comparison),
      has_new_damage: comparison.hasNewDamage,
      new_damage_count: newDamage(comparison).reduce((n, d) => n + d.delta, 0),
      bases: p.bases,
    };
  });
  const agents = rows.find((r) => r.bases.includes('agent'));
  const before = agents?.has_new_damage ? await findComparison(trx, scanId, 'agent') : null;
  await replaceComparisons(trx, scanId, rows);
  if (!agents?.has_new_damage) return;
  const unchanged =
    before !== null &&
    Number(before.previous_scan_id) === agents.previous_scan_id &&
    countsText(before.differences) === countsText(agents.differences);
  if (unchanged) return;
  const scan = await findScanItem(trx, scanId);
  if (scan)
    await enqueueWebhooks(trx, scan.agent_id, 'scan.new_damage', {
      scan,
      previous_scan_id: agents.previous_scan_id,
      previous_scanned_at: agents.previous_scanned_at,
      summary: agents.summary,
      new_damage: agents.new_damage_count,
      differences: agents.differences,
    });
}

/**
 * Recomputes the comparisons a scan's counts or vehicle take part in: its own, those resting on it, and its
 * vehicle's next scans of its kind (which may rest on it now).
 */
export async function refreshComparisonsAround(trx: Executor, scanId: number) {
  const windowDays = await compareWindowDays(trx, DEFAULT_COMPARE_WINDOW_DAYS);
  await refreshComparison(trx, scanId, windowDays);
  const dependants = new Set([...(await comparedAgainst(trx, scanId)), ...(await nextScansOf(trx, scanId))]);
  for (const id of dependants) await refreshComparison(trx, id, windowDays);
}

/**
 * Finds or creates the scan's vehicle and links it (in the writer's transaction), then recomputes the comparisons.
 * A VIN match wins; a VIN new to us takes over the registration's vehicle while that one has no VIN, and starts a new
 * vehicle when it has another (the plate moved); without a VIN the registration and state find the vehicle carrying
 * them now. A scan with neither is linked to no vehicle. `extras` are what a device reported beyond the registration.
 */
export async function linkScanVehicle(trx: Executor, scanId: number, extras: { vin?: string | null; odometer_km?: number | null } = {}) {
  await setScanVehicleExtras(trx, scanId, { ...extras, ...(extras.vin !== undefined ? { vin: normaliseVin(extras.vin) } : {}) });
  const scan = await findScanVehicleFacts(trx, scanId);
  if (!scan) return;
  const registration = normaliseRegistration(scan.license_plate);
  const vin = normaliseVin(scan.vin);
  const state = scan.location_state;
  let vehicleId: number | null = null;
  if (vin) await lockVehicleKey(trx, `vin:${vin}`);
  if (registration) await lockVehicleKey(trx, `reg:${registration}:${state ?? ''}`);
  if (vin) {
    const byVin = await vehicleByVin(trx, vin);
    const byPlate = !byVin && registration ? await vehicleByRegistration(trx, registration, state) : null;
    if (byVin) vehicleId = byVin.id;
    else if (byPlate && byPlate.vin === null) {
      vehicleId = byPlate.id;
      await setVehicleVin(trx, byPlate.id, vin);
    } else vehicleId = await insertVehicle(trx, { registration, state, vin, at: scan.scanned_at });
  } else if (registration) {
    vehicleId =
      (await vehicleByRegistration(trx, registration, state))?.id ??
      (await insertVehicle(trx, { registration, state, vin: null, at: scan.scanned_at }));
  }
  if (vehicleId !== scan.vehicle_id) {
    // The vehicle's former next scan rested on this one: recomputed while the link still shows it.
    const formerDependants = scan.vehicle_id === null ? [] : await comparedAgainst(trx, scanId);
    await setScanVehicle(trx, scanId, vehicleId);
    if (scan.vehicle_id !== null) await refreshVehicle(trx, scan.vehicle_id);
    const windowDays = await compareWindowDays(trx, DEFAULT_COMPARE_WINDOW_DAYS);
    for (const id of formerDependants) await refreshComparison(trx, id, windowDays);
  }
  if (vehicleId !== null) await refreshVehicle(trx, vehicleId);
  await refreshComparisonsAround(trx, scanId);
}

/** The Vehicles list and the vehicle page, both inside the caller's scope (a vehicle is seen through its scans). */
export function vehicleRecords(deps: Pick<ScanDeps, 'db' | 'storage' | 'signer'>) {
  const { db } = deps;
  return {
    list: (caller: Pick<Caller, 'scope'>, query: VehicleSearch & { page: number; per_page: number }) =>
      listVehicles(db, caller.scope, query),

    /** Writes the searched vehicles in the list's order as a file (removed REPORT_TTL_HOURS later) and returns its URL. */
    async exportReport(caller: Pick<Caller, 'actor' | 'scope'>, query: VehicleSearch & { format: ExportFormat; lang: ReportLanguage }) {
      const { format, lang, ...search } = query;
      if ((await countVehiclesUpTo(db, caller.scope, search.q, REPORT_MAX_ROWS)) > REPORT_MAX_ROWS)
        throw new ValidationError({ q: `An export holds at most ${REPORT_MAX_ROWS.toLocaleString('en-AU')} vehicles: narrow the search` });
      const words = REPORT_LABELS[lang].vehicles;
      const layout: ReportLayout<VehicleExportRow> = {
        lang,
        sheet: words.sheet,
        columns: VEHICLE_COLUMNS.map((key) => words.columns[key]),
        widths: [13, 7, 14, 16, 19, 20, 20],
        cells: (v) => [v.registration, v.state, v.make, v.model, v.vin, { iso: v.first_iso }, { iso: v.last_iso }],
      };
      const file = await readInBatches(db, vehicleExportRows(caller.scope, search), (batches) => buildReportFile(format, layout, batches));
      return storeReportFile(deps, 'vehicle_exports', caller.actor.id, format, file);
    },

    /**
     * The scan's stored comparison for the caller's scope (null without one); the scan must be the caller's to see, and
     * the comparison's previous scan is one the caller sees: a vehicle's history is seen only as far as their scans.
     */
    async comparison(caller: Pick<Caller, 'scope'>, scanId: number) {
      if (!(await visibleScan(db, caller.scope, scanId))) throw new NotFoundError(SCAN_MODEL, scanId);
      return findComparison(db, scanId, comparisonBasis(caller.scope));
    },

    /** The scan's tyre wear per wheel across its vehicle's scans up to it, as far as the caller sees them. */
    async tyreWear(caller: Pick<Caller, 'scope'>, scanId: number) {
      if (!(await visibleScan(db, caller.scope, scanId))) throw new NotFoundError(SCAN_MODEL, scanId);
      return loadTyreWear(db, scanId, caller.scope);
    },

    async detail(caller: Pick<Caller, 'scope'>, id: number) {
      const vehicle = await findVehicle(db, caller.scope, id);
      if (!vehicle) throw new NotFoundError(VEHICLE_MODEL, id);
      return { ...vehicle, ...(await history(db, caller.scope, id)) };
    },
  };
}

/** The timeline, damage per panel and tyre depths per wheel of the scans the scope sees, with each wheel's projection. */
async function history(db: Executor, scope: DataScope, vehicleId: number) {
  const scans = await vehicleScans(db, scope, vehicleId);
  const ids = scans.map((s) => s.id);
  const [quotes, counts, tyres, legalMin] = await Promise.all([
    quotesOfScans(db, ids),
    countsOf(db, ids),
    tyresOfScans(db, ids),
    legalMinMm(db),
  ]);
  return {
    scans: scans.map((s) => ({ ...s, quotes: quotes.filter((q) => Number(q.scan_id) === s.id) })),
    damage: scans.map((s) => ({ scan_id: s.id, scanned_at: s.scanned_at, measures: counts.get(s.id)! })),
    tyres: wheelWear(scans, tyres, legalMin),
    legal_min_mm: legalMin,
  };
}
