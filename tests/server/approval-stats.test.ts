import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper';

/**
 * The approval figures read counts from approval_stats and percentiles along the durations' indexes (migration 035).
 * Both must give exactly what the links themselves give: the figures are compared with one plain statement over the
 * links (counts by answer, percentile_cont) for many ranges, filters and scopes, and approval_stats with a recount,
 * before and after the links, their quotes and their scans change.
 */
let t: TestContext;
let admin: string;
let clientUser: string;
const agents: number[] = [];
const clients: number[] = [];
const locations: number[] = [];
const quotes: number[] = [];
const scans: number[] = [];

const HOUR = 3600_000;

/** What the figures must be: every link in the range and filters, counted and sorted on the spot. */
async function expected(where: ReturnType<typeof sql<boolean>>) {
  const r = await sql<{
    sent: number;
    approved: number;
    partially_approved: number;
    declined: number;
    expired: number;
    scan: number[] | null;
    send: number[] | null;
  }>`
    select count(*)::int as sent,
      count(*) filter (where outcome = 'approved')::int as approved,
      count(*) filter (where outcome = 'partially_approved')::int as partially_approved,
      count(*) filter (where outcome = 'declined')::int as declined,
      count(*) filter (where decided_at is null and revoked_at is null and expires_at <= now())::int as expired,
      percentile_cont(array[0.5, 0.9]) within group (order by extract(epoch from decided_at - scanned_at))
        filter (where outcome in ('approved', 'partially_approved')) as scan,
      percentile_cont(array[0.5, 0.9]) within group (order by extract(epoch from decided_at - sent_at))
        filter (where outcome in ('approved', 'partially_approved')) as send
    from quote_approvals where ${where}`.execute(t.db);
  const row = r.rows[0];
  const figure = (v: number[] | null) => ({
    median_seconds: v ? Math.round(Number(v[0])) : null,
    p90_seconds: v ? Math.round(Number(v[1])) : null,
  });
  const { scan, send, ...counts } = row;
  return { ...counts, scan_to_approval: figure(scan), send_to_approval: figure(send) };
}

