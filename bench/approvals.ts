import { pathToFileURL } from 'node:url';
import type { InjectOptions } from 'fastify';
import pg from 'pg';
import { sql } from 'kysely';
import { loadQuotes } from './quotes';
import { loadAverage, ms, printChecks, rounds, timing, timingLine, type BenchCheck, type Timing } from './report';
import { runCleanup, scratchApp, scratchDatabase, type Cleanup } from './scratch';

/**
 * Approval by link at scale: the quotes bench's 200,000 scans and quotes (bench/quotes.ts), most of them sent for
 * approval with their links' answers in SQL (generate_series-like statements over the quotes), then the real app through
 * app.inject with real tokens: sending a quote for approval (the link, the mail in the outbox, the webhook outbox, one
 * transaction), the customer's public page and answer (every line decided, a signature), and the dashboard's approval
 * figures for a Super Admin, an Agent user and a Client user over 30 days and all time.
 * Alone: `npx tsx bench/approvals.ts` (BENCH_QUOTES=… for fewer rows).
 */

export const APPROVALS_P95_TARGET_MS = 50;

/** A 1×1 PNG: the drawn signature the answer carries. */
const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/**
 * The links of the quotes loaded: by a hash of the quote, 30% never sent (draft), 35% approved, 5% partially approved,
 * 5% declined, 5% expired unanswered, 5% revoked, 15% sent and unanswered (those past their 14 days count as expired,
 * as the lazy expiry reads them). Sent an hour after the quote; answered 1–72 hours after sending; three lines each.
 */
