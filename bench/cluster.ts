import { missingPackages, startCluster } from '../scripts/cluster';
import { load } from './api';
import { percentile } from './report';

/**
 * Authenticated single-record GET throughput through the load balancer with two instances vs one
 * instance directly, on the same cluster (`scripts/cluster.ts`: Debian PostgreSQL, s3rver, HAProxy) and the same
 * machine: autocannon as in bench/api.ts (16 connections, a 3 s warm-up, then BENCH_API_SECONDS, default 10). The
 * instances run as in production, so each request also counts against the shared PostgreSQL rate limit
 * (RATE_LIMIT_STORE=postgres, raised so that it never refuses). No target: the figure is printed side by side.
 * Skipped, with the reason printed, when Debian's postgresql or haproxy is not installed.
 */
const SECONDS = Number(process.env.BENCH_API_SECONDS) || 10;

export interface ClusterRun {
  via: string;
  rps: number;
  p50: number;
  p95: number;
  failures: number;
}

export async function benchCluster(log: (s: string) => void): Promise<{ skipped: string } | { runs: ClusterRun[] }> {
  const missing = missingPackages();
  if (missing.length)
    return {
      skipped: `Debian's ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed (apt-get install ${missing.join(' ')}; npm run test:cluster installs them)`,
    };
  const cluster = await startCluster({ quiet: true, env: { RATE_LIMIT_PER_MINUTE: '100000000' } });
  try {
    const signIn = await fetch(`${cluster.url}/api/user/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@demo.test', password: 'demo-password-1' }),
    });
    const token = ((await signIn.json()) as { data: { token: string } }).data.token;
    const auth = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br', accept: 'application/json' };
    const created = await fetch(`${cluster.url}/api/agent/locations`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench Depot', state: 'VIC' }),
    });
    if (created.status !== 201) throw new Error(`creating a location: ${created.status} ${await created.text()}`);
    const id = ((await created.json()) as { data: { id: number } }).data.id;
    const path = `/api/agent/locations/${id}`;
    const runs: ClusterRun[] = [];
    for (const [via, base] of [
      ['HAProxy -> 2 instances', cluster.url],
      ['1 instance directly', cluster.instances[0].url],
    ] as const) {
      await load(base + path, auth, 3);
      const { result, samples } = await load(base + path, auth, SECONDS);
      runs.push({
        via,
        rps: result.requests.total / SECONDS,
        p50: percentile(samples, 50),
        p95: percentile(samples, 95),
        failures: result.non2xx + result.errors + result.timeouts,
      });
    }
    const row = (r: ClusterRun) =>
      `${r.via}: ${Math.round(r.rps).toLocaleString('en-AU').padStart(6)} req/s, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms` +
      `${r.failures ? `, ${r.failures} failed` : ''}`;
    log(`  GET ${path}   ${row(runs[0])}   |   ${row(runs[1])}   (ratio ${(runs[0].rps / runs[1].rps).toFixed(2)}x)`);
    return { runs };
  } finally {
    await cluster.stop();
  }
}
