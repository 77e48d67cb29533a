import type { ScanDeps } from './shared';
import type { Caller } from '../../lib/caller';
import {
  loadGstPercent,
  loadNewDamage,
  loadPanels,
  loadPricingClient,
  loadScanMeasures,
  loadTyreChoices,
  thresholdCategories,
} from '../../lib/pricing-inputs';
import { searchScans } from './list-repository';
import { visibleScans } from './scans-service';
import { parseScanId } from './shared';

/** The quote screen's scan reads, scoped like the scan list: what a scan is priced with, and finding scans. */
export function scanEvaluation(deps: Pick<ScanDeps, 'db'>) {
  const { db } = deps;
  const visible = visibleScans(db);
  return {
    /**
     * The scan's counts, its client's prices and each panel's category (the list row as `scanInfo`), and whether the
     * scan has a comparison to price only its new damage by. `newDamageOnly`: the counts are the comparison's gains,
     * as saving such a quote prices them, and `pre_existing` names the damaged panels left at 0.
     */
    async evaluate(caller: Pick<Caller, 'scope'>, rawId: string, newDamageOnly = false) {
      const id = parseScanId(rawId);
      const scanInfo = await visible.item(caller, id);
      const [scanMeasures, newDamage, panels, client, gst_percent, tyres] = await Promise.all([
        loadScanMeasures(db, id),
        loadNewDamage(db, id, caller.scope),
        loadPanels(db),
        scanInfo.client_id === null ? null : loadPricingClient(db, scanInfo.client_id),
        loadGstPercent(db),
        loadTyreChoices(db, id),
      ]);
      const only = newDamageOnly && newDamage !== null;
      const measures = only ? newDamage.measures : scanMeasures;
      const categories = client ? thresholdCategories(client, panels, measures) : {};
      return {
        measures,
        client: client ? { ...client, thresholdCategory: categories } : null,
        panels: panels.map((p) => ({ ...p, thresholdCategory: p.car_panel ? (categories[p.car_panel] ?? null) : null })),
        scanInfo,
        tyres,
        gst_percent,
        comparison: newDamage && { previous_scan_id: newDamage.previous_scan_id, compared_with: newDamage.compared_with },
        new_damage_only: only,
        pre_existing: only ? newDamage.pre_existing : [],
        partly_pre_existing: only ? newDamage.partly_pre_existing : [],
      };
    },

    /** The scans in scope matching `q` and, when given, the id `scan_id`: at most per_page list rows, newest first. */
    search: (caller: Pick<Caller, 'scope'>, body: { scan_id?: number; q?: string; per_page: number }) =>
      searchScans(db, caller.scope, body, body.per_page),
  };
}
