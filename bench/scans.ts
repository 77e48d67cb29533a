import { pathToFileURL } from 'node:url';
import type { InjectOptions } from 'fastify';
import pg from 'pg';
import { hashPassword } from '../server/services/user/auth-service';
import { VEHICLES } from '../server/scans-generator/vehicles';
import { loadAverage, melbourneDate, ms, printChecks, rounds, timingLine, type BenchCheck, type Timing } from './report';
import { runCleanup, scratchApp, scratchDatabase, type Cleanup } from './scratch';

/**
 * The scan list at scale: a scratch embedded PostgreSQL, 1,000,000 scans bulk-loaded in SQL
 * (generate_series, not the API), then the real app (buildApp) driven through app.inject with real sign-in tokens,
 * so every figure includes the route, auth, scope, validation, both queries (page + count) and serialisation.
 */

export interface ScanBenchOptions {
  /** Scans to load (default 1,000,000, or BENCH_ROWS). */
  rows?: number;
  /** Measured requests per list case (default 50). */
  requests?: number;
  log?: (s: string) => void;
}

export type ScanBenchCheck = BenchCheck;

export interface ScanBenchResult {
  rows: number;
  load: { seconds: number; rowsPerSecond: number; indexSeconds: number; vacuumSeconds: number };
  list: {
    page1: Timing;
    agentRangeAsAgent: Timing & { total: number };
    agentRangeAsAdmin: Timing & { total: number };
    search: Timing & { q: string; total: number };
    page10000: Timing & { total: number };
    page10000AsAgent: Timing & { total: number };
    /** The first page-10,000 request of the run. */
    page10000First: number;
  };
  export: { ms: number; csvRows: number; expectedRows: number; ts: string; te: string };
  checks: ScanBenchCheck[];
  met: boolean;
}

const LIST_P95_TARGET_MS = 30;
const DEEP_PAGE_RATIO_TARGET = 1.5;

export const AGENTS = 20;
const CLIENTS = 12;
export const SPAN_DAYS = 730;

/** Agents, clients, one location and device per agent, and the two users; returns their ids. */
export async function seed(client: pg.Client) {
  const q = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await client.query<T>(text, values)).rows;
  const clients = (
    await q<{ id: string }>(`insert into clients (name) select 'Bench Client ' || g from generate_series(1, ${CLIENTS}) g returning id`)
  ).map((r) => Number(r.id));
  const agents = (
    await q<{ id: string }>(`insert into agents (name) select 'Bench Agent ' || g from generate_series(1, ${AGENTS}) g returning id`)
  ).map((r) => Number(r.id));
  const locations: number[] = [];
  const devices: number[] = [];
  const states = ['VIC', 'NSW', 'QLD', 'SA', 'WA', 'TAS', 'ACT', 'NT'];
  for (const [i, agent] of agents.entries()) {
    const [loc] = await q<{ id: string }>('insert into locations (name, state, agent_id) values ($1, $2, $3) returning id', [
      `Bench Depot ${i + 1}`,
      states[i % states.length],
      agent,
    ]);
    locations.push(Number(loc.id));
    const [dev] = await q<{ id: string }>(
      'insert into devices (type, serial, agent_id, default_client_id, location_id) values ($1, $2, $3, $4, $5) returning id',
      ['arch', `BENCHDEV${i + 1}`, agent, clients[i % clients.length], loc.id],
    );
    devices.push(Number(dev.id));
  }
  const password = 'bench-password-1';
  const hash = await hashPassword(password);
  const user = async (email: string, role: string, agentIds: number[]) => {
    const [u] = await q<{ id: string }>(
      `insert into users (email, first_name, last_name, password_hash) values ($1, 'Bench', $2, $3) returning id`,
      [email, role, hash],
    );
    await q('insert into user_roles (user_id, role_id) select $1, id from roles where name = $2', [u.id, role]);
    for (const a of agentIds) await q('insert into user_agents (user_id, agent_id) values ($1, $2)', [u.id, a]);
    return email;
  };
  const admin = await user('bench-admin@example.test', 'Super Admin', []);
  // The Agent user works for two agents; the filter narrows to one of them.
  const agentUser = await user('bench-agent@example.test', 'Agent', [agents[0], agents[1]]);
  return { clients, agents, locations, devices, password, admin, agentUser };
}