async function loadApprovals(url: string, agents: number[], clients: number[], log: (s: string) => void) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const t0 = performance.now();
    await c.query('set synchronous_commit = off');
    await c.query(`create temporary table bench_links as
      select q.id as quote_id, q.created_at + interval '1 hour' as sent_at, (q.id::bigint * 2654435761) % 4294967291 as h,
        case (q.id::bigint * 2654435761) % 4294967291 % 20
          when 6 then 'approved' when 7 then 'approved' when 8 then 'approved' when 9 then 'approved' when 10 then 'approved'
          when 11 then 'approved' when 12 then 'approved' when 13 then 'partially_approved' when 14 then 'declined'
          when 15 then 'expired' when 16 then 'revoked' when 17 then 'sent' when 18 then 'sent' when 19 then 'sent'
        end as outcome
      from quotes q`);
    await c.query(`delete from bench_links where outcome is null`);
    const decision = (d: string) => `jsonb_build_object('key', k, 'decision', ${d}, 'amount', 100 + k_n * 10)`;
    await c.query(`insert into quote_approvals (quote_id, token_hash, recipient, sent_at, expires_at, revoked_at, viewed_at,
        expired_at, decided_at, lines, approved_total, signer_name, ip_address, user_agent)
      select l.quote_id, md5('bench-link-' || l.quote_id), 'customer' || l.quote_id % 1000 || '@example.test', l.sent_at,
        l.sent_at + interval '14 days',
        case when l.outcome = 'revoked' then l.sent_at + interval '2 days' end,
        case when l.outcome not in ('revoked') or l.h % 2 = 0 then l.sent_at + interval '30 minutes' end,
        case when l.outcome = 'expired' then l.sent_at + interval '14 days' end,
        d.decided_at,
        case when d.decided_at is not null then (
          select jsonb_agg(case
              when l.outcome = 'approved' then ${decision(`'approved'`)}
              when l.outcome = 'declined' then ${decision(`'declined'`)}
              when k_n = 1 then ${decision(`'declined'`)}
              else ${decision(`'approved'`)} end)
          from (select 'dent:' || k_n as k, k_n from generate_series(1, 3) k_n) x) end,
        case when l.outcome = 'approved' then 363 when l.outcome = 'partially_approved' then 253 when l.outcome = 'declined' then 0 end,
        case when d.decided_at is not null then 'Bench Customer' end,
        case when d.decided_at is not null then '203.0.113.' || l.quote_id % 250 end,
        case when d.decided_at is not null then 'Bench browser' end
      from bench_links l
      cross join lateral (select case when l.outcome in ('approved', 'partially_approved', 'declined')
        then l.sent_at + make_interval(hours => 1 + (l.h / 20 % 72)::int) end as decided_at) d`);
    await c.query(`update quotes q set status = l.outcome from bench_links l where q.id = l.quote_id`);
    await c.query('vacuum analyze quote_approvals');
    await c.query('vacuum analyze quotes');
    const n = (await c.query<{ n: number }>('select count(*)::int as n from quote_approvals')).rows[0].n;
    log(
      `approvals: ${n.toLocaleString('en-AU')} approval links with their answers loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    // A Client user of one client (the quotes bench made the Super Admin and the Agent user of two agents).
    const email = 'bench-client@example.test';
    await c.query(
      `with u as (insert into users (email, first_name, last_name, password_hash)
         select $1, 'Bench', 'Client', password_hash from users where email = 'bench-admin@example.test' returning id),
       r as (insert into user_roles (user_id, role_id) select u.id, roles.id from u, roles where roles.name = 'Client')
       insert into user_clients (user_id, client_id) select u.id, $2 from u`,
      [email, clients[0]],
    );
    // The Agent user's agents send the quotes below; their webhooks hear of it, as a real agent's would.
    await c.query(
      `insert into webhooks (agent_id, endpoint, events, secret)
       values ($1, 'https://hooks.bench.test/approvals', '{quote.sent,quote.viewed,quote.approved,quote.declined}', 'whsec_x')`,
      [agents[0]],
    );
    return email;
  } finally {
    await c.end();
  }
}

export async function benchApprovals(opts: { rows?: number; requests?: number; log?: (s: string) => void } = {}) {
  const rows = opts.rows ?? (Number(process.env.BENCH_QUOTES) || 200_000);
  const requests = opts.requests ?? 50;
  const log = opts.log ?? ((s: string) => console.log(s));
  const cleanup: Cleanup = [];
  try {
    const { url, dir } = await scratchDatabase('approvals', cleanup);
    const ids = await loadQuotes(url, rows, log);
    const clientEmail = await loadApprovals(url, ids.agents, ids.clients, log);

    const { app, login } = await scratchApp(url, dir, cleanup);
    const admin = await login(ids.admin, 'bench-password-1');
    const agent = await login(ids.agentUser, 'bench-password-1');
    const customer = await login(clientEmail, 'bench-password-1');
    const call = async (o: InjectOptions & { url: string }, expect = 200) => {
      const t0 = performance.now();
      const res = await app.inject(o);
      const elapsed = performance.now() - t0;
      if (res.statusCode !== expect) throw new Error(`${o.method} ${o.url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return { elapsed, res };
    };
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    // The quotes to send: the quotes bench's damaged scans, left with damage on 8 panels (an estimate of a usual size)
    // and quoted through the API (every damaged panel, as a save must; a product), not timed.
    const sending = ids.fresh.slice(0, requests + 3);
    const quotedPanels = ids.panels.slice(0, 8);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query(
      'delete from scan_measures where scan_id = any($1) and car_panel not in (select car_panel from panels where id = any($2))',
      [sending, quotedPanels],
    );
    await db.end();
    const items = Object.fromEntries(quotedPanels.map((id, i) => [id, { repair_type: i % 4 === 0 ? 'conventional' : 'pdr' }]));
    const quotes: number[] = [];
    for (const scanId of sending) {
      const { res } = await call(
        {
          method: 'POST',
          url: '/api/quote/quotes',
          headers: bearer(agent),
          payload: { scan_id: scanId, client_id: ids.clients[0], type: 'arch', items, products: [{ value: ids.product, price: 30 }] },
        },
        201,
      );
      quotes.push(res.json<{ data: { id: number } }>().data.id);
    }

    log(`approvals: ${loadAverage()} when the requests start`);
    // Each quote in turn: sent by the Agent user, opened by its customer, answered (one line declined, the rest approved).
    const send: number[] = [];
    const view: number[] = [];
    const answer: number[] = [];
    for (const [i, quoteId] of quotes.entries()) {
      const sent = await call({
        method: 'POST',
        url: `/api/quote/quotes/${quoteId}/approval`,
        headers: bearer(agent),
        payload: { recipient: 'customer@example.test' },
      });
      const mail = await sql<{ html: string }>`select html from mail_outbox order by id desc limit 1`.execute(app.db);
      const token = /\/approve\/([A-Za-z0-9_-]{43})/.exec(mail.rows[0].html)?.[1];
      if (!token) throw new Error('approvals: no link in the mail');
      const visitor = { remoteAddress: `198.51.100.${1 + (i % 250)}`, headers: { 'user-agent': 'Bench browser' } };
      const page = await call({ method: 'GET', url: `/api/quote/approvals/${token}`, ...visitor });
      const lines = page.res.json<{ data: { quote: { lines: { key: string }[] } } }>().data.quote.lines;
      const answered = await call({
        method: 'POST',
        url: `/api/quote/approvals/${token}`,
        ...visitor,
        payload: {
          decisions: lines.map((l, k) =>
            k === 0 ? { key: l.key, decision: 'declined', reason: 'Not now' } : { key: l.key, decision: 'approved' },
          ),
          terms_accepted: true,
          signer_name: 'Bench Customer',
          signature: SIGNATURE,
        },
      });
      if (i >= 3) {
        send.push(sent.elapsed);
        view.push(page.elapsed);
        answer.push(answered.elapsed);
      }
    }
    const flows: [string, Timing][] = [
      ['POST quotes/{id}/approval (send, Agent user)', timing(send)],
      ['GET approvals/{token} (first view)', timing(view)],
      ['POST approvals/{token} (answer, signed)', timing(answer)],
    ];
    for (const [label, t] of flows) log(timingLine('approvals', label, 46, t, 'one quote after another'));

    // The dashboard's approval figures, round-robin over the users and ranges.
    const to = new Date().toLocaleDateString('en-CA', { timeZone: 'Australia/Melbourne' });
    const from = new Date(Date.now() - 29 * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Australia/Melbourne' });
    const cases: { label: string; token: string; query: Record<string, string> }[] = [
      { label: 'statistics, 30 days (admin)', token: admin, query: { ts: from, td: to } },
      { label: 'statistics, all time (admin)', token: admin, query: {} },
      { label: 'statistics, 30 days (Agent user)', token: agent, query: { ts: from, td: to } },
      { label: 'statistics, all time (Agent user)', token: agent, query: {} },
      { label: 'statistics, 30 days (Client user)', token: customer, query: { ts: from, td: to } },
      { label: 'statistics, all time (Client user)', token: customer, query: {} },
    ];
    const stats = (
      await rounds(cases, requests, async (c) => {
        const { elapsed, res } = await call({
          method: 'GET',
          url: '/api/quote/quotes/approval-statistics',
          query: c.query,
          headers: bearer(c.token),
        });
        return { elapsed, value: res.json<{ data: { sent: number } }>().data.sent };
      })
    ).map((t, i) => ({ ...cases[i], ...t }));
    for (const s of stats) log(timingLine('approvals', s.label, 46, s, `${(s.last ?? 0).toLocaleString('en-AU')} links sent`));

    const checks: BenchCheck[] = [...flows, ...stats.map((s): [string, Timing] => [s.label, s])].map(([name, t]) => ({
      name: `${name} p95`,
      value: ms(t.p95),
      target: `< ${APPROVALS_P95_TARGET_MS} ms`,
      met: t.p95 < APPROVALS_P95_TARGET_MS,
    }));
    printChecks(log, `Approvals at ${rows.toLocaleString('en-AU')} quotes:`, checks, rows, 200_000);
    return { checks, met: checks.every((c) => c.met) };
  } finally {
    await runCleanup(cleanup);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchApprovals();
  process.exitCode = r.met ? 0 : 1;
}
