import { DAMAGE_LEVELS, DAMAGE_TYPES, type DamageLevel } from './scan-codes';
import type { PanelComparison } from './vehicle-history';

/**
 * "Price only the new damage" (docs/pricing.md): a quote of a scan that has a comparison with the vehicle's previous
 * scan may price only what that comparison gained. The engine (./pricing) is unchanged: it is given these counts in
 * place of the scan's, so a panel's category, lines and totals follow from the differences by the usual rules.
 */

/** Counts per car panel and level, as pricing reads a scan's (every level present, 0 when none). */
export type LevelCounts = Record<DamageLevel, number>;

/** Counts as pricing reads them, per type and car panel (a scan's, or a comparison's gains), with their sums per panel. */
export interface ScanMeasures {
  dents: Record<string, LevelCounts>;
  scratchs: Record<string, LevelCounts>;
  damage_count: { dents: Record<string, number>; scratchs: Record<string, number> };
}

const zero = (): LevelCounts => Object.fromEntries(DAMAGE_LEVELS.map((l) => [l, 0])) as LevelCounts;

/**
 * Each panel, type and level's gain over the previous scan: new damage and the increment of worsened damage
 * (a level with fewer than before counts 0, never less). Panels without a gain are left out.
 */
export function newDamageMeasures(differences: readonly PanelComparison[]): ScanMeasures {
  const m: ScanMeasures = { dents: {}, scratchs: {}, damage_count: { dents: {}, scratchs: {} } };
  for (const panel of differences) {
    if (!(DAMAGE_TYPES as readonly string[]).includes(panel.type)) continue;
    for (const d of panel.levels) {
      if (d.delta <= 0) continue;
      (m[panel.type][panel.carPanel] ??= zero())[d.level] += d.delta;
      m.damage_count[panel.type][panel.carPanel] = (m.damage_count[panel.type][panel.carPanel] ?? 0) + d.delta;
    }
  }
  return m;
}

/** Which car panels have damage on this scan, had some on the previous one, and gained some since. */
function panelSets(differences: readonly PanelComparison[]) {
  const sets = { damaged: new Set<string>(), before: new Set<string>(), gained: new Set<string>() };
  for (const panel of differences)
    for (const d of panel.levels) {
      if (d.after > 0) sets.damaged.add(panel.carPanel);
      if (d.before > 0) sets.before.add(panel.carPanel);
      if (d.delta > 0) sets.gained.add(panel.carPanel);
    }
  return sets;
}

/** The car panels damaged on this scan that gained nothing since the previous one: listed as pre-existing, at 0. */
export function preExistingPanels(differences: readonly PanelComparison[]): string[] {
  const { damaged, gained } = panelSets(differences);
  return [...damaged].filter((p) => !gained.has(p)).sort();
}

/**
 * The car panels that gained damage since the previous one and had some then: priced for the gain only, so the quote
 * says that the rest of their damage was there before.
 */
export function partlyPreExistingPanels(differences: readonly PanelComparison[]): string[] {
  const { before, gained } = panelSets(differences);
  return [...gained].filter((p) => before.has(p)).sort();
}

/** What a new-damage-only quote rests on: the previous scan's date and the panels left at 0 as pre-existing. */
export interface NewDamageBasis {
  /** The previous scan's time (ISO 8601 on the wire). */
  compared_with: string | Date;
  /** The pre-existing panels' labels, in panel order. */
  pre_existing: string[];
  /** The labels of the panels priced for their new damage only, some of it there before (absent on older quotes). */
  partly_pre_existing?: string[];
}
