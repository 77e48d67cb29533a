import { sql } from 'kysely';
import type { z } from 'zod';
import { dentPriceFields, scratchPriceFields } from '../../src/domain/client-fields';
import { OPTION_NAMES } from '../../src/domain/options';
import type { PricingClientRecord } from '../../src/domain/records';
import { clientCategoryMethod, DENT_LEVELS, type DentLevel, panelCategory, type TyreChoice } from '../../src/domain/pricing';
import { DEFAULT_GST_PERCENT } from '../../src/domain/quote-rules';
import {
  type LevelCounts,
  newDamageMeasures,
  partlyPreExistingPanels,
  preExistingPanels,
  type ScanMeasures,
} from '../../src/domain/new-damage';
import type { PanelComparison } from '../../src/domain/vehicle-history';
import type { Executor } from '../db/database';
import type { DataScope } from '../../src/domain/permissions';
import { comparisonBasis, comparisonFor } from './scan-scope';

/**
 * What pricing a quote reads from the database (docs/pricing.md "Inputs"), shared by the scan service (`scans/{id}/evaluate`)
 * and the quote service (saving a quote): the client with its price matrices, the catalogue's panels, a scan's
 * damage counts per panel, and GST_PERCENT. Reads only; scope checks stay with the caller.
 */

const dentColumns = Object.keys(dentPriceFields);
const scratchColumns = Object.keys(scratchPriceFields);
// Column names come from the domain's field lists, never from a request.
const matrix = (table: string, alias: string, columns: string[]) =>
  sql.raw(`coalesce((select json_object_agg(${alias}.part_id, json_build_object(${columns.map((c) => `'${c}', ${alias}.${c}::float8`).join(', ')})
    order by ${alias}.part_id) from ${table} ${alias} where ${alias}.client_id = c.id), '{}'::json)`);

/** The client as pricing and the invoice read it: the wire's client record, quote-time fields included. */
export type PricingClientRow = z.infer<typeof PricingClientRecord>;

/**
 * The columns of `PricingClientRecord` from `clients c`: the client with its weighted counts, products, parts and both
 * price matrices, as the wire has them. The one read of a client's matrices (GET clients, the evaluation, saving a quote).
 */
export const pricingClientColumns = sql`c.id, c.name, c.currency, c.sc_metallic::float8 as sc_metallic, c.sc_pearl::float8 as sc_pearl,
  c.sc_p2p::int as sc_p2p, c.calculation_method, c.sc_threshold,
  case when num_nonnulls(c.weighted_oversize, c.weighted_severe, c.weighted_heavy, c.weighted_medium, c.weighted_light) = 0 then null
    else json_build_object(${sql.raw(DENT_LEVELS.map((l) => `'${l}', c.weighted_${l}`).join(', '))}) end as weighted_no,
  c.tyre_repair::float8 as tyre_repair, c.tyre_replace::float8 as tyre_replace,
  coalesce((select json_agg(cp.product_id order by cp.product_id) from client_products cp where cp.client_id = c.id), '[]'::json) as products,
  coalesce((select json_agg(cp.part_id order by cp.part_id) from client_parts cp where cp.client_id = c.id), '[]'::json) as parts,
  json_build_object('dent', ${matrix('client_dent_prices', 'dp', dentColumns)}, 'scratch', ${matrix('client_scratch_prices', 'sp', scratchColumns)}) as prices,
  c.logo, c.phone, c.address, c.email, c.abn`;

/** One client with both price matrices, or null. */
export async function loadPricingClient(db: Executor, clientId: number): Promise<PricingClientRow | null> {
  const r = await sql<PricingClientRow>`select ${pricingClientColumns} from clients c where c.id = ${clientId}`.execute(db);
  return r.rows[0] ?? null;
}

/** A catalogue panel as a quote uses it (the wire's Panel). */
export interface PricingPanelRow {
  id: number;
  name: string;
  label: string;
  car_panel: string | null;
  type: 'D' | 'L' | 'XL';
  hasLargeVariant: boolean;
  part_id: number | null;
  panel_group_id: number;
  panel_group_name: string | null;
  position: number;
  group_position: number;
}

/** The enabled panels (status 1), by car view (group position) then position. */
export async function loadPanels(db: Executor): Promise<PricingPanelRow[]> {
  const r =
    await sql<PricingPanelRow>`select p.id, p.name, p.label, p.car_panel, p.type, p.has_large_variant as "hasLargeVariant", p.part_id,
      p.panel_group_id, g.name as panel_group_name, p.position, g.position as group_position
    from panels p join panel_groups g on g.id = p.panel_group_id where p.status
    order by g.position, g.id, p.position, p.id`.execute(db);
  return r.rows;
}

/** A scan's counts per car panel (the wire's Quote evaluation: measures). */
export type { LevelCounts, ScanMeasures };

