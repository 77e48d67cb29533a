import { describe, expect, it } from 'vitest';
import { applySaved, completedScans, newScans } from './liveCards';
import type { PortalScan } from '../../domain/portal';

const now = Date.parse('2025-06-01T10:00:00Z');
const scan = (id: number, over: Partial<PortalScan> = {}): PortalScan => ({
  id,
  licensePlate: `P${id}`,
  timestamp: new Date(now - id * 60_000).toISOString(),
  status: 'uploaded',
  type: 'arch',
  has_quote: false,
  damageCount: 0,
  dentCount: 0,
  scratchCount: 0,
  ...over,
});

describe('the portal cards on a saved event', () => {
  it('puts a new scan on top of NEW SCANS', () => {
    const rows = applySaved([scan(1), scan(2, { has_quote: true })], scan(3), now);
    expect(newScans(rows).map((s) => s.id)).toEqual([3, 1]);
    expect(completedScans(rows).map((s) => s.id)).toEqual([2]);
  });

  it('moves a scan that got a quote from NEW SCANS to the top of COMPLETED SCANS, once', () => {
    const rows = applySaved([scan(1), scan(2), scan(3, { has_quote: true })], scan(2, { has_quote: true }), now);
    expect(newScans(rows).map((s) => s.id)).toEqual([1]);
    expect(completedScans(rows).map((s) => s.id)).toEqual([2, 3]);
    expect(rows.filter((s) => s.id === 2)).toHaveLength(1);
  });

  it('moves an updated scan on top with its new fields, and ignores one older than 48 hours', () => {
    const rows = [scan(1), scan(2)];
    expect(applySaved(rows, scan(2, { licensePlate: 'NEW' }), now).map((s) => [s.id, s.licensePlate])).toEqual([
      [2, 'NEW'],
      [1, 'P1'],
    ]);
    const old = scan(9, { timestamp: new Date(now - 49 * 3600_000).toISOString() });
    expect(applySaved(rows, old, now)).toBe(rows);
  });
});
