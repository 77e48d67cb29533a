import autocannon from 'autocannon';
import type { RunningServer } from './server';
import { percentile } from './report';

/** Request cost: an authenticated API request, one record or a page of 25, on the same run as /api/health. */
export const API_TARGET = { rps: 3000, p95Ms: 15 } as const;
const CONNECTIONS = 16;
const SECONDS = Number(process.env.BENCH_API_SECONDS) || 10;
const WARMUP_SECONDS = 3;

export interface ApiCase {
  name: string;
  path: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  /** Replies that were not 2xx, errors and timeouts: any makes the case fail. */
  failures: number;
  /** null for the reference case (/api/health), which has no target. */
  met: boolean | null;
}

export async function load(url: string, headers: Record<string, string>, seconds: number) {
  const samples: number[] = [];
  const run = autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  // Every 2xx reply's time, so p95 is exact (autocannon's summary stops at p90 and p97.5).
  run.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) samples.push(ms);
  });
  const result = await run;
  samples.sort((a, b) => a - b);
  return { result, samples };
}

/**
 * autocannon, 16 connections, 10 s each (BENCH_API_SECONDS) after a 3 s warm-up, against the production server with
 * its rate limit raised. Requests carry a bearer token and `Accept-Encoding: gzip, deflate, br` as the browser sends.
 * `uncached`: the server runs with PAGE_CACHE_SECONDS=0; only the page is measured, every request reaching
 * PostgreSQL, as a reference without a target (a repeated page is otherwise served from the page cache).
 */
export async function benchApi(server: RunningServer, log: (s: string) => void, uncached = false): Promise<ApiCase[]> {
  const user = await server.signIn();
  const auth = { authorization: `Bearer ${user.token}` };
  const browserLike = { 'accept-encoding': 'gzip, deflate, br', accept: 'application/json' };
  // A page of 25 needs 25 locations: made through the API, as a user would.
  const agents = (await (await fetch(`${server.url}/api/agent/agents/lists`, { headers: auth })).json()) as { value: number }[];
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${server.url}/api/agent/locations`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bench Depot ${i + 1}`, state: 'VIC', agent_id: agents[i % agents.length].value }),
    });
    if (res.status !== 201) throw new Error(`creating a location: ${res.status} ${await res.text()}`);
  }
  const page = (await (await fetch(`${server.url}/api/agent/locations?page=1&per_page=25`, { headers: auth })).json()) as {
    items: unknown[];
  };
  if (page.items.length !== 25) throw new Error(`the list page has ${page.items.length} rows, not 25`);
  const firstId = (page.items[0] as { id: number }).id;

  const pagePath = '/api/agent/locations?page=1&per_page=25';
  const signedIn = { ...browserLike, ...auth };
  const cases = uncached
    ? [{ name: 'the same page, page cache off (reference)', path: pagePath, headers: signedIn, target: false }]
    : [
        { name: 'GET /api/health (reference)', path: '/api/health', headers: browserLike, target: false },
        {
          name: `GET /api/agent/locations/${firstId}`,
          path: `/api/agent/locations/${firstId}`,
          headers: signedIn,
          target: true,
        },
        { name: `GET ${pagePath}`, path: pagePath, headers: signedIn, target: true },
      ];
  const results: ApiCase[] = [];
  for (const c of cases) {
    await load(server.url + c.path, c.headers, WARMUP_SECONDS);
    const { result, samples } = await load(server.url + c.path, c.headers, SECONDS);
    const failures = result.non2xx + result.errors + result.timeouts;
    const r: ApiCase = {
      name: c.name,
      path: c.path,
      rps: result.requests.total / SECONDS,
      p50: percentile(samples, 50),
      p95: percentile(samples, 95),
      p99: percentile(samples, 99),
      requests: result.requests.total,
      failures,
      met: c.target
        ? failures === 0 && result.requests.total / SECONDS >= API_TARGET.rps && percentile(samples, 95) < API_TARGET.p95Ms
        : null,
    };
    log(
      `  ${r.name.padEnd(46)} ${Math.round(r.rps).toLocaleString('en-AU').padStart(6)} req/s  p50 ${r.p50.toFixed(1)} ms  p95 ${r.p95.toFixed(1)} ms  ` +
        `p99 ${r.p99.toFixed(1)} ms${failures ? `  ${failures} failed` : ''}` +
        (r.met === null
          ? ''
          : `  (target >= ${API_TARGET.rps.toLocaleString('en-AU')} req/s, p95 < ${API_TARGET.p95Ms} ms: ${r.met ? 'met' : 'NOT MET'})`),
    );
    results.push(r);
  }
  return results;
}
