import { describe, expect, it } from 'vitest';
import {
  compareDamage,
  currentTyreSeries,
  minDepthByWheel,
  newDamageSummary,
  normaliseRegistration,
  projectWear,
  type DamageCounts,
} from './vehicle-history';

const counts = (c: Partial<DamageCounts>): DamageCounts => ({ dents: {}, scratchs: {}, ...c });

describe('normaliseRegistration', () => {
  it('keys a plate upper-case without spaces or dashes; blank is none', () => {
    expect(normaliseRegistration('1ab-2cd')).toBe('1AB2CD');
    expect(normaliseRegistration(' 1AB 2CD ')).toBe('1AB2CD');
    expect(normaliseRegistration(' - ')).toBeNull();
    expect(normaliseRegistration(null)).toBeNull();
  });
});

describe('compareDamage', () => {
  it('calls each panel and level new, worsened, unchanged or gone', () => {
    const before = counts({
      dents: { bonnet: { light: 2 }, roof: { medium: 3 }, boot: { light: 1 } },
      scratchs: { left_front_door: { light: 1 } },
    });
    const after = counts({
      dents: { bonnet: { light: 2 }, roof: { medium: 5 }, left_front_door: { medium: 2 } },
      scratchs: { left_front_door: { light: 1 } },
    });
    const c = compareDamage(before, after);
    const verdicts = Object.fromEntries(c.panels.map((p) => [`${p.type}:${p.carPanel}`, p.change]));
    expect(verdicts).toEqual({
      'dents:bonnet': 'unchanged',
      'dents:boot': 'gone',
      'dents:left_front_door': 'new',
      'dents:roof': 'worsened',
      'scratchs:left_front_door': 'unchanged',
    });
    expect(c.panels.find((p) => p.carPanel === 'roof')!.levels).toEqual([
      { carPanel: 'roof', type: 'dents', level: 'medium', before: 3, after: 5, delta: 2, change: 'worsened' },
    ]);
    expect(c.hasNewDamage).toBe(true);
  });

  it('reads a dent moving up a level as worsened: one light gone, one medium new', () => {
    const c = compareDamage(counts({ dents: { bonnet: { light: 2 } } }), counts({ dents: { bonnet: { light: 1, medium: 1 } } }));
    expect(c.panels).toEqual([
      {
        carPanel: 'bonnet',
        type: 'dents',
        change: 'worsened',
        levels: [
          { carPanel: 'bonnet', type: 'dents', level: 'light', before: 2, after: 1, delta: -1, change: 'gone' },
          { carPanel: 'bonnet', type: 'dents', level: 'medium', before: 0, after: 1, delta: 1, change: 'new' },
        ],
      },
    ]);
    // The reverse, a repair down to a lower level, is gone (less), not worse.
    expect(
      compareDamage(counts({ dents: { bonnet: { light: 1, medium: 1 } } }), counts({ dents: { bonnet: { light: 2 } } })).panels[0].change,
    ).toBe('gone');
  });

  it('compares a panel counted in one scan only with zero, and leaves out panels clean in both', () => {
    const c = compareDamage(
      counts({ dents: { roof: { light: 0 } } }),
      counts({ scratchs: { bonnet: { heavy: 1 } }, dents: { roof: { light: 0 } } }),
    );
    expect(c.panels.map((p) => [p.carPanel, p.type, p.change])).toEqual([['bonnet', 'scratchs', 'new']]);
    expect(compareDamage(counts({ dents: { roof: { light: 4 } } }), counts({})).panels[0].change).toBe('gone');
    expect(compareDamage(counts({ dents: { roof: { light: 4 } } }), counts({})).hasNewDamage).toBe(false);
  });
});

describe('newDamageSummary', () => {
  it('lists the gains: dents by level, scratches summed per panel', () => {
    const c = compareDamage(
      counts({ dents: { left_front_door: { medium: 1 } } }),
      counts({
        dents: { left_front_door: { medium: 3 } },
        scratchs: { bonnet: { light: 1 } },
      }),
    );
    expect(newDamageSummary(c)).toBe('Bonnet +1 scratch, Left Front Door +2 medium dents');
    expect(
      newDamageSummary(
        compareDamage(counts({}), counts({ dents: { roof: { light: 1, heavy: 2 } }, scratchs: { roof: { light: 1, medium: 2 } } })),
        (code) => (code === 'roof' ? 'Roof Panel' : code),
      ),
    ).toBe('Roof Panel +1 light dent, Roof Panel +2 heavy dents, Roof Panel +3 scratches');
    expect(newDamageSummary(compareDamage(counts({ dents: { roof: { light: 1 } } }), counts({})))).toBe('');
  });
});

