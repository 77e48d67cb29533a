import { describe, expect, it } from 'vitest';
import { newDamageMeasures, partlyPreExistingPanels, preExistingPanels } from './new-damage';
import { initialDentChoice, initialScratchRepair, panelCategory, priceQuote, type PricingClient } from './pricing';
import { compareDamage, type DamageCounts } from './vehicle-history';

const counts = (c: Partial<DamageCounts>): DamageCounts => ({ dents: {}, scratchs: {}, ...c });

// The previous scan: bonnet 2 light dents, roof 1 medium dent, boot 1 scratch. This scan: bonnet unchanged, roof
// 3 medium and 1 heavy (worsened by 2 medium and 1 heavy), boot unchanged, left front door 1 new scratch.
const previous = counts({ dents: { bonnet: { light: 2 }, roof: { medium: 1 } }, scratchs: { boot: { light: 1 } } });
const current = counts({
  dents: { bonnet: { light: 2 }, roof: { medium: 3, heavy: 1 } },
  scratchs: { boot: { light: 1 }, left_front_door: { medium: 1 } },
});
const differences = compareDamage(previous, current).panels;

describe('newDamageMeasures', () => {
  it('prices the gains only: new damage and the increments of worsened damage', () => {
    const m = newDamageMeasures(differences);
    expect(m.dents).toEqual({ roof: { light: 0, medium: 2, heavy: 1, severe: 0, oversize: 0 } });
    expect(m.scratchs).toEqual({ left_front_door: { light: 0, medium: 1, heavy: 0, severe: 0, oversize: 0 } });
    expect(m.damage_count).toEqual({ dents: { roof: 3 }, scratchs: { left_front_door: 1 } });
  });

  it('never counts a level below zero: damage that went away is not a credit', () => {
    const c = compareDamage(counts({ dents: { roof: { light: 3 } } }), counts({ dents: { roof: { light: 1, medium: 1 } } }));
    expect(newDamageMeasures(c.panels).dents).toEqual({ roof: { light: 0, medium: 1, heavy: 0, severe: 0, oversize: 0 } });
  });
});

describe('preExistingPanels', () => {
  it('lists the damaged panels that gained nothing, and not those gone since', () => {
    const c = compareDamage(counts({ dents: { door: { light: 1 }, roof: { light: 1 } } }), counts({ dents: { roof: { light: 1 } } }));
    expect(preExistingPanels(c.panels)).toEqual(['roof']);
    expect(preExistingPanels(differences)).toEqual(['bonnet', 'boot']);
  });
});

describe('partlyPreExistingPanels', () => {
  it('lists the panels that gained damage and had some before: the roof, not the new door scratch', () => {
    expect(partlyPreExistingPanels(differences)).toEqual(['roof']);
    // A panel whose damage is all new is not partly pre-existing; one that only lost damage gained nothing.
    const c = compareDamage(counts({ dents: { door: { light: 2 } } }), counts({ dents: { door: { light: 1 }, hood: { light: 1 } } }));
    expect(partlyPreExistingPanels(c.panels)).toEqual([]);
    // Damage of another type counts as there before: a scratched boot that gains a dent.
    const t = compareDamage(
      counts({ scratchs: { boot: { light: 1 } } }),
      counts({ scratchs: { boot: { light: 1 } }, dents: { boot: { light: 1 } } }),
    );
    expect(partlyPreExistingPanels(t.panels)).toEqual(['boot']);
  });
});

describe('the engine with "Price only the new damage"', () => {
  // Part 1 prices the roof, part 2 the left front door, part 3 the bonnet and the boot.
  const client: PricingClient = {
    prices: {
      dent: {
        '1': { light: 50, medium: 80, heavy: 120, severe: 200, oversize: 300, p2p: 0, aluminium: 0, conventional: 400, replacement: 900 },
        '3': { light: 40, medium: 70, heavy: 100, severe: 150, oversize: 250, p2p: 0, aluminium: 0, conventional: 350, replacement: 800 },
      },
      scratch: { '2': { spot: 60, paint: 200, conventional: 300 }, '3': { spot: 55, paint: 190, conventional: 290 } },
    },
  };
  const catalogue = [
    { panel_id: 10, car_panel: 'roof', part_id: 1 },
    { panel_id: 11, car_panel: 'left_front_door', part_id: 2 },
    { panel_id: 12, car_panel: 'bonnet', part_id: 3 },
    { panel_id: 13, car_panel: 'boot', part_id: 3 },
  ];
  const price = (m: { dents: Record<string, object>; scratchs: Record<string, Record<string, number>> }) =>
    priceQuote({
      client,
      panels: catalogue.map((p) => ({
        panel_id: p.panel_id,
        part_id: p.part_id,
        type: 'D' as const,
        hasLargeVariant: false,
        dent: initialDentChoice(m.dents[p.car_panel] ? panelCategory(m.dents[p.car_panel], { method: 'T', threshold: 1 }) : null),
        scratch: initialScratchRepair(Object.values(m.scratchs[p.car_panel] ?? {}).reduce((s, n) => s + n, 0)),
      })),
      metallic: 0,
      pearl: 0,
      aluminium: 0,
      vehicle_type: 'D',
      products: [],
      gst_percent: 10,
    });

  it('prices the roof at the category of its gains and the door’s new scratch; the rest is not priced', () => {
    // Gains: roof 2 medium + 1 heavy → heavy, 120.00; left front door 1 scratch → spot, 60.00. 180.00 + 18.00 GST.
    const only = price(newDamageMeasures(differences));
    expect(only.lines.map((l) => [l.panel_id, l.kind, l.line_total])).toEqual([
      [10, 'dent', 12000],
      [11, 'scratch', 6000],
    ]);
    expect(only.totals).toMatchObject({ pdr: 12000, paint: 6000, sub_total: 18000, tax: 1800, grand_total: 19800 });
    // The whole scan would also price the bonnet's dents (40.00) and the boot's scratch (55.00).
    expect(price(current).totals.sub_total).toBe(18000 + 4000 + 5500);
  });
});