/**
 * Loads `rows` scans in batches of one INSERT … SELECT FROM generate_series each. The secondary indexes are dropped
 * first and rebuilt from their own definitions afterwards (the usual bulk-load order; the schema ends identical).
 * Distributions: scanned_at over the last ~2 years in row order (plus up to an hour of jitter), agents cycled by a hash
 * of the row number (location and device follow the agent), clients hashed (5% none), registrations 'ABC123'-style
 * from a hash, make/model/body from the generator's vehicle list, type 60% arch / 15% chasis / 25% tire,
 * status 85% uploaded / 5% ready / 10% metadata. A final check confirms every reference resolves.
 */
export async function bulkLoad(
  url: string,
  rows: number,
  ids: Awaited<ReturnType<typeof seed>>,
  log: (s: string) => void,
  /** Vehicles 1..n already stored: scan g is vehicle 1 + g % n's and carries its registration ('V000042'). */
  vehicles = 0,
) {
  // Two sessions (one per core of the target machine) share the batches, then the index builds.
  const sessions = await Promise.all(
    [0, 1].map(async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query('set synchronous_commit = off');
      await c.query(`set maintenance_work_mem = '256MB'`);
      // The rows reference only the agents, clients, locations and devices just made, so the per-row foreign-key
      // triggers (four lookups a row) are skipped for the load, as pg_restore does; a check below confirms every reference.
      await c.query('set session_replication_role = replica');
      return c;
    }),
  );
  const client = sessions[0];
  try {
    const indexes = (
      await client.query<{ name: string; def: string }>(
        `select i.indexname as name, i.indexdef as def from pg_indexes i
       where i.schemaname = 'public' and i.tablename = 'scans'
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
      )
    ).rows;
    for (const ix of indexes) await client.query(`drop index ${ix.name}`);
    /** Runs the jobs on both sessions, each taking the next job when it is free. */
    const shared = async <T>(jobs: T[], run: (c: pg.Client, job: T) => Promise<void>) => {
      const queue = [...jobs];
      await Promise.all(
        sessions.map(async (c) => {
          for (let job = queue.shift(); job !== undefined; job = queue.shift()) await run(c, job);
        }),
      );
    };

    const makes = VEHICLES.map((v) => v.make);
    const models = VEHICLES.map((v) => v.model);
    const bodies = VEHICLES.map((v) => v.body_type);
    const values = VEHICLES.map((v) => v.value[0]);
    const started = performance.now();
    const batch = 125_000;
    const batches: [number, number][] = [];
    for (let from = 1; from <= rows; from += batch) batches.push([from, Math.min(rows, from + batch - 1)]);
    let loaded = 0;
    await shared(batches, async (session, [from, to]) => {
      await session.query(
        `insert into scans (scan_id, agent_id, client_id, location_id, device_id, type, status, license_plate, make, model, car_color, body_type,
                            valuation, location_state, scanned_at, start_time, dent_count, scratch_count, created_at, updated_at, vehicle_id)
         select 'bench-' || g, ($2::bigint[])[ag], cl, ($4::bigint[])[ag], ($5::bigint[])[ag],
                case when h % 20 < 12 then 'arch' when h % 20 < 15 then 'chasis' else 'tire' end,
                case when (h / 20) % 20 < 17 then 'uploaded' when (h / 20) % 20 < 18 then 'ready' else 'metadata' end,
                case when $11::int > 0 then 'V' || lpad((1 + g % $11::int)::text, 6, '0')
                  else chr(65 + (p % 26)::int) || chr(65 + (p / 26 % 26)::int) || chr(65 + (p / 676 % 26)::int) || lpad((p / 17576 % 1000)::text, 3, '0') end,
                ($6::text[])[1 + v], ($7::text[])[1 + v], (array['White','Silver','Grey','Black','Blue','Red','Green','Bronze'])[1 + (h / 400) % 8],
                ($8::text[])[1 + v], ($9::bigint[])[1 + v] + (h % 20000),
                (array['VIC','NSW','QLD','SA','WA','TAS','ACT','NT'])[1 + (ag - 1) % 8],
                t, t - interval '3 minutes', (h / 7) % 6, (h / 11) % 9, t, t, case when $11::int > 0 then 1 + g % $11::int end
         from (
           select g, h, p, 1 + ((h / 3) % ${AGENTS})::int as ag,
                  case when (h / 60) % 20 = 0 then null else ($3::bigint[])[1 + ((h / 61) % ${CLIENTS})::int] end as cl,
                  ((h / 13) % $10)::int as v,
                  now() - make_interval(secs => ${SPAN_DAYS} * 86400.0 * ($1::int - g) / $1::int + (h % 3600)) as t
           from (select g, (g::bigint * 2654435761) % 4294967291 as h, (g::bigint * 40503 + 12345) % 17576000 as p
                 from generate_series(${from}, ${to}) g) s0
         ) s`,
        [rows, ids.agents, ids.clients, ids.locations, ids.devices, makes, models, bodies, values, VEHICLES.length, vehicles],
      );
      loaded += to - from + 1;
      if (loaded % 250_000 === 0 || loaded === rows)
        log(
          `scans: loaded ${loaded.toLocaleString('en-AU')} rows (${Math.round(loaded / ((performance.now() - started) / 1000)).toLocaleString('en-AU')} rows/s)`,
        );
    });
    const insertSeconds = (performance.now() - started) / 1000;
    const indexStart = performance.now();
    await shared(indexes, (session, ix) => session.query(ix.def).then(() => {}));
    const indexSeconds = (performance.now() - indexStart) / 1000;
    const dangling =
      await client.query(`select count(*)::int as n from scans s where not exists (select 1 from agents a where a.id = s.agent_id)
        or (s.client_id is not null and not exists (select 1 from clients c where c.id = s.client_id))
        or not exists (select 1 from locations l where l.id = s.location_id) or not exists (select 1 from devices d where d.id = s.device_id)`);
    if (dangling.rows[0].n !== 0) throw new Error(`bulk load: ${dangling.rows[0].n} scans reference missing rows`);
    // The load bypassed the triggers that keep the day counts (as pg_restore does): recount, as after a restore.
    const countsStart = performance.now();
    await client.query('select scan_counts_rebuild()');
    log(`scans: day counts rebuilt in ${((performance.now() - countsStart) / 1000).toFixed(1)} s`);
    // The dashboard's counts (migration 015) likewise.
    const statsStart = performance.now();
    await client.query('select scan_stats_rebuild()');
    log(`scans: dashboard counts rebuilt in ${((performance.now() - statsStart) / 1000).toFixed(1)} s`);
    const vacuumStart = performance.now();
    await client.query('vacuum analyze scans');
    await client.query('vacuum analyze scan_counts');
    await client.query('vacuum analyze scan_stats');
    const vacuumSeconds = (performance.now() - vacuumStart) / 1000;
    const seconds = insertSeconds + indexSeconds;
    return { seconds, rowsPerSecond: Math.round(rows / seconds), insertSeconds, indexSeconds, vacuumSeconds, indexCount: indexes.length };
  } finally {
    for (const c of sessions) await c.end().catch(() => {});
  }
}

export async function benchScans(opts: ScanBenchOptions = {}): Promise<ScanBenchResult> {
  const rows = opts.rows ?? (Number(process.env.BENCH_ROWS) || 1_000_000);
  const requests = opts.requests ?? 50;
  const log = opts.log ?? ((s: string) => console.log(s));
  const cleanup: Cleanup = [];
  try {
    const pgStart = performance.now();
    const { url, dir } = await scratchDatabase('scans', cleanup);
    log(`scans: scratch PostgreSQL started and migrated in ${Math.round(performance.now() - pgStart)} ms`);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    cleanup.unshift(() => client.end());
    const ids = await seed(client);
    const load = await bulkLoad(url, rows, ids, log);
    log(
      `scans: ${rows.toLocaleString('en-AU')} rows in ${load.seconds.toFixed(1)} s = ${load.rowsPerSecond.toLocaleString('en-AU')} rows/s ` +
        `(insert ${load.insertSeconds.toFixed(1)} s, rebuilding ${load.indexCount} indexes ${load.indexSeconds.toFixed(1)} s; then vacuum analyze ${load.vacuumSeconds.toFixed(1)} s)`,
    );

    const { app, login } = await scratchApp(url, dir, cleanup);
    const adminToken = await login(ids.admin, ids.password);
    const agentToken = await login(ids.agentUser, ids.password);
    const call = async (token: string, url: string, query: Record<string, string | number>) => {
      const opts: InjectOptions = {
        method: 'GET',
        url,
        query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
        headers: { authorization: `Bearer ${token}` },
      };
      const t0 = performance.now();
      const res = await app.inject(opts);
      const elapsed = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`GET ${url} ${JSON.stringify(query)}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return {
        elapsed,
        body: res.json<{ items?: unknown[]; total?: number; total_is_estimate?: boolean; data?: { url: string } }>(),
        raw: res,
      };
    };
    const LIST = '/api/scan/scans';
    type Stat = Timing & { total: number; estimate: boolean; items: number };
    interface Case {
      label: string;
      token: string;
      query: Record<string, string | number>;
    }
    const measure = async (cases: Case[]): Promise<(Stat & { last: Awaited<ReturnType<typeof call>>['body'] | undefined })[]> =>
      (
        await rounds(cases, requests, async (c) => {
          const r = await call(c.token, LIST, c.query);
          return { elapsed: r.elapsed, value: r.body };
        })
      ).map((t) => ({
        ...t,
        total: t.last?.total ?? NaN,
        estimate: !!t.last?.total_is_estimate,
        items: t.last?.items?.length ?? 0,
      }));
    const describe = (label: string, t: Stat) =>
      log(timingLine('scans', label, 44, t, `${t.items} items, total ${t.estimate ? 'about ' : ''}${t.total.toLocaleString('en-AU')}`));

    // Other work on the machine inflates every figure: say how busy it was.
    log(`scans: ${loadAverage()} when the requests start`);
    log(
      `scans: list figures are GET ${LIST} through app.inject with real bearer tokens (route, auth, scope, validation, page + count queries, serialisation); ` +
        `${requests} rounds of one request per case, after 3 warm-up rounds`,
    );

    // The first page-10,000 request of the run, after page 1 has warmed the app.
    const deep = { page: 10_000, per_page: 25 };
    for (let i = 0; i < 3; i++) await call(adminToken, LIST, { page: 1, per_page: 25 });
    const first = await call(adminToken, LIST, deep);

    const range = { ts: melbourneDate(120), te: melbourneDate(91) };
    // A three-character registration prefix of a loaded scan, typed as a user would (lower case).
    const plate = (await client.query<{ p: string }>(`select license_plate as p from scans where id = (select max(id) / 2 from scans)`))
      .rows[0].p;
    const q = plate.slice(0, 3).toLowerCase();
    const cases: Case[] = [
      { label: 'page 1, unfiltered (admin)', token: adminToken, query: { page: 1, per_page: 25 } },
      { label: 'page 10,000, unfiltered (admin)', token: adminToken, query: deep },
      { label: 'page 2,000 (Agent user, two agents)', token: agentToken, query: { page: 2_000, per_page: 25 } },
      {
        label: `agent + 30 days ${range.ts}..${range.te} (Agent user)`.slice(0, 44),
        token: agentToken,
        query: { page: 1, per_page: 25, agent_id: ids.agents[0], ...range },
      },
      {
        label: 'agent + 30 days (admin, agent_id)',
        token: adminToken,
        query: { page: 1, per_page: 25, agent_id: ids.agents[0], ...range },
      },
      { label: `registration prefix q=${q} (admin)`, token: adminToken, query: { page: 1, per_page: 25, q } },
    ];
    const stats = await measure(cases);
    cases.forEach((c, i) => describe(c.label, stats[i]));
    const [page1, deepPage, deepAsAgent, agentRangeAsAgent, agentRangeAsAdmin, search] = stats;
    log(`scans: ${'page 10,000, first request of the run'.padEnd(44)} ${ms(first.elapsed).padStart(9)}`);

    // For comparison, what the day counts spare: the same page found by offset alone (admin scope, no filter), by hand.
    const plan = (
      await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off)
      select s.id, s.scanned_at from scans s where true order by s.scanned_at desc, s.id desc limit 25 offset ${(deep.page - 1) * deep.per_page}`)
    ).rows.map((r) => r['QUERY PLAN']);
    // The day seek must give exactly the rows the offset gives.
    const byOffset = (
      await client.query<{ id: string }>(
        `select id from scans order by scanned_at desc, id desc limit ${deep.per_page} offset ${(deep.page - 1) * deep.per_page}`,
      )
    ).rows.map((r) => Number(r.id));
    const served = (deepPage.items ? (deepPage.last?.items as { id: number }[]) : []).map((r) => r.id);
    const samePage = served.length === byOffset.length && served.every((id, i) => id === byOffset[i]);
    log(`scans: page 10,000 as served ${samePage ? 'equals' : 'DIFFERS FROM'} the same page by offset (${served.length} rows)`);
    log(
      `scans: page 10,000 by offset alone would be: ${plan
        .filter((l) => /Scan|Limit|Execution|Buffers|Heap/.test(l))
        .map((l) => l.trim())
        .join(' | ')}`,
    );

    // Export: a date range holding about 100,000 scans (the load spreads rows evenly over SPAN_DAYS).
    const days = Math.min(SPAN_DAYS, Math.max(1, Math.round(100_000 / (rows / SPAN_DAYS))));
    const exportRange = { ts: melbourneDate(days + 9), te: melbourneDate(10) };
    const expected = (
      await client.query<{ n: string }>(
        `select count(*) as n from scans where scanned_at >= ($1::date::timestamp at time zone 'Australia/Melbourne') and scanned_at < (($2::date + 1)::timestamp at time zone 'Australia/Melbourne')`,
        [exportRange.ts, exportRange.te],
      )
    ).rows[0].n;
    const ex = await call(adminToken, '/api/scan/scans/export-scan-report', exportRange);
    const file = await app.inject({ method: 'GET', url: ex.body.data!.url, headers: { authorization: `Bearer ${adminToken}` } });
    if (file.statusCode !== 200) throw new Error(`export file: ${file.statusCode}`);
    const lines = file.body.split('\r\n').filter((l) => l.length > 0);
    const csvRows = lines.length - 1;
    log(
      `scans: export ${exportRange.ts}..${exportRange.te} (admin): ${ms(ex.elapsed)} for ${csvRows.toLocaleString('en-AU')} CSV rows ` +
        `(${(file.rawPayload.length / 1048576).toFixed(1)} MB; database count for the range ${Number(expected).toLocaleString('en-AU')})`,
    );

    const listCases: [string, Timing][] = [
      ['list p95, page 1 unfiltered', page1],
      ['list p95, agent + 30 days (Agent user)', agentRangeAsAgent],
      ['list p95, agent + 30 days (admin)', agentRangeAsAdmin],
      ['list p95, registration prefix', search],
      ['list p95, page 10,000', deepPage],
      ['list p95, page 2,000 (Agent user)', deepAsAgent],
    ];
    const checks: ScanBenchCheck[] = listCases.map(([name, t]) => ({
      name,
      value: ms(t.p95),
      target: `< ${LIST_P95_TARGET_MS} ms`,
      met: t.p95 < LIST_P95_TARGET_MS,
    }));
    const ratio = (n: number) => n / page1.p95;
    checks.push(
      { name: 'page 10,000 rows = offset 249,975 rows', value: samePage ? 'equal' : 'differ', target: 'equal', met: samePage },
      {
        name: 'page 10,000 / page 1 p95',
        value: `${ratio(deepPage.p95).toFixed(2)}x`,
        target: `<= ${DEEP_PAGE_RATIO_TARGET}x`,
        met: ratio(deepPage.p95) <= DEEP_PAGE_RATIO_TARGET,
      },
      // One sample on cold buffers (the deep index pages and the day counts not yet in shared_buffers) against a p95 of
      // warm requests: printed for what a first visitor waits, not a target of the issue (which compares the two pages' p95).
      { name: 'page 10,000 first request (cold buffers)', value: ms(first.elapsed), target: 'printed (no target)', met: true },
      {
        name: `export ${csvRows.toLocaleString('en-AU')} rows`,
        value: ms(ex.elapsed),
        target: 'printed (no target)',
        met: csvRows === Number(expected),
      },
    );
    printChecks(log, `Scan list at ${rows.toLocaleString('en-AU')} scans:`, checks, rows);

    return {
      rows,
      load: {
        seconds: load.seconds,
        rowsPerSecond: load.rowsPerSecond,
        indexSeconds: load.indexSeconds,
        vacuumSeconds: load.vacuumSeconds,
      },
      list: {
        page1,
        agentRangeAsAgent,
        agentRangeAsAdmin,
        search: { ...search, q },
        page10000: deepPage,
        page10000AsAgent: deepAsAgent,
        page10000First: first.elapsed,
      },
      export: { ms: ex.elapsed, csvRows, expectedRows: Number(expected), ...exportRange },
      checks,
      met: checks.every((c) => c.met),
    };
  } finally {
    await runCleanup(cleanup);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchScans();
  process.exitCode = r.met ? 0 : 1;
}
