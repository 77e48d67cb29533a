import os from 'node:os';

/**
 * What the benches share to measure and report: nearest-rank percentiles, a case's timing line, round-robin rounds of
 * requests, the machine's load and the table of checks against their targets.
 */

export interface Timing {
  p50: number;
  p95: number;
  max: number;
  n: number;
}

/** A bench's figure against its target, as the summary table prints it. */
export interface BenchCheck {
  name: string;
  value: string;
  target: string;
  met: boolean;
}

/** The p-th percentile (nearest rank) of sorted samples; NaN for none. */
export const percentile = (sorted: readonly number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] : NaN;

/** p50, p95 and max of the samples (in any order). */
export const timing = (samples: readonly number[]): Timing => {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), max: s[s.length - 1] ?? NaN, n: s.length };
};

export const ms = (n: number) => `${n.toFixed(1)} ms`;

/** A Melbourne calendar date `days` ago, as the lists' ts/te take it. */
export const melbourneDate = (daysAgo: number) =>
  new Date(Date.now() - daysAgo * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Australia/Melbourne' });

/** How busy the machine is (other work on it inflates every figure): 'load average 1.00 2.00 3.00 on 2 cores'. */
export const loadAverage = () =>
  `load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')} on ${os.cpus().length} cores`;

/** One case's line: `<section>: <label> p50 … p95 … max … (<note>)`, the label padded to `width`. */
export const timingLine = (section: string, label: string, width: number, t: Timing, note: string) =>
  `${section}: ${label.padEnd(width)} p50 ${ms(t.p50).padStart(9)}  p95 ${ms(t.p95).padStart(9)}  max ${ms(t.max).padStart(9)}  (${note})`;

/**
 * Round-robin: each round makes one request of every case in turn, so load from elsewhere on the machine falls on all
 * cases alike and their figures compare like with like. 3 warm-up rounds are not counted. Per case: its timing over
 * `requests` rounds and the value of its last request.
 */
export async function rounds<C, V>(
  cases: readonly C[],
  requests: number,
  request: (c: C) => Promise<{ elapsed: number; value: V }>,
): Promise<(Timing & { last: V | undefined })[]> {
  const samples = cases.map(() => [] as number[]);
  const last: (V | undefined)[] = cases.map(() => undefined);
  for (let i = -3; i < requests; i++)
    for (const [k, c] of cases.entries()) {
      const r = await request(c);
      if (i >= 0) {
        samples[k].push(r.elapsed);
        last[k] = r.value;
      }
    }
  return cases.map((_, k) => ({ ...timing(samples[k]), last: last[k] }));
}

/** The summary table: a title, then each check's figure, target and whether it is met; a note when fewer rows than the issue's. */
export function printChecks(log: (s: string) => void, title: string, checks: readonly BenchCheck[], rows: number, issueRows = 1_000_000) {
  log(`\n${title}`);
  const w = Math.max(...checks.map((c) => c.name.length));
  for (const c of checks) log(`  ${c.name.padEnd(w)}  ${c.value.padStart(10)}  target ${c.target.padEnd(20)} ${c.met ? 'met' : 'NOT MET'}`);
  if (rows < issueRows)
    log(`  (only ${rows.toLocaleString('en-AU')} rows: the issue's figures are for ${issueRows.toLocaleString('en-AU')})`);
}