describe('projectWear', () => {
  it('fits depth over time: 8, 7, 6 mm 30 days apart wear 1 mm per 30 days and reach 1.5 mm 135 days after the last', () => {
    const p = projectWear([
      { at: '2026-03-02T00:00:00Z', depthMm: 6 },
      { at: '2026-01-01T00:00:00Z', depthMm: 8 },
      { at: '2026-01-31T00:00:00Z', depthMm: 7 },
    ]);
    expect(p).toMatchObject({ unit: 'per30days', rateMm: 1, projectedAt: '2026-07-15' });
    expect(p!.readings.map((r) => r.depthMm)).toEqual([8, 7, 6]);
  });

  it('is a least-squares line, not the first and last reading: 8, 7, 6.6, 5.4 mm wear 0.82 mm per 30 days', () => {
    const p = projectWear([
      { at: '2026-01-01T00:00:00Z', depthMm: 8 },
      { at: '2026-01-31T00:00:00Z', depthMm: 7 },
      { at: '2026-03-02T00:00:00Z', depthMm: 6.6 },
      { at: '2026-04-01T00:00:00Z', depthMm: 5.4 },
    ]);
    // slope = -123 / 4500 mm a day; the line is 6.75 mm on day 45 and reaches 1.5 mm on day 45 + 5.25 / 0.02733 = 237.07.
    expect(p).toMatchObject({ unit: 'per30days', rateMm: 0.82, projectedAt: '2026-08-26' });
  });

  it('uses the odometer when every reading has one: 1 mm per 10,000 km, dated by the km driven per day', () => {
    const p = projectWear(
      [
        { at: '2026-01-01T00:00:00Z', depthMm: 8, odometerKm: 10_000 },
        { at: '2026-03-02T00:00:00Z', depthMm: 7, odometerKm: 20_000 },
        { at: '2026-05-01T00:00:00Z', depthMm: 6, odometerKm: 30_000 },
      ],
      1.5,
    );
    // 4.5 mm left = 45,000 km at 10,000 km per 60 days = 270 days after 1 May.
    expect(p).toMatchObject({ unit: 'per10000km', rateMm: 1, projectedAt: '2027-01-26' });
    // One reading without an odometer figure: back to time.
    expect(projectWear([...p!.readings.slice(0, 2), { at: '2026-05-01T00:00:00Z', depthMm: 6 }])!.unit).toBe('per30days');
  });

  it('takes the legal minimum as a setting', () => {
    const readings = [
      { at: '2026-01-01T00:00:00Z', depthMm: 8 },
      { at: '2026-01-31T00:00:00Z', depthMm: 7 },
    ];
    // 7 mm to 3 mm at 1 mm per 30 days: 120 days after 31 January.
    expect(projectWear(readings, 3)!.projectedAt).toBe('2026-05-31');
  });

  it('restarts the series at a rise of more than 1 mm (a tyre change); a rise of 1 mm is noise', () => {
    const readings = [
      { at: '2026-01-01T00:00:00Z', depthMm: 4 },
      { at: '2026-02-01T00:00:00Z', depthMm: 3 },
      { at: '2026-03-01T00:00:00Z', depthMm: 8 },
      { at: '2026-04-01T00:00:00Z', depthMm: 7.5 },
    ];
    expect(currentTyreSeries(readings).map((r) => r.depthMm)).toEqual([8, 7.5]);
    expect(projectWear(readings)!.readings).toHaveLength(2);
    expect(currentTyreSeries([readings[0], { ...readings[1], depthMm: 5 }]).map((r) => r.depthMm)).toEqual([4, 5]);
  });

  it('has no projection with fewer than two readings after the restart, and no date while the tread does not wear', () => {
    expect(projectWear([])).toBeNull();
    expect(projectWear([{ at: '2026-01-01T00:00:00Z', depthMm: 8 }])).toBeNull();
    expect(
      projectWear([
        { at: '2026-01-01T00:00:00Z', depthMm: 4 },
        { at: '2026-02-01T00:00:00Z', depthMm: 3 },
        { at: '2026-03-01T00:00:00Z', depthMm: 8 },
      ]),
    ).toBeNull();
    expect(
      projectWear([
        { at: '2026-01-01T00:00:00Z', depthMm: 6 },
        { at: '2026-02-01T00:00:00Z', depthMm: 6 },
      ]),
    ).toMatchObject({ rateMm: 0, projectedAt: null });
  });
});

describe('minDepthByWheel', () => {
  it('takes the lowest depth across a wheel profile and both its sides', () => {
    const m = minDepthByWheel([
      { row: 1, direction: 'L', depths: [6.1, 5.2, 6.6] },
      { row: 1, direction: 'L', depths: [4.9, 7] },
      { row: 2, direction: 'R', depths: [8] },
      { row: 2, direction: 'L', depths: [] },
    ]);
    expect([...m]).toEqual([
      ['1L', 4.9],
      ['2R', 8],
    ]);
  });
});