const figures = async (token: string, query: string) => {
  const res = await t.as(token, { method: 'GET', url: `/api/quote/quotes/approval-statistics?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

const melbourne = (s: string) => sql`(${s}::timestamp at time zone 'Australia/Melbourne')`;

/** Ranges (dates or wall-clock times, td inclusive) with the same range written as a predicate on sent_at. */
const RANGES: [string, ReturnType<typeof sql<boolean>>][] = [
  ['', sql<boolean>`true`],
  ['ts=2025-01-01&td=2026-12-31', sql<boolean>`sent_at >= ${melbourne('2025-01-01')} and sent_at < ${melbourne('2027-01-01')}`],
  ['ts=2025-12-15&td=2026-01-20', sql<boolean>`sent_at >= ${melbourne('2025-12-15')} and sent_at < ${melbourne('2026-01-21')}`],
  ['ts=2026-01-01&td=2026-01-31', sql<boolean>`sent_at >= ${melbourne('2026-01-01')} and sent_at < ${melbourne('2026-02-01')}`],
  [
    'ts=2025-12-20 13:30:00&td=2026-02-02 08:00:00',
    sql<boolean>`sent_at >= ${melbourne('2025-12-20 13:30:00')} and sent_at < ${melbourne('2026-02-02 08:00:01')}`,
  ],
  [
    'ts=2026-01-10 06:00:00&td=2026-01-10 18:00:00',
    sql<boolean>`sent_at >= ${melbourne('2026-01-10 06:00:00')} and sent_at < ${melbourne('2026-01-10 18:00:01')}`,
  ],
];

async function compareAll() {
  for (const [range, inRange] of RANGES) {
    const q = (extra: string) => [range, extra].filter(Boolean).join('&');
    expect(await figures(admin, range), range).toEqual(await expected(inRange));
    for (const agent of agents)
      expect(await figures(admin, q(`agent_id=${agent}`)), `${range} agent`).toEqual(
        await expected(sql<boolean>`${inRange} and agent_id = ${agent}`),
      );
    expect(await figures(admin, q(`location_id=${locations[0]}`)), `${range} location`).toEqual(
      await expected(sql<boolean>`${inRange} and location_id = ${locations[0]}`),
    );
    expect(await figures(clientUser, range), `${range} Client user`).toEqual(
      await expected(sql<boolean>`${inRange} and client_id = ${clients[1]}`),
    );
  }
  // The counts kept by the triggers are the counts of a recount.
  const kept = await sql`select grain, period::text, agent_id, client_id, location_id, state, n::int from approval_stats
    where n <> 0 order by 1, 2, 3, 4, 5, 6`.execute(t.db);
  await sql`select approval_stats_rebuild()`.execute(t.db);
  const recounted = await sql`select grain, period::text, agent_id, client_id, location_id, state, n::int from approval_stats
    order by 1, 2, 3, 4, 5, 6`.execute(t.db);
  expect(kept.rows).toEqual(recounted.rows);
  expect(kept.rows.length).toBeGreaterThan(0);
}

beforeAll(async () => {
  t = await createTestContext();
  // The figures of this file's own links only: the other files' links live in other databases.
  for (let i = 0; i < 2; i++) clients.push((await t.build.client({ name: `Stats client ${i}` })).id);
  for (let i = 0; i < 2; i++) {
    const agent = (await t.build.agent({ name: `Stats agent ${i}`, default_client_id: clients[i] })).id;
    agents.push(agent);
    locations.push((await t.build.location({ agent_id: agent })).id);
  }
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [clients[1]] })).email);

  // 36 links from early December 2025 to early February 2026, 43 hours apart (so every time of day), in every state.
  const start = Date.parse('2025-12-01T00:00:00Z');
  for (let i = 0; i < 36; i++) {
    const sentAt = start + i * 43 * HOUR;
    const scan = await t.build.scan({
      agent_id: agents[i % 2],
      client_id: clients[(i >> 1) % 2],
      location_id: i % 3 === 0 ? locations[i % 2] : null,
      scanned_at: new Date(sentAt - (5 + (i % 7) * 11) * HOUR),
    });
    const quote = await t.build.quote(scan.id);
    scans.push(scan.id);
    quotes.push(quote.id);
    const kind = i % 6;
    const decisions = [['approved', 'approved'], ['approved', 'declined'], ['declined'], null, null, ['approved']][kind];
    const decided = decisions ? new Date(sentAt + (1 + ((i * 7) % 30)) * HOUR).toISOString() : null;
    await sql`insert into quote_approvals (quote_id, token_hash, recipient, sent_at, expires_at, revoked_at, decided_at, lines)
      values (${quote.id}, ${`stats-${quote.id}`}, 'customer@example.test', ${new Date(sentAt).toISOString()}::timestamptz,
        ${kind === 3 && i % 4 === 1 ? sql`now() + interval '3 days'` : sql`now() - interval '1 hour'`},
        ${kind === 4 ? sql`now()` : sql`null`}, ${decided}::timestamptz,
        ${decisions ? JSON.stringify(decisions.map((decision, k) => ({ key: `dent:${k}`, decision }))) : null}::jsonb)`.execute(t.db);
  }
});

describe('approval figures from approval_stats and the durations’ indexes', () => {
  it('equal the links’ own counts and percentiles for every range, filter and scope', async () => {
    await compareAll();
  });

  it('stay equal when links are answered, revoked and removed, and when their quotes and scans change', async () => {
    // Answer two open links (one approved, one declined) in one statement, revoke another.
    const open = (
      await sql<{ id: number }>`select id from quote_approvals where decided_at is null and revoked_at is null
      and quote_id = any(${quotes}) order by id`.execute(t.db)
    ).rows.map((r) => r.id);
    await sql`update quote_approvals set decided_at = sent_at + interval '5 hours',
        lines = case when id = ${open[0]} then '[{"key":"dent:0","decision":"approved"}]'::jsonb
          else '[{"key":"dent:0","decision":"declined"}]'::jsonb end
      where id = any(${[open[0], open[1]]})`.execute(t.db);
    await sql`update quote_approvals set revoked_at = now() where id = ${open[2]}`.execute(t.db);
    // A quote moves to the other client and agent, a scan to another location and time, a link goes.
    await sql`update quotes set client_id = ${clients[1]}, agent_id = ${agents[1]} where id = ${quotes[4]}`.execute(t.db);
    await sql`update scans set location_id = ${locations[0]}, scanned_at = scanned_at - interval '3 days' where id = ${scans[5]}`.execute(
      t.db,
    );
    await sql`delete from quote_approvals where quote_id = ${quotes[7]}`.execute(t.db);
    await compareAll();
  });
});
