import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createDatabase } from '../server/db/database';
import { refreshComparisonsAround } from '../server/services/scan/vehicles-service';
import { loadAverage, ms, printChecks, rounds, timing, timingLine, type BenchCheck } from './report';
import { bulkLoad, seed } from './scans';
import { runCleanup, scratchApp, scratchDatabase, type Cleanup } from './scratch';

/**
 * Vehicle history at scale: a scratch embedded PostgreSQL with `scans` scans over `scans / 5` vehicles (five scans
 * of each, about 146 days apart, so each compares with the one before), two damage counts a scan, four tyre sides a
 * tyre scan and a stored comparison a scan, all in SQL (generate_series); then the real app through app.inject.
 * The default size is small so `npm run bench` stays quick; the size is opt-in:
 * `BENCH_ONLY=vehicles npm run bench -- --vehicle-scans=1000000` (or `npx tsx bench/vehicles.ts --vehicle-scans=1000000`).
 */

export const DEFAULT_VEHICLE_SCANS = 20_000;
const INGEST_COMPARISON_TARGET_MS = 20;
const VEHICLE_PAGE_TARGET_MS = 50;
const NEW_DAMAGE_LIST_TARGET_MS = 30;

/** The size asked for on the command line (`--vehicle-scans=N`), else the default. */
export function vehicleBenchScans(argv: readonly string[] = process.argv) {
  const arg = argv.find((a) => a.startsWith('--vehicle-scans='));
  const n = arg ? Number(arg.slice('--vehicle-scans='.length).replace(/[_,]/g, '')) : NaN;
  return Number.isInteger(n) && n >= 1000 ? n : DEFAULT_VEHICLE_SCANS;
}

/** Vehicles 1..n, then the scans' counts, tyres and comparisons, in SQL. */
async function loadHistory(client: pg.Client, url: string, ids: Awaited<ReturnType<typeof seed>>, scans: number, log: (s: string) => void) {
  const vehicles = Math.max(1, Math.floor(scans / 5));
  const t0 = performance.now();
  await client.query(
    `insert into vehicles (id, registration, state, first_seen, last_seen) overriding system value
     select v, 'V' || lpad(v::text, 6, '0'), 'VIC', now() - interval '730 days', now() from generate_series(1, $1::int) v`,
    [vehicles],
  );
  await client.query(`select setval(pg_get_serial_sequence('vehicles', 'id'), $1::int)`, [vehicles]);
  const load = await bulkLoad(url, scans, ids, log, vehicles);
  const t1 = performance.now();
  await client.query(`set synchronous_commit = off`);
  // Two counts a scan (a dent and a scratch on panels chosen by a hash of the id), four tyre sides a tyre scan.
  await client.query(`insert into scan_measures (scan_id, car_panel, type, level, count)
    select s.id, (array['bonnet','roof','boot','left_front_door','right_front_door','left_rear_door','right_rear_door','front_bumper'])[1 + (s.id * 7) % 8],
      t.type, (array['light','medium','heavy'])[1 + (s.id / 3) % 3], 1 + (s.id + t.k) % 3
    from scans s cross join (values ('dents', 0), ('scratchs', 1)) t(type, k)`);
  await client.query(`insert into scan_tyres (scan_id, "row", direction, position, label, depths)
    select s.id, w.r, w.d, 'O', w.label, array[(8 - (extract(epoch from now() - s.scanned_at) / 86400 / 120) + (s.id % 5) / 10.0)::real,
      (7.5 - (extract(epoch from now() - s.scanned_at) / 86400 / 120))::real]
    from scans s cross join (values (1, 'L', 'FRONT LEFT'), (1, 'R', 'FRONT RIGHT'), (2, 'L', 'REAR LEFT'), (2, 'R', 'REAR RIGHT')) w(r, d, label)
    where s.type = 'tire'`);
  const t2 = performance.now();
  // Each scan's comparisons with its vehicle's previous scan of its kind, per basis as ingestion stores them (any scan,
  // the same agent's, client's, both; one row per distinct previous scan; docs/server.md, Vehicles): the figures
  // read, not the differences' detail. The bench's agents and clients are hashed per scan, so a vehicle's scans are
  // mostly of different agents: the restricted bases are rarer here than for a real fleet, their filters walk further.
  await client.query(`insert into scan_comparisons (scan_id, previous_scan_id, previous_scanned_at, differences, summary, has_new_damage,
      new_damage_count, for_all, for_agent, for_client, for_pair)
    select id, prev_id, min(prev_at), '[]'::jsonb, case when (id + prev_id) % 3 = 0 then 'Bonnet +1 scratch' else '' end,
      (id + prev_id) % 3 = 0, case when (id + prev_id) % 3 = 0 then 1 else 0 end,
      bool_or(basis = 'all'), bool_or(basis = 'agent'), bool_or(basis = 'client'), bool_or(basis = 'pair')
    from (
      select id, client_id,
        lag(id) over a as p_all, lag(scanned_at) over a as t_all,
        lag(id) over g as p_agent, lag(scanned_at) over g as t_agent,
        lag(id) over c as p_client, lag(scanned_at) over c as t_client,
        lag(id) over b as p_pair, lag(scanned_at) over b as t_pair
      from scans
      window a as (partition by vehicle_id, type order by scanned_at, id),
        g as (partition by vehicle_id, type, agent_id order by scanned_at, id),
        c as (partition by vehicle_id, type, client_id order by scanned_at, id),
        b as (partition by vehicle_id, type, agent_id, client_id order by scanned_at, id)
    ) x
    cross join lateral (values ('all', p_all, t_all), ('agent', p_agent, t_agent),
      ('client', case when client_id is not null then p_client end, t_client),
      ('pair', case when client_id is not null then p_pair end, t_pair)) v(basis, prev_id, prev_at)
    where prev_id is not null
    group by id, prev_id`);
  for (const table of ['vehicles', 'scans', 'scan_measures', 'scan_tyres', 'scan_comparisons'])
    await client.query(`vacuum analyze ${table}`);
  log(
    `vehicles: ${vehicles.toLocaleString('en-AU')} vehicles, ${scans.toLocaleString('en-AU')} scans in ${load.seconds.toFixed(1)} s; ` +
      `counts and tyres ${((t2 - t1) / 1000).toFixed(1)} s, comparisons and vacuum ${((performance.now() - t2) / 1000).toFixed(1)} s ` +
      `(${((performance.now() - t0) / 1000).toFixed(0)} s in all)`,
  );
  return vehicles;
}

