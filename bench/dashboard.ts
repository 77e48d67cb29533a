import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { hashPassword } from '../server/services/user/auth-service';
import { loadAverage, melbourneDate, ms, printChecks, rounds, timingLine, type BenchCheck } from './report';
import { bulkLoad, seed } from './scans';
import { runCleanup, scratchApp, scratchDatabase, type Cleanup } from './scratch';

/**
 * The dashboard's statistics at scale: the scan bench's scratch PostgreSQL and 1,000,000 scans (its seed and
 * bulk load, which rebuilds the dashboard counts as a restore would), then GET scans/agent-statistics and
 * scans/location-statistics through the real app (app.inject, real bearer tokens: route, auth, scope, validation,
 * queries, serialisation) for a 30-day range and for all time.
 */
export const STATISTICS_P95_TARGET_MS = 50;

export interface DashboardBenchResult {
  rows: number;
  checks: BenchCheck[];
  met: boolean;
}

export async function benchDashboard(
  opts: { rows?: number; requests?: number; log?: (s: string) => void } = {},
): Promise<DashboardBenchResult> {
  const rows = opts.rows ?? (Number(process.env.BENCH_ROWS) || 1_000_000);
  const requests = opts.requests ?? 50;
  const log = opts.log ?? ((s: string) => console.log(s));
  const cleanup: Cleanup = [];
  try {
    const { url, dir } = await scratchDatabase('dashboard', cleanup);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    cleanup.unshift(() => client.end());
    const ids = await seed(client);
    // A Client user of two clients, beside the scan bench's Super Admin and Agent user (two agents).
    const [clientUser] = (
      await client.query<{ id: string }>(
        `insert into users (email, first_name, last_name, password_hash) values ('bench-client@example.test', 'Bench', 'Client', $1) returning id`,
        [await hashPassword(ids.password)],
      )
    ).rows;
    await client.query(`insert into user_roles (user_id, role_id) select $1, id from roles where name = 'Client'`, [clientUser.id]);
    for (const c of ids.clients.slice(0, 2))
      await client.query('insert into user_clients (user_id, client_id) values ($1, $2)', [clientUser.id, c]);
    await bulkLoad(url, rows, ids, (s) => log(s.replace(/^scans:/, 'dashboard:')));
    const stored = (await client.query<{ n: string }>(`select count(*) as n from scan_stats`)).rows[0].n;
    log(`dashboard: scan_stats holds ${Number(stored).toLocaleString('en-AU')} rows (day, month and year buckets)`);

    const { app, login } = await scratchApp(url, dir, cleanup);
    const tokens = {
      admin: await login(ids.admin, ids.password),
      agent: await login(ids.agentUser, ids.password),
      client: await login('bench-client@example.test', ids.password),
    };
    const call = async (token: string, url: string, query: Record<string, string>) => {
      const t0 = performance.now();
      const res = await app.inject({ method: 'GET', url, query, headers: { authorization: `Bearer ${token}` } });
      const elapsed = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`GET ${url} ${JSON.stringify(query)}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return { elapsed, data: res.json<{ data: { arch: number; chasis: number; tire: number }[] }>().data };
    };

    const AGENT = '/api/scan/scans/agent-statistics';
    const LOCATION = '/api/scan/scans/location-statistics';
    const month = { ts: melbourneDate(29), td: melbourneDate(0) };
    const today = { ts: melbourneDate(0), td: melbourneDate(0) };
    // Bounds with times of day: the two days they cut are counted on the scans.
    const cut = { ts: `${melbourneDate(40)} 08:30:00`, td: `${melbourneDate(11)} 17:45:00` };
    interface Case {
      label: string;
      target: boolean;
      token: string;
      url: string;
      query: Record<string, string>;
    }
    const cases: Case[] = [
      { label: 'agent-statistics, 30 days (admin)', target: true, token: tokens.admin, url: AGENT, query: month },
      { label: 'agent-statistics, all time (admin)', target: true, token: tokens.admin, url: AGENT, query: {} },
      { label: 'location-statistics, 30 days (admin)', target: true, token: tokens.admin, url: LOCATION, query: month },
      { label: 'location-statistics, all time (admin)', target: true, token: tokens.admin, url: LOCATION, query: {} },
      { label: 'agent-statistics, 30 days (Agent user)', target: true, token: tokens.agent, url: AGENT, query: month },
      { label: 'location-statistics, all time (Client user)', target: true, token: tokens.client, url: LOCATION, query: {} },
      { label: 'agent-statistics, today (admin)', target: false, token: tokens.admin, url: AGENT, query: today },
      { label: 'agent-statistics, 30 days with times (admin)', target: false, token: tokens.admin, url: AGENT, query: cut },
    ];
    log(`dashboard: ${loadAverage()}; ${requests} rounds of one request per case through app.inject, after 3 warm-up rounds`);
    const stats = (
      await rounds(cases, requests, async (c) => {
        const r = await call(c.token, c.url, c.query);
        return { elapsed: r.elapsed, value: r.data };
      })
    ).map((t) => ({ ...t, scans: (t.last ?? []).reduce((n, r) => n + r.arch + r.chasis + r.tire, 0) }));
    cases.forEach((c, i) => log(timingLine('dashboard', c.label, 46, stats[i], `${stats[i].scans.toLocaleString('en-AU')} scans`)));
    // The figures are exact: the all-time total is every scan, the 30 days the scans of those Melbourne days.
    const monthTruth = Number(
      (
        await client.query<{ n: string }>(
          `select count(*) as n from scans where scanned_at >= ($1::date::timestamp at time zone 'Australia/Melbourne') and scanned_at < (($2::date + 1)::timestamp at time zone 'Australia/Melbourne')`,
          [month.ts, month.td],
        )
      ).rows[0].n,
    );
    const checks: BenchCheck[] = cases
      .map((c, i): BenchCheck | null =>
        c.target
          ? {
              name: `${c.label} p95`,
              value: ms(stats[i].p95),
              target: `< ${STATISTICS_P95_TARGET_MS} ms`,
              met: stats[i].p95 < STATISTICS_P95_TARGET_MS,
            }
          : { name: `${c.label} p95`, value: ms(stats[i].p95), target: 'printed (no target)', met: true },
      )
      .filter((c): c is BenchCheck => c !== null);
    checks.push(
      {
        name: 'all time (admin) = every scan',
        value: stats[1].scans.toLocaleString('en-AU'),
        target: rows.toLocaleString('en-AU'),
        met: stats[1].scans === rows,
      },
      {
        name: '30 days (admin) = the scans of those days',
        value: stats[0].scans.toLocaleString('en-AU'),
        target: monthTruth.toLocaleString('en-AU'),
        met: stats[0].scans === monthTruth,
      },
    );
    printChecks(log, `Dashboard statistics at ${rows.toLocaleString('en-AU')} scans:`, checks, rows);
    return { rows, checks, met: checks.every((c) => c.met) };
  } finally {
    await runCleanup(cleanup);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchDashboard();
  process.exitCode = r.met ? 0 : 1;
}
