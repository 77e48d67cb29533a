import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { createDatabase } from '../server/db/database';
import { startEmbeddedPostgres } from '../server/db/embedded';
import { migrate } from '../server/db/migrate';
import { hashPassword } from '../server/services/user/auth-service';
import { bulkLoad, melbourneDate, ms, type ScanBenchCheck, seed, type Timing, timing } from './scans';

/**
 * The dashboard's statistics at scale (issue 11): the scan bench's scratch PostgreSQL and 1,000,000 scans (its seed and
 * bulk load, which rebuilds the dashboard counts as a restore would), then GET scans/agent-statistics and
 * scans/location-statistics through the real app (app.inject, real bearer tokens: route, auth, scope, validation,
 * queries, serialisation) for a 30-day range and for all time.
 */
export const STATISTICS_P95_TARGET_MS = 50;

export interface DashboardBenchResult {
  rows: number;
  checks: ScanBenchCheck[];
  met: boolean;
}

export async function benchDashboard(
  opts: { rows?: number; requests?: number; log?: (s: string) => void } = {},
): Promise<DashboardBenchResult> {
  const rows = opts.rows ?? (Number(process.env.BENCH_ROWS) || 1_000_000);
  const requests = opts.requests ?? 50;
  const log = opts.log ?? ((s: string) => console.log(s));
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-bench-dashboard-'));
    fs.chmodSync(dir, 0o755);
    cleanup.unshift(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const embedded = await startEmbeddedPostgres(dir, 30000 + Math.floor(Math.random() * 20000), 'bench_dashboard');
    cleanup.unshift(async () => {
      await new Promise((r) => setTimeout(r, 200));
      await embedded.stop();
    });
    await migrate(embedded.url);
    const client = new pg.Client({ connectionString: embedded.url });
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
    await bulkLoad(embedded.url, rows, ids, (s) => log(s.replace(/^scans:/, 'dashboard:')));
    const stored = (await client.query<{ n: string }>(`select count(*) as n from scan_stats`)).rows[0].n;
    log(`dashboard: scan_stats holds ${Number(stored).toLocaleString('en-AU')} rows (day, month and year buckets)`);

    const db = createDatabase(embedded.url, 10);
    cleanup.unshift(() => db.destroy());
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      DATABASE_URL: embedded.url,
      DATA_DIR: path.join(dir, 'data'),
      STATIC_DIR: 'does-not-exist',
      RATE_LIMIT_PER_MINUTE: '1000000',
      SEED_DEMO: 'false',
    });
    const app: FastifyInstance = await buildApp({ config, db });
    cleanup.unshift(() => app.close());
    await app.ready();
    const login = async (email: string) => {
      const res = await app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { email, password: ids.password } });
      if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
      return res.json().data.token as string;
    };
    const tokens = {
      admin: await login(ids.admin),
      agent: await login(ids.agentUser),
      client: await login('bench-client@example.test'),
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
      samples: number[];
      last?: { arch: number; chasis: number; tire: number }[];
    }
    const cases: Case[] = [
      { label: 'agent-statistics, 30 days (admin)', target: true, token: tokens.admin, url: AGENT, query: month, samples: [] },
      { label: 'agent-statistics, all time (admin)', target: true, token: tokens.admin, url: AGENT, query: {}, samples: [] },
      { label: 'location-statistics, 30 days (admin)', target: true, token: tokens.admin, url: LOCATION, query: month, samples: [] },
      { label: 'location-statistics, all time (admin)', target: true, token: tokens.admin, url: LOCATION, query: {}, samples: [] },
      { label: 'agent-statistics, 30 days (Agent user)', target: true, token: tokens.agent, url: AGENT, query: month, samples: [] },
      { label: 'location-statistics, all time (Client user)', target: true, token: tokens.client, url: LOCATION, query: {}, samples: [] },
      { label: 'agent-statistics, today (admin)', target: false, token: tokens.admin, url: AGENT, query: today, samples: [] },
      { label: 'agent-statistics, 30 days with times (admin)', target: false, token: tokens.admin, url: AGENT, query: cut, samples: [] },
    ];
    log(
      `dashboard: load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')} on ${os.cpus().length} cores; ${requests} rounds of one request per case through app.inject, after 3 warm-up rounds`,
    );
    for (let i = -3; i < requests; i++)
      for (const c of cases) {
        const r = await call(c.token, c.url, c.query);
        if (i >= 0) {
          c.samples.push(r.elapsed);
          c.last = r.data;
        }
      }
    const stats: (Timing & { scans: number })[] = cases.map((c) => ({
      ...timing(c.samples),
      scans: (c.last ?? []).reduce((n, r) => n + r.arch + r.chasis + r.tire, 0),
    }));
    cases.forEach((c, i) =>
      log(
        `dashboard: ${c.label.padEnd(46)} p50 ${ms(stats[i].p50).padStart(9)}  p95 ${ms(stats[i].p95).padStart(9)}  max ${ms(stats[i].max).padStart(9)}  (${stats[i].scans.toLocaleString('en-AU')} scans)`,
      ),
    );
    // The figures are exact: the all-time total is every scan, the 30 days the scans of those Melbourne days.
    const monthTruth = Number(
      (
        await client.query<{ n: string }>(
          `select count(*) as n from scans where scanned_at >= ($1::date::timestamp at time zone 'Australia/Melbourne') and scanned_at < (($2::date + 1)::timestamp at time zone 'Australia/Melbourne')`,
          [month.ts, month.td],
        )
      ).rows[0].n,
    );
    const checks: ScanBenchCheck[] = cases
      .map((c, i): ScanBenchCheck | null =>
        c.target
          ? {
              name: `${c.label} p95`,
              value: ms(stats[i].p95),
              target: `< ${STATISTICS_P95_TARGET_MS} ms`,
              met: stats[i].p95 < STATISTICS_P95_TARGET_MS,
            }
          : { name: `${c.label} p95`, value: ms(stats[i].p95), target: 'printed (no target)', met: true },
      )
      .filter((c): c is ScanBenchCheck => c !== null);
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
    log(`\nDashboard statistics at ${rows.toLocaleString('en-AU')} scans (issue 11):`);
    const w = Math.max(...checks.map((c) => c.name.length));
    for (const c of checks)
      log(`  ${c.name.padEnd(w)}  ${c.value.padStart(10)}  target ${c.target.padEnd(20)} ${c.met ? 'met' : 'NOT MET'}`);
    if (rows < 1_000_000) log(`  (only ${rows.toLocaleString('en-AU')} rows: the issue's figures are for 1,000,000)`);
    return { rows, checks, met: checks.every((c) => c.met) };
  } finally {
    for (const step of cleanup) await step().catch(() => {});
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchDashboard();
  process.exitCode = r.met ? 0 : 1;
}