export async function benchVehicles(opts: { scans?: number; requests?: number; log?: (s: string) => void } = {}) {
  const scans = opts.scans ?? vehicleBenchScans();
  const requests = opts.requests ?? 50;
  const log = opts.log ?? ((s: string) => console.log(s));
  const cleanup: Cleanup = [];
  try {
    const { url, dir } = await scratchDatabase('vehicles', cleanup);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    cleanup.unshift(() => client.end());
    const ids = await seed(client);
    const vehicles = await loadHistory(client, url, ids, scans, log);

    const { app, login } = await scratchApp(url, dir, cleanup);
    const db = createDatabase(url, 2);
    cleanup.unshift(() => db.destroy());
    const admin = await login(ids.admin, ids.password);
    const agent = await login(ids.agentUser, ids.password);
    // A Client user of one client, as the portal's customers sign in.
    const clientUser = (
      await client.query<{ email: string }>(
        `with u as (insert into users (email, first_name, last_name, password_hash)
           select 'bench-client@example.test', 'Bench', 'Client', password_hash from users where email = $1 returning id, email),
         r as (insert into user_roles (user_id, role_id) select u.id, roles.id from u, roles where roles.name = 'Client'),
         c as (insert into user_clients (user_id, client_id) select u.id, $2 from u)
         select email from u`,
        [ids.admin, ids.clients[0]],
      )
    ).rows[0].email;
    const customer = await login(clientUser, ids.password);
    const agentUserId = (await client.query<{ id: string }>(`select id from users where email = $1`, [ids.agentUser])).rows[0].id;
    const key = (
      await app.inject({ method: 'GET', url: `/api/user/users/${agentUserId}/apikey`, headers: { authorization: `Bearer ${admin}` } })
    ).json<{ data: { token: string } }>().data.token;
    const call = async (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
      const t0 = performance.now();
      const res = await app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
      const elapsed = performance.now() - t0;
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return { elapsed, body: res.json<{ data: { id: number } & Record<string, unknown> }>() };
    };
    // A vehicle by a hash of the round, so the rounds spread over the table.
    let round = 0;
    const someVehicle = () => 1 + ((++round * 2654435761) % vehicles);
    // The Agent user sees a vehicle only through its two agents' scans.
    const agentVehicles = (
      await client.query<{ v: string }>(`select distinct vehicle_id as v from scans where agent_id = any($1::bigint[]) limit 500`, [
        ids.agents.slice(0, 2),
      ])
    ).rows.map((r) => Number(r.v));
    const registration = (v: number) => `V${String(v).padStart(6, '0')}`;

    log(`vehicles: ${loadAverage()} when the requests start`);
    log(`vehicles: ${requests} rounds of one request per case through app.inject with real tokens, after 3 warm-up rounds`);

    // A device announces a scan of a known vehicle and uploads its counts: linking and the comparison run in that
    // request's transaction. The step itself is timed by running it again on the stored scan (same statements, same data).
    const step: number[] = [];
    let compared = 0;
    const [results, page, pageAsAgent, list, comparison] = await rounds(
      ['results', 'page', 'page-agent', 'list', 'comparison'] as const,
      requests,
      async (c) => {
        if (c === 'results') {
          const v = someVehicle();
          const announced = await call(key, 'POST', '/api/scan/ingest/scans', {
            scan_id: `bench-ingest-${round}-${Date.now()}`,
            device_id: ids.devices[0],
            type: 'arch',
            licensePlate: registration(v),
            timestamp: new Date().toISOString(),
          });
          const id = announced.body.data.id;
          const r = await call(key, 'PUT', `/api/scan/ingest/scans/${id}/results`, {
            measures: { dents: { bonnet: { medium: 2 } }, scratchs: { roof: { light: 1 } } },
          });
          const t0 = performance.now();
          await db.transaction().execute((trx) => refreshComparisonsAround(trx, id));
          step.push(performance.now() - t0);
          compared += (await client.query(`select 1 from scan_comparisons where scan_id = $1`, [id])).rowCount ?? 0;
          return { elapsed: r.elapsed, value: id };
        }
        if (c === 'page' || c === 'page-agent') {
          const v = c === 'page' ? someVehicle() : agentVehicles[round++ % agentVehicles.length];
          const r = await call(c === 'page' ? admin : agent, 'GET', `/api/scan/vehicles/${v}`);
          return { elapsed: r.elapsed, value: r.body.data.id };
        }
        if (c === 'list') {
          const r = await call(admin, 'GET', `/api/scan/vehicles?page=1&per_page=25&q=V0001`);
          return { elapsed: r.elapsed, value: 0 };
        }
        const r = await call(admin, 'GET', `/api/scan/scans/${1 + ((++round * 2654435761) % scans)}/comparison`);
        return { elapsed: r.elapsed, value: 0 };
      },
    );
    const stepTiming = timing(step.slice(3));
    log(timingLine('vehicles', 'ingest: link + comparison step', 40, stepTiming, `${compared} of ${step.length} scans compared`));
    log(timingLine('vehicles', 'ingest: PUT results (whole request)', 40, results, 'counts, link, comparison, events'));
    log(timingLine('vehicles', 'GET vehicles/{id} (admin)', 40, page, 'vehicle page data'));
    log(timingLine('vehicles', 'GET vehicles/{id} (Agent user)', 40, pageAsAgent, 'scoped to two agents'));
    log(timingLine('vehicles', 'GET vehicles?q=V0001 (admin)', 40, list, 'Vehicles list, registration prefix'));
    log(timingLine('vehicles', 'GET scans/{id}/comparison (admin)', 40, comparison, 'stored comparison'));

    // The scan list filtered to new damage, page 1, each user reading the comparisons of their own basis.
    const viewers = [
      { label: 'admin', token: admin },
      { label: 'Agent user', token: agent },
      { label: 'Client user', token: customer },
    ];
    const newDamageLists = (
      await rounds(viewers, requests, async (v) => {
        const r = await call(v.token, 'GET', '/api/scan/scans?page=1&per_page=25&new_damage=true');
        return { elapsed: r.elapsed, value: (r.body as unknown as { items: unknown[] }).items.length };
      })
    ).map((t, i) => ({ ...viewers[i], ...t }));
    for (const l of newDamageLists)
      log(timingLine('vehicles', `GET scans?new_damage=true (${l.label})`, 40, l, `page 1: ${l.last ?? 0} rows`));

    // The Vehicles list's export of every vehicle in the list's default order, once per user: the report's cursor
    // reads the stored vehicles for the admin and the facts of the scans in scope for the Agent user.
    const exports: { label: string; ms: number; rows: number }[] = [];
    for (const v of viewers.slice(0, 2)) {
      const r = await call(v.token, 'GET', '/api/scan/vehicles/export-vehicle-report');
      const file = await app.inject({ method: 'GET', url: (r.body.data as unknown as { url: string }).url });
      const rows = file.body.split('\r\n').filter(Boolean).length - 1;
      exports.push({ label: v.label, ms: r.elapsed, rows });
      log(`vehicles: GET vehicles/export-vehicle-report (${v.label}): ${ms(r.elapsed)} for ${rows.toLocaleString('en-AU')} CSV rows`);
    }

    // Where the Client user's filtered page goes in PostgreSQL alone: the page and its count, as the route runs them.
    const clientId = ids.clients[0];
    for (const [label, text] of [
      [
        'page',
        `select s.id, s.scanned_at from scan_comparisons k join scans s on s.id = k.scan_id
         where k.client_id = $1 and k.has_new_damage and k.for_client order by k.scanned_at desc, k.scan_id desc limit 25`,
      ],
      [
        'count',
        `select count(*) from (select 1 from scan_comparisons k where k.client_id = $1 and k.has_new_damage and k.for_client limit 10001) x`,
      ],
    ]) {
      const plan = (await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off) ${text}`, [clientId])).rows.map(
        (r) => r['QUERY PLAN'],
      );
      log(
        `vehicles: postgres, Client user's new-damage ${label}: ${plan.find((l) => l.includes('Execution Time'))?.trim() ?? '?'}; ${plan[0].trim()}`,
      );
    }

    const checks: BenchCheck[] = [
      {
        name: 'ingest: comparison step p95',
        value: ms(stepTiming.p95),
        target: `< ${INGEST_COMPARISON_TARGET_MS} ms`,
        met: stepTiming.p95 < INGEST_COMPARISON_TARGET_MS,
      },
      {
        name: 'vehicle page data p95 (admin)',
        value: ms(page.p95),
        target: `< ${VEHICLE_PAGE_TARGET_MS} ms`,
        met: page.p95 < VEHICLE_PAGE_TARGET_MS,
      },
      {
        name: 'vehicle page data p95 (Agent user)',
        value: ms(pageAsAgent.p95),
        target: `< ${VEHICLE_PAGE_TARGET_MS} ms`,
        met: pageAsAgent.p95 < VEHICLE_PAGE_TARGET_MS,
      },
      ...newDamageLists.map((l) => ({
        name: `scan list filtered to new damage p95 (${l.label})`,
        value: ms(l.p95),
        target: `< ${NEW_DAMAGE_LIST_TARGET_MS} ms`,
        met: l.p95 < NEW_DAMAGE_LIST_TARGET_MS,
      })),
      ...exports.map((e) => ({
        name: `vehicles export, every vehicle (${e.label})`,
        value: `${ms(e.ms)} for ${e.rows.toLocaleString('en-AU')} rows`,
        target: 'printed (no target)',
        met: true,
      })),
      // A vehicle's last arch scan may be older than the window: such an ingested scan has nothing to compare with.
      { name: 'ingested scans with a comparison', value: `${compared}/${step.length}`, target: 'printed (no target)', met: true },
    ];
    printChecks(
      log,
      `Vehicle history at ${scans.toLocaleString('en-AU')} scans over ${vehicles.toLocaleString('en-AU')} vehicles:`,
      checks,
      scans,
    );
    return { scans, vehicles, checks, met: checks.every((c) => c.met) };
  } finally {
    await runCleanup(cleanup);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchVehicles();
  process.exitCode = r.met ? 0 : 1;
}
