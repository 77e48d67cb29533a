import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderScreen } from '../../test/renderScreen';
import { signedInLister } from '../../test/stubFetch';
import type { VehicleDetail } from '../../domain/vehicles';
import { path } from '.';

const scan = (id: number, at: string, over: Partial<VehicleDetail['scans'][number]> = {}): VehicleDetail['scans'][number] => ({
  id,
  scan_id: `s-${id}`,
  type: 'arch',
  status: 'uploaded',
  license_plate: 'ABC123',
  scanned_at: at,
  odometer_km: null,
  dent_count: 0,
  scratch_count: 0,
  summary: null,
  has_new_damage: null,
  previous_scan_id: null,
  quotes: [],
  ...over,
});

const vehicle: VehicleDetail = {
  id: 7,
  registration: 'ABC123',
  state: 'VIC',
  vin: null,
  make: 'Kia',
  model: 'Rio',
  first_seen: '2026-01-10T01:00:00.000Z',
  last_seen: '2026-01-20T01:00:00.000Z',
  scans: [
    scan(41, '2026-01-10T01:00:00.000Z', { dent_count: 1 }),
    scan(42, '2026-01-20T01:00:00.000Z', {
      dent_count: 3,
      has_new_damage: true,
      previous_scan_id: 41,
      summary: 'Left Front Door +2 medium dents',
      quotes: [{ id: 5, grant_total: 350, currency: '¥', manual_check: true, created_at: '2026-01-21T01:00:00.000Z' }],
    }),
  ],
  damage: [
    { scan_id: 41, scanned_at: '2026-01-10T01:00:00.000Z', measures: { dents: { left_front_door: { medium: 1 } }, scratchs: {} } },
    { scan_id: 42, scanned_at: '2026-01-20T01:00:00.000Z', measures: { dents: { left_front_door: { medium: 3 } }, scratchs: {} } },
  ],
  tyres: [
    {
      wheel: '1L',
      readings: [
        { at: '2026-01-10T01:00:00.000Z', depthMm: 6 },
        { at: '2026-01-20T01:00:00.000Z', depthMm: 5.5 },
      ],
      projection: {
        readings: [
          { at: '2026-01-10T01:00:00.000Z', depthMm: 6 },
          { at: '2026-01-20T01:00:00.000Z', depthMm: 5.5 },
        ],
        unit: 'per30days',
        rateMm: 1.5,
        projectedAt: '2026-04-10',
      },
    },
    { wheel: '2L', readings: [{ at: '2026-01-20T01:00:00.000Z', depthMm: 7 }], projection: null },
  ],
  legal_min_mm: 1.5,
};

describe('the vehicle page', () => {
  it('shows the timeline newest first with its quotes, the damage per panel per scan and the tyres’ estimate', async () => {
    signedInLister((request) => (request === 'GET /api/scan/vehicles/7' ? { body: { data: vehicle } } : undefined));
    renderScreen('/vehicles/7', { pages: [path] });
    expect(await screen.findByRole('heading', { name: 'Vehicle ABC123' })).toBeTruthy();

    const timeline = within(screen.getByRole('list', { name: 'Scans and quotes' }));
    const links = timeline.getAllByRole('link').map((l) => [l.textContent, l.getAttribute('href')]);
    expect(links).toEqual([
      ['20-01-2026 12:00 PM · Arch scan', '/scans/42'],
      ['Quote ¥350.00 (21-01-2026 12:00 PM)', '/quotes/42'],
      ['10-01-2026 12:00 PM · Arch scan', '/scans/41'],
    ]);
    expect(timeline.getByText('New since the scan before: Left Front Door +2 medium dents')).toBeTruthy();
    // Counts in words, one and many.
    expect(timeline.getByText('1 dent, 0 scratches')).toBeTruthy();
    expect(timeline.getByText('3 dents, 0 scratches')).toBeTruthy();

    const damage = within(screen.getByRole('table', { name: 'Damage per panel' }));
    const row = damage.getByRole('row', { name: /Left Front Door/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Dents: 1 Medium', 'Dents: 3 Medium']);

    const tyres = within(screen.getByRole('table', { name: 'Tyre tread per wheel' }));
    const front = within(tyres.getByRole('row', { name: /FRONT LEFT/ }));
    expect(front.getByText('Estimate: reaches 1.5 mm about 10-04-2026')).toBeTruthy();
    expect(front.getByText(/1\.5 mm per 30 days · from 2 readings: 10-01-2026 6\.0 mm, 20-01-2026 5\.5 mm/)).toBeTruthy();
    expect(tyres.getByText('Too few readings since the last tyre change for a projection')).toBeTruthy();
  });
});