const zeroCounts = (): LevelCounts => Object.fromEntries(DENT_LEVELS.map((l) => [l, 0])) as LevelCounts;

/** The scan's dent and scratch counts per car panel and level, and their sums per panel. */
export async function loadScanMeasures(db: Executor, scanId: number): Promise<ScanMeasures> {
  const r = await sql<{ car_panel: string; type: 'dents' | 'scratchs'; level: DentLevel; count: number }>`
    select car_panel, type, level, count from scan_measures where scan_id = ${scanId} and count > 0 order by car_panel`.execute(db);
  const m: ScanMeasures = { dents: {}, scratchs: {}, damage_count: { dents: {}, scratchs: {} } };
  for (const row of r.rows) {
    if (row.type !== 'dents' && row.type !== 'scratchs') continue;
    if (!(DENT_LEVELS as readonly string[]).includes(row.level)) continue;
    (m[row.type][row.car_panel] ??= zeroCounts())[row.level] = row.count;
    m.damage_count[row.type][row.car_panel] = (m.damage_count[row.type][row.car_panel] ?? 0) + row.count;
  }
  return m;
}

/** Each panel's category under the client's method from the scan's dents (null: no dents, or a client whose method is incomplete). */
export function thresholdCategories(client: PricingClientRow, panels: PricingPanelRow[], measures: ScanMeasures) {
  const method = clientCategoryMethod(client);
  const out: Record<string, DentLevel | null> = {};
  for (const p of panels) {
    if (!p.car_panel) continue;
    const dents = measures.dents[p.car_panel];
    out[p.car_panel] = method && dents ? panelCategory(dents, method) : null;
  }
  return out;
}

/** What "Price only the new damage" prices a scan with: the gains over the previous scan, as measures. */
export interface NewDamageInput {
  previous_scan_id: number;
  compared_with: Date;
  measures: ScanMeasures;
  /** The car panels damaged on the scan that gained nothing: listed as pre-existing, at 0. */
  pre_existing: string[];
  /** The car panels that gained damage and had some before: priced for the gain only. */
  partly_pre_existing: string[];
}

/**
 * The scan's stored comparison with its vehicle's previous scan that the scope sees (never counts a browser sends), as
 * the counts a new-damage-only quote prices; null when the scan has no such comparison.
 */
export async function loadNewDamage(db: Executor, scanId: number, scope: DataScope): Promise<NewDamageInput | null> {
  const r = await sql<{ previous_scan_id: number; previous_scanned_at: Date; differences: PanelComparison[] }>`
    select previous_scan_id, previous_scanned_at, differences from scan_comparisons k
    where scan_id = ${scanId} and ${comparisonFor(comparisonBasis(scope))}`.execute(db);
  const row = r.rows[0];
  if (!row) return null;
  return {
    previous_scan_id: Number(row.previous_scan_id),
    compared_with: row.previous_scanned_at,
    measures: newDamageMeasures(row.differences),
    pre_existing: preExistingPanels(row.differences),
    partly_pre_existing: partlyPreExistingPanels(row.differences),
  };
}

/** A wheel's tyre choice as the quote prices and prints it: the wheel, its label ('FRONT LEFT') and the agent's choice. */
export interface TyreChoiceRow {
  row: number;
  direction: 'L' | 'R';
  label: string;
  repair_type: TyreChoice;
}

/**
 * The agent's tyre choices on a scan, in wheel order, each with the label of its wheel's tyre data (or '{row} LEFT' /
 * '{row} RIGHT' when the scan has none for it). The one read of them: the scan page and the quote both use it.
 */
export async function loadTyreChoices(db: Executor, scanId: number): Promise<TyreChoiceRow[]> {
  const r = await sql<{ row: number; direction: 'L' | 'R'; repair_type: TyreChoice; label: string | null }>`
    select r."row", r.direction, r.repair_type,
      (select t.label from scan_tyres t where t.scan_id = r.scan_id and t."row" = r."row" and t.direction = r.direction limit 1) as label
    from scan_tyre_repairs r where r.scan_id = ${scanId} order by r."row", r.direction`.execute(db);
  return r.rows.map((x) => ({ ...x, label: x.label ?? `${x.row} ${x.direction === 'L' ? 'LEFT' : 'RIGHT'}` }));
}

/** GST_PERCENT (application setting; DEFAULT_GST_PERCENT when missing or unusable). */
export async function loadGstPercent(db: Executor): Promise<number> {
  const r = await sql<{
    value: string | null;
  }>`select option_value as value from options where option_name = ${OPTION_NAMES.GST_PERCENT}`.execute(db);
  const n = Number(r.rows[0]?.value);
  return r.rows[0]?.value != null && Number.isFinite(n) && n >= 0 && n <= 100 ? n : DEFAULT_GST_PERCENT;
}
