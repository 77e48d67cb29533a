import { describe, expect, it } from 'vitest';
import { buildInvoice, invoiceSourceOfQuote } from './invoice';
import { formatMm, wearFigures, wheelWear } from './tyre-wear';
import type { InvoiceQuote } from './quote-model';

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();

describe('wheelWear', () => {
  it('takes each wheel’s lowest side at each scan, oldest first, and projects it to the legal minimum', () => {
    const scans = [
      { id: 3, scanned_at: day(160), odometer_km: null },
      { id: 1, scanned_at: day(100), odometer_km: null },
      { id: 2, scanned_at: day(130), odometer_km: null },
    ];
    const side = (scan_id: number, direction: 'L' | 'R', depths: number[]) => ({ scan_id, row: 1, direction, depths });
    const wear = wheelWear(scans, [side(1, 'L', [8.5, 8]), side(2, 'L', [7, 9]), side(3, 'L', [6.4, 6]), side(3, 'R', [5])], 1.5);
    expect(wear.map((w) => w.wheel)).toEqual(['1L', '1R']);
    expect(wear[0].readings.map((r) => r.depthMm)).toEqual([8, 7, 6]);
    // 1 mm per 30 days from 6 mm on day 160: 1.5 mm 135 days later.
    expect(wear[0].projection).toMatchObject({ unit: 'per30days', rateMm: 1, projectedAt: day(295).slice(0, 10) });
    // One reading: no projection.
    expect(wear[1]).toEqual({ wheel: '1R', readings: [{ at: day(160), depthMm: 5, odometerKm: null }], projection: null });
  });
});

describe('printing a projection', () => {
  it('gives the rate, the projected day and the readings it rests on, in the language’s day format', () => {
    const projection = {
      readings: [
        { at: day(100), depthMm: 8 },
        { at: day(160), depthMm: 6.25 },
      ],
      unit: 'per10000km' as const,
      rateMm: 0.4167,
      projectedAt: '2026-10-23',
    };
    expect(wearFigures(projection)).toEqual({
      rate: '0.42',
      unit: 'per10000km',
      projected: '23-10-2026',
      readings: ['11-04-2026 8 mm', '10-06-2026 6.25 mm'],
    });
    expect(wearFigures({ ...projection, projectedAt: null }, 'ja')).toMatchObject({
      projected: null,
      readings: ['2026-04-11 8 mm', '2026-06-10 6.25 mm'],
    });
    expect(formatMm(1.5)).toBe('1.5');
  });

  it('names the projected day on an invoice’s Recheck Next Visit line, and only there', () => {
    const quote: InvoiceQuote = {
      id: 1,
      created_at: day(160),
      currency: '$',
      metallic: false,
      pearl: false,
      aluminium: false,
      panels: [],
      tyres: [
        { row: 1, direction: 'L', label: 'FRONT LEFT', projected_at: '2026-10-23' },
        { row: 1, direction: 'R', label: 'FRONT RIGHT', projected_at: null },
      ],
      lines: (['L', 'R'] as const).map((d) => ({
        panel_id: `tyre:1:${d}`,
        kind: 'tyre' as const,
        repair_type: 'recheck' as const,
        category: null,
        subtotal: 'tyre' as const,
        status: 'advisory' as const,
        repair_fee: 0,
        aluminium_fee: 0,
        metallic_fee: 0,
        pearl_fee: 0,
        line_total: 0,
      })),
      totals: { pdr: 0, conventional: 0, p2p: 0, replacement: 0, paint: 0, tyre: 0, product: 0, sub_total: 0, tax: 0, grand_total: 0 },
      products: [],
      parts: [],
      assessor: null,
      assessor_comments: null,
      vehicle_photo: null,
      gst_percent: 10,
      client: null,
      agent: { name: 'A' },
      scan: { licensePlate: 'X', make: null, model: null, carColor: null, timestamp: day(160) },
    };
    const lines = (language: string) =>
      buildInvoice(invoiceSourceOfQuote(quote, language))
        .sections.find((s) => s.key === 'tyre')!
        .lines.map((l) => l.description);
    expect(lines('en')).toEqual(['Recheck Next Visit (legal minimum estimated around 23-10-2026)', 'Recheck Next Visit']);
    expect(lines('ja')).toEqual(['次回再点検（法定最小溝深さ到達見込み 2026-10-23、推定）', '次回再点検']);
  });
});
