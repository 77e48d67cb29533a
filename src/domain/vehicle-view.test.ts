import { describe, expect, it } from 'vitest';
import { damageTable, wheelLabels, wheelOrder } from './vehicle-view';

const at = '2026-01-10T01:00:00.000Z';

describe('the vehicle page’s damage table', () => {
  it('lists the panels any scan counted, each scan’s levels per type, and leaves out panels counted at zero', () => {
    const table = damageTable([
      { scan_id: 1, scanned_at: at, measures: { dents: { left_front_door: { medium: 1 }, roof: { light: 0 } }, scratchs: {} } },
      { scan_id: 2, scanned_at: at, measures: { dents: { left_front_door: { light: 1, medium: 3 } }, scratchs: { bonnet: { light: 1 } } } },
    ]);
    expect(table.panels).toEqual(['bonnet', 'left_front_door']);
    expect(table.columns).toEqual([
      {
        scanId: 1,
        cells: [
          { dents: [], scratchs: [] },
          { dents: [{ level: 'medium', count: 1 }], scratchs: [] },
        ],
      },
      {
        scanId: 2,
        cells: [
          { dents: [], scratchs: [{ level: 'light', count: 1 }] },
          {
            dents: [
              { level: 'light', count: 1 },
              { level: 'medium', count: 3 },
            ],
            scratchs: [],
          },
        ],
      },
    ]);
  });
});

describe('wheel names', () => {
  it('names the first row front and the last rear, as the tire tab does, and orders them front to back, left first', () => {
    const wheels = ['2R', '1R', '3L', '1L'].sort(wheelOrder);
    expect(wheels).toEqual(['1L', '1R', '2R', '3L']);
    expect(Object.fromEntries(wheelLabels(wheels))).toEqual({
      '1L': 'FRONT LEFT',
      '1R': 'FRONT RIGHT',
      '2R': '2 RIGHT',
      '3L': 'REAR LEFT',
    });
  });
});
