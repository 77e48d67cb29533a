import { describe, expect, it } from 'vitest';
import { pickDay, rangeLabel, selectedDays } from './dayRange';

describe('day ranges', () => {
  it('picks a range with two clicks in either order and counts its days', () => {
    let r = pickDay({ ts: '', td: '' }, '2026-11-10');
    expect(r).toEqual({ ts: '2026-11-10', td: '' });
    expect(selectedDays(r.ts, r.td)).toBe(1);
    r = pickDay(r, '2026-11-03');
    expect(r).toEqual({ ts: '2026-11-03', td: '2026-11-10' });
    expect(selectedDays(r.ts, r.td)).toBe(8);
    expect(pickDay(r, '2026-11-20')).toEqual({ ts: '2026-11-20', td: '' });
    // Across the end of daylight saving (5 April 2026 in Melbourne): still whole days.
    expect(selectedDays('2026-04-01', '2026-04-30')).toBe(30);
    expect(selectedDays('', '')).toBe(0);
  });

  it('labels a range DD-MM-YYYY (Japanese YYYY-MM-DD)', () => {
    expect(rangeLabel('2026-11-03', '2026-11-10', 'en')).toBe('03-11-2026 – 10-11-2026');
    expect(rangeLabel('2026-11-03', '2026-11-03', 'en')).toBe('03-11-2026');
    expect(rangeLabel('2026-11-03', '2026-11-10', 'ja')).toBe('2026-11-03 – 2026-11-10');
  });
});
