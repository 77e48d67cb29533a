import { describe, expect, it } from 'vitest';
import { percentile, printChecks, rounds, timing, timingLine } from '../../bench/report';

// The benches' shared measuring and reporting (bench/report.ts): plain functions, no database.
describe('bench report', () => {
  it('takes nearest-rank percentiles of sorted samples; none is NaN', () => {
    const sorted = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(10);
    expect(percentile(sorted, 95)).toBe(19);
    expect(percentile(sorted, 99)).toBe(20);
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentile([], 95)).toBeNaN();
    expect(timing([3, 1, 2])).toEqual({ p50: 2, p95: 3, max: 3, n: 3 });
  });

  it('runs round-robin rounds after 3 warm-up rounds, keeping each case its samples and last value', async () => {
    const order: string[] = [];
    let n = 0;
    const stats = await rounds(['a', 'b'], 4, async (c) => {
      order.push(c);
      n += 1;
      return { elapsed: c === 'a' ? n : 100 + n, value: `${c}${n}` };
    });
    expect(order).toEqual(Array.from({ length: 7 }, () => ['a', 'b']).flat());
    // Rounds 4 to 7 count: a's requests were the 7th, 9th, 11th and 13th.
    expect(stats[0]).toEqual({ p50: 9, p95: 13, max: 13, n: 4, last: 'a13' });
    expect(stats[1]).toMatchObject({ p50: 110, max: 114, n: 4, last: 'b14' });
  });

  it('prints a case line and the checks table in the benches’ form', () => {
    expect(timingLine('quotes', 'page 1', 10, { p50: 1.25, p95: 12.5, max: 100, n: 50 }, 'total 7')).toBe(
      'quotes: page 1     p50    1.3 ms  p95   12.5 ms  max  100.0 ms  (total 7)',
    );
    const lines: string[] = [];
    printChecks(
      (s) => lines.push(s),
      'Title:',
      [
        { name: 'a p95', value: '3.0 ms', target: '< 30 ms', met: true },
        { name: 'longer p95', value: '45.0 ms', target: '< 30 ms', met: false },
      ],
      2000,
    );
    expect(lines).toEqual([
      '\nTitle:',
      '  a p95           3.0 ms  target < 30 ms              met',
      '  longer p95     45.0 ms  target < 30 ms              NOT MET',
      "  (only 2,000 rows: the issue's figures are for 1,000,000)",
    ]);
  });
});
