import { pathToFileURL } from 'node:url';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { hashPassword } from '../server/services/user/auth-service';
import { loadAverage, melbourneDate, ms, rounds, timing, timingLine, type Timing } from './report';
import { runCleanup, scratchApp, scratchDatabase, type Cleanup } from './scratch';

/**
 * The quotes at scale: a scratch embedded PostgreSQL with 200,000 scans and their 200,000 quotes
 * bulk-loaded in SQL (generate_series), then the real app (buildApp) through app.inject with real sign-in tokens:
 * the quotes list (page 1, and filtered pages) and saving a quote (the JSON variant: checks, engine, snapshot, webhook
 * outbox, one transaction). Alone: `npx tsx bench/quotes.ts` (BENCH_QUOTES=… for fewer rows).
 */

/** Saving a quote with its PDF. */
export const QUOTE_SAVE_P95_TARGET_MS = 300;
export const QUOTES_LIST_P95_TARGET_MS = 30;

export interface QuoteBenchCheck {
  name: string;
  value: string;
  met: boolean;
}

const AGENTS = 20;
const CLIENTS = 12;
const SPAN_DAYS = 365;
const PANELS = 30;

/** The quotes bench's world in SQL: clients with matrices, agents, `rows` scans each quoted, 200 damaged scans left to quote, two users. */
export async function loadQuotes(url: string, rows: number, log: (s: string) => void) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const q = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await c.query<T>(text, values)).rows;
  try {
    await q('set synchronous_commit = off');
    const ids = (rs: { id: string }[]) => rs.map((r) => Number(r.id));
    const clients = ids(
      await q(`insert into clients (name) select 'Bench Client ' || g from generate_series(1, ${CLIENTS}) g returning id`),
    );
    const agents = ids(
      await q(
        `insert into agents (name, default_client_id) select 'Bench Agent ' || g, ($1::bigint[])[1 + (g - 1) % ${CLIENTS}]
        from generate_series(1, ${AGENTS}) g returning id`,
        [clients],
      ),
    );
    // A priced catalogue: one part per panel, every client with full matrices.
    const group = ids(await q(`insert into panel_groups (name, position) values ('Bench group', 1) returning id`))[0];
    const parts = ids(
      await q(`insert into parts (name, type) select 'Bench part ' || g, 'arch' from generate_series(1, ${PANELS}) g returning id`),
    );
    await q(
      `insert into panels (panel_group_id, name, label, position, car_panel, part_id)
       select $1, 'Panel ' || i, 'P' || i, i, 'panel_' || i, ($2::bigint[])[i] from generate_series(1, ${PANELS}) i`,
      [group, parts],
    );
    await q(
      `insert into client_dent_prices (client_id, part_id, light, medium, heavy, severe, oversize, p2p, aluminium, conventional, replacement)
      select c, p, 100, 150, 200, 250, 300, 80, 12.5, 400, 900 from unnest($1::bigint[]) c, unnest($2::bigint[]) p`,
      [clients, parts],
    );
    await q(
      `insert into client_scratch_prices (client_id, part_id, spot, paint, conventional)
      select c, p, 50, 120.5, 70 from unnest($1::bigint[]) c, unnest($2::bigint[]) p`,
      [clients, parts],
    );
    await q(`update clients set sc_metallic = 7.5, sc_pearl = 3.25, sc_p2p = true`);
    const product = ids(await q(`insert into products (name, price) values ('Bench wax', 30) returning id`))[0];

    const started = performance.now();
    await q('set session_replication_role = replica');
    const batch = 50_000;
    for (let from = 1; from <= rows; from += batch) {
      const to = Math.min(rows, from + batch - 1);
      await q(
        `insert into scans (scan_id, agent_id, client_id, type, status, license_plate, location_state, scanned_at, created_at, updated_at)
         select 'bench-' || g, ($2::bigint[])[1 + (h / 3) % ${AGENTS}], ($3::bigint[])[1 + ((h / 3) % ${AGENTS}) % ${CLIENTS}],
           case when h % 20 < 12 then 'arch' when h % 20 < 15 then 'chasis' else 'tire' end, 'uploaded',
           chr(65 + (h % 26)::int) || chr(65 + (h / 26 % 26)::int) || chr(65 + (h / 676 % 26)::int) || lpad((h / 17576 % 1000)::text, 3, '0'),
           (array['VIC','NSW','QLD','SA','WA','TAS','ACT','NT'])[1 + (h / 7) % 8], t, t, t
         from (select g, (g::bigint * 2654435761) % 4294967291 as h,
                 now() - make_interval(secs => ${SPAN_DAYS} * 86400.0 * ($1::int - g) / $1::int) as t
               from generate_series(${from}, ${to}) g) s`,
        [rows, agents, clients],
      );
    }
    // Every scan quoted (the quotes' own figures vary; the snapshot is small, as a real one of a few panels).
    await q(`insert into quotes (scan_id, agent_id, client_id, type, items, client_snapshot, gst_percent, pdr, conventional, replacement,
        product, sub_total, tax, grant_total, created_at, updated_at)
      select s.id, s.agent_id, s.client_id, s.type, '{}'::jsonb,
        jsonb_build_object('id', s.client_id, 'name', 'Bench', 'currency', '$', 'sc_metallic', 7.5, 'sc_pearl', 3.25, 'sc_p2p', 1,
          'logo', null, 'phone', null, 'address', null, 'email', null, 'abn', null),
        10, (s.id % 900), (s.id % 400), (s.id % 120), 30, (s.id % 900) + (s.id % 400) + (s.id % 120) + 30,
        ((s.id % 900) + (s.id % 400) + (s.id % 120) + 30) / 10.0, ((s.id % 900) + (s.id % 400) + (s.id % 120) + 30) * 1.1,
        s.scanned_at + interval '20 minutes', s.scanned_at + interval '20 minutes'
      from scans s where s.scan_id like 'bench-%'`);
    await q('set session_replication_role = origin');
    await q('select scan_counts_rebuild()');
    await q('vacuum analyze scans');
    await q('vacuum analyze quotes');
    log(`quotes: ${rows.toLocaleString('en-AU')} scans and quotes loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // Scans left to quote for the save measurement: damaged on every panel.
    const fresh = ids(
      await q(
        `insert into scans (scan_id, agent_id, client_id, type, status, license_plate, scanned_at)
        select 'bench-save-' || g, $1, $2, 'arch', 'uploaded', 'SAVE' || g, now() from generate_series(1, 200) g returning id`,
        [agents[0], clients[0]],
      ),
    );
    await q(
      `insert into scan_measures (scan_id, car_panel, type, level, count)
      select s, 'panel_' || i, 'dents', (array['light','medium','heavy','severe','oversize'])[1 + i % 5], 1 + i % 4
      from unnest($1::bigint[]) s, generate_series(1, ${PANELS}) i`,
      [fresh],
    );
    await q(
      `insert into scan_measures (scan_id, car_panel, type, level, count)
      select s, 'panel_' || i, 'scratchs', 'light', 2 from unnest($1::bigint[]) s, generate_series(1, ${PANELS}, 3) i`,
      [fresh],
    );
    await q(
      `insert into webhooks (agent_id, endpoint, events, secret) values ($1, 'https://hooks.bench.test/in', '{quote.generated}', 'whsec_x')`,
      [agents[0]],
    );
    const panels = (await q<{ id: string }>('select id from panels order by position')).map((r) => Number(r.id));

    const hash = await hashPassword('bench-password-1');
    const user = async (email: string, role: string, agentIds: number[]) => {
      const [u] = await q<{ id: string }>(
        `insert into users (email, first_name, last_name, password_hash) values ($1, 'Bench', $2, $3) returning id`,
        [email, role, hash],
      );
      await q('insert into user_roles (user_id, role_id) select $1, id from roles where name = $2', [u.id, role]);
      for (const a of agentIds) await q('insert into user_agents (user_id, agent_id) values ($1, $2)', [u.id, a]);
      return email;
    };
    return {
      agents,
      clients,
      fresh,
      panels,
      product,
      admin: await user('bench-admin@example.test', 'Super Admin', []),
      agentUser: await user('bench-agent@example.test', 'Agent', [agents[0], agents[1]]),
    };
  } finally {
    await c.end();
  }
}

export async function benchQuotes(opts: { rows?: number; requests?: number; log?: (s: string) => void } = {}) {
  const rows = opts.rows ?? (Number(process.env.BENCH_QUOTES) || 200_000);
  const requests = opts.requests ?? 50;
  const log = opts.log ?? ((s: string) => console.log(s));
  const cleanup: Cleanup = [];
  try {
    const { url, dir } = await scratchDatabase('quotes', cleanup);
    const ids = await loadQuotes(url, rows, log);

    const { app, login } = await scratchApp(url, dir, cleanup);
    const admin = await login(ids.admin, 'bench-password-1');
    const agent = await login(ids.agentUser, 'bench-password-1');
    const call = async (token: string, o: Omit<InjectOptions, 'headers'> & { url: string }, expect = 200) => {
      const t0 = performance.now();
      const res = await app.inject({ ...o, headers: { authorization: `Bearer ${token}` } });
      const elapsed = performance.now() - t0;
      if (res.statusCode !== expect) throw new Error(`${o.method} ${o.url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return { elapsed, res };
    };

    log(`quotes: ${loadAverage()} when the requests start`);
    const range = { ts: melbourneDate(120), te: melbourneDate(91) };
    const cases: { label: string; token: string; query: Record<string, string> }[] = [
      { label: 'page 1, unfiltered (admin)', token: admin, query: { page: '1', per_page: '25' } },
      { label: 'page 1 (Agent user, two agents)', token: agent, query: { page: '1', per_page: '25' } },
      {
        label: 'agent + 30 days (admin)',
        token: admin,
        query: { page: '1', per_page: '25', agent_id: String(ids.agents[0]), ...range },
      },
      {
        label: 'client + type arch, page 3 (admin)',
        token: admin,
        query: { page: '3', per_page: '25', client_id: String(ids.clients[2]), type: 'arch' },
      },
      { label: 'location state NSW (admin)', token: admin, query: { page: '1', per_page: '25', location_state: 'NSW' } },
    ];
    const stats = (
      await rounds(cases, requests, async (c) => {
        const { elapsed, res } = await call(c.token, { method: 'GET', url: '/api/quote/quotes', query: c.query });
        return { elapsed, value: res.json<{ total: number }>().total };
      })
    ).map((t, i) => ({ ...cases[i], ...t, total: t.last ?? 0 }));
    for (const s of stats) log(timingLine('quotes', s.label, 40, s, `total ${s.total.toLocaleString('en-AU')}`));

    // Saving a quote, the JSON variant: 30 damaged panels (pdr at their category, some conventional), scratch lines, a product.
    const items = Object.fromEntries(
      ids.panels.map((id, i) => [id, i % 4 === 0 ? { repair_type: 'conventional' } : { repair_type: 'pdr' }]),
    );
    const saves: number[] = [];
    for (const [i, scanId] of ids.fresh.slice(0, requests + 3).entries()) {
      const { elapsed } = await call(
        agent,
        {
          method: 'POST',
          url: '/api/quote/quotes',
          payload: {
            scan_id: scanId,
            client_id: ids.clients[0],
            type: 'arch',
            items,
            products: [{ value: ids.product, price: 30 }],
            parts: ['Clip'],
            metallic: 1,
            pearl: 1,
            aluminium: 1,
            vehicle_type: 'D',
          },
        },
        201,
      );
      if (i >= 3) saves.push(elapsed);
    }
    const save = timing(saves);
    // Each save makes and stores the quote's PDF before it answers (quotes-service.ts, generateQuotePdf): counted here.
    const withPdf = await sql<{ n: number }>`select count(*)::int as n from quotes
      where scan_id = any(${ids.fresh.slice(0, requests + 3)}::bigint[]) and pdf_key is not null`.execute(app.db);
    log(timingLine('quotes', 'save a 30-panel quote with its PDF (JSON)', 40, save, `${withPdf.rows[0].n} of ${requests + 3} PDFs stored`));

    // Where the time goes, in PostgreSQL alone: the page and the count of the two target cases, as the route runs them.
    const pgc = new pg.Client({ connectionString: url });
    await pgc.connect();
    cleanup.unshift(() => pgc.end());
    const exec = async (label: string, text: string, values: unknown[] = []) => {
      const plan = (await pgc.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off) ${text}`, values)).rows.map(
        (r) => r['QUERY PLAN'],
      );
      log(`quotes: postgres ${label}: ${plan.find((l) => l.includes('Execution Time'))?.trim() ?? '?'}`);
    };
    await exec('page 1 unfiltered', 'select q.id, q.created_at from quotes q where true order by q.created_at desc, q.id desc limit 25');
    await exec(
      'agent + 30 days page',
      `select q.id from quotes q where q.agent_id = $1 and q.created_at >= ($2::date::timestamp at time zone 'Australia/Melbourne')
        and q.created_at < (($3::date + 1)::timestamp at time zone 'Australia/Melbourne') order by q.created_at desc, q.id desc limit 25`,
      [ids.agents[0], range.ts, range.te],
    );
    await exec(
      'agent + 30 days count',
      `select count(*) from (select 1 from quotes q where q.agent_id = $1 and q.created_at >= ($2::date::timestamp at time zone 'Australia/Melbourne')
        and q.created_at < (($3::date + 1)::timestamp at time zone 'Australia/Melbourne') limit 10001) x`,
      [ids.agents[0], range.ts, range.te],
    );

    const byLabel = (l: string) => stats.find((s) => s.label.startsWith(l))!;
    const checks: QuoteBenchCheck[] = [
      ['list p95, page 1 unfiltered', byLabel('page 1, unfiltered')],
      ['list p95, agent + 30 days (filtered page)', byLabel('agent + 30 days')],
    ].map(([name, s]) => {
      const t = s as Timing;
      return { name: `${name as string} < ${QUOTES_LIST_P95_TARGET_MS} ms`, value: ms(t.p95), met: t.p95 < QUOTES_LIST_P95_TARGET_MS };
    });
    checks.push({
      name: `save with its PDF p95 < ${QUOTE_SAVE_P95_TARGET_MS} ms`,
      value: ms(save.p95),
      met: save.p95 < QUOTE_SAVE_P95_TARGET_MS && withPdf.rows[0].n === requests + 3,
    });
    for (const c of checks) log(`quotes: ${c.name}: ${c.value} (${c.met ? 'met' : 'NOT MET'})`);
    return { checks, save, met: checks.every((c) => c.met) };
  } finally {
    await runCleanup(cleanup);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchQuotes();
  process.exit(r.met ? 0 : 1);
}
