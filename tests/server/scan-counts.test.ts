import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper';

/**
 * The day counts (migration 007) behind the scan list's exact totals and deep pages: kept by triggers through every
 * kind of write, and a deep page found from them holds exactly the rows an offset would.
 */
let t: TestContext;
const agents: number[] = [];
const clients: number[] = [];

/** scan_counts as it stands, against a recount from the scans themselves. */
async function countsVersusScans() {
  const stored = await sql<{ dim: string; key: string; day: string; n: string }>`
    select dim, key::text, day::text, n::text from scan_counts where n <> 0 order by dim, key, day`.execute(t.db);
  const truth = await sql<{ dim: string; key: string; day: string; n: string }>`
    with r as (select (scanned_at at time zone 'Australia/Melbourne')::date as day, agent_id, client_id from scans)
    select dim, key::text, day::text, n::text from (
      select 'all' as dim, 0::bigint as key, day, count(*) as n from r group by day
      union all select 'agent', agent_id, day, count(*) from r group by agent_id, day
      union all select 'client', client_id, day, count(*) from r where client_id is not null group by client_id, day
    ) x order by dim, key, day`.execute(t.db);
  return { stored: stored.rows, truth: truth.rows };
}

beforeAll(async () => {
  t = await createTestContext();
  for (let i = 0; i < 3; i++) agents.push((await t.build.agent()).id);
  for (let i = 0; i < 3; i++) clients.push((await t.build.client()).id);
  // 6,000 scans over the last 12 days: every agent, every client and none, and runs of equal timestamps (the id breaks ties).
  await sql`insert into scans (scan_id, agent_id, client_id, type, status, scanned_at)
    select 'c-' || g, (${agents}::bigint[])[1 + g % 3], case when g % 4 = 3 then null else (${clients}::bigint[])[1 + (g / 4) % 3] end,
           case when g % 5 = 0 then 'tire' else 'arch' end, 'uploaded',
           date_trunc('minute', now()) - make_interval(mins => ((g * 7919) % 17280) - (g % 3))
    from generate_series(1, 6000) g`.execute(t.db);
});

describe('day counts', () => {
  it('match a recount after inserts, moves across a Melbourne midnight, agent and client changes, deletes and a rebuild', async () => {
    let c = await countsVersusScans();
    expect(c.stored.length).toBeGreaterThan(20);
    expect(c.stored).toEqual(c.truth);

    const [first] = (await sql<{ id: number }>`select id from scans order by id limit 1`.execute(t.db)).rows;
    // 23:59:59.9 Melbourne one day, then 00:00 the next: the scan moves from one day to the other.
    await sql`update scans set scanned_at = ('2026-03-01 23:59:59.9'::timestamp at time zone 'Australia/Melbourne') where id = ${first.id}`.execute(
      t.db,
    );
    c = await countsVersusScans();
    expect(c.stored).toEqual(c.truth);
    expect(c.stored).toContainEqual({ dim: 'all', key: '0', day: '2026-03-01', n: '1' });
    await sql`update scans set scanned_at = ('2026-03-02 00:00:00'::timestamp at time zone 'Australia/Melbourne') where id = ${first.id}`.execute(
      t.db,
    );
    c = await countsVersusScans();
    expect(c.stored).toEqual(c.truth);
    expect(c.stored).toContainEqual({ dim: 'all', key: '0', day: '2026-03-02', n: '1' });
    expect(c.stored.find((r) => r.day === '2026-03-01')).toBeUndefined();

    await sql`update scans set agent_id = ${agents[2]}, client_id = null where id in (select id from scans order by id limit 50)`.execute(
      t.db,
    );
    await sql`update scans set client_id = ${clients[0]} where id in (select id from scans order by id desc limit 30)`.execute(t.db);
    c = await countsVersusScans();
    expect(c.stored).toEqual(c.truth);

    // A write that moves no scan between days, agents or clients leaves the counts' rows untouched.
    const before = await sql<{ xmin: string }>`select xmin::text from scan_counts order by dim, key, day`.execute(t.db);
    await sql`update scans set status = 'ready', make = 'Holden' where id in (select id from scans order by id limit 100)`.execute(t.db);
    expect((await sql<{ xmin: string }>`select xmin::text from scan_counts order by dim, key, day`.execute(t.db)).rows).toEqual(
      before.rows,
    );

    await sql`delete from scans where id in (select id from scans order by id desc limit 10)`.execute(t.db);
    // Through the API as well: a manual scan is counted.
    const admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
    expect((await t.as(admin, { method: 'POST', url: '/api/scan/scans', payload: { agent_id: agents[0] } })).statusCode).toBe(201);
    c = await countsVersusScans();
    expect(c.stored).toEqual(c.truth);

    // A load that bypassed the triggers is recounted by scan_counts_rebuild().
    await sql`delete from scan_counts`.execute(t.db);
    await sql`select scan_counts_rebuild()`.execute(t.db);
    c = await countsVersusScans();
    expect(c.stored).toEqual(c.truth);
  });

  it('are emptied by a truncate of the scans', async () => {
    const ctx = await createTestContext();
    const agent = await ctx.build.agent();
    await ctx.build.scan({ agent_id: agent.id });
    expect(Number((await sql<{ n: string }>`select count(*) as n from scan_counts`.execute(ctx.db)).rows[0].n)).toBeGreaterThan(0);
    await sql`truncate scans cascade`.execute(ctx.db);
    expect(Number((await sql<{ n: string }>`select count(*) as n from scan_counts`.execute(ctx.db)).rows[0].n)).toBe(0);
  });
});

describe('deep pages and totals', () => {
  interface Case {
    label: string;
    token: () => string;
    query: string;
    where: string;
  }
  let admin = '';
  let agentUser = '';
  let clientUser = '';
  beforeAll(async () => {
    admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
    agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agents[0], agents[1]] })).email);
    clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [clients[1]] })).email);
  });
  const melbourneDate = (daysAgo: number) =>
    new Date(Date.now() - daysAgo * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Australia/Melbourne' });
  const M = `'Australia/Melbourne'`;
  const cases: Case[] = [
    { label: 'admin, unfiltered', token: () => admin, query: '', where: 'true' },
    { label: 'Agent user of two agents', token: () => agentUser, query: '', where: `agent_id in (${'$A0'}, ${'$A1'})` },
    { label: 'Client user', token: () => clientUser, query: '', where: 'client_id = $C1' },
    { label: 'admin, agent filter', token: () => admin, query: 'agent_id=$A2', where: 'agent_id = $A2' },
    { label: 'admin, client filter', token: () => admin, query: 'client_id=$C0', where: 'client_id = $C0' },
    {
      label: 'admin, date range (whole Melbourne days)',
      token: () => admin,
      query: `ts=${melbourneDate(9)}&te=${melbourneDate(2)}`,
      where: `scanned_at >= ('${melbourneDate(9)}'::date::timestamp at time zone ${M}) and scanned_at < (('${melbourneDate(2)}'::date + 1)::timestamp at time zone ${M})`,
    },
    {
      label: 'Agent user, range cut mid-day at both ends',
      token: () => agentUser,
      query: `ts=${melbourneDate(10)} 13:17:00&te=${melbourneDate(1)} 08:05`,
      where: `agent_id in ($A0, $A1) and scanned_at >= ('${melbourneDate(10)} 13:17:00'::timestamp at time zone ${M}) and scanned_at < ('${melbourneDate(1)} 08:05'::timestamp at time zone ${M} + interval '1 minute')`,
    },
    {
      label: 'admin, range within one day',
      token: () => admin,
      query: `ts=${melbourneDate(4)} 01:00:00&te=${melbourneDate(4)} 22:30:00`,
      where: `scanned_at >= ('${melbourneDate(4)} 01:00:00'::timestamp at time zone ${M}) and scanned_at < ('${melbourneDate(4)} 22:30:00'::timestamp at time zone ${M} + interval '1 second')`,
    },
    {
      label: 'Client user, since a time (no upper bound)',
      token: () => clientUser,
      query: `ts=${melbourneDate(7)} 06:00`,
      where: `client_id = $C1 and scanned_at >= ('${melbourneDate(7)} 06:00'::timestamp at time zone ${M})`,
    },
    // Not answered by the day counts (status; agent and client together): the offset path, for comparison.
    { label: 'admin, status filter', token: () => admin, query: 'status=uploaded', where: `status = 'uploaded'` },
    {
      label: 'Agent user, client filter',
      token: () => agentUser,
      query: 'client_id=$C2',
      where: 'agent_id in ($A0, $A1) and client_id = $C2',
    },
  ];
  const fill = (s: string) =>
    s.replace(/\$A(\d)/g, (_, i) => String(agents[Number(i)])).replace(/\$C(\d)/g, (_, i) => String(clients[Number(i)]));

  it.each(cases)('$label: every page equals the offset, the total is exact', async (c) => {
    const truth = (
      await sql<{ id: string }>`select id from scans where ${sql.raw(fill(c.where))} order by scanned_at desc, id desc`.execute(t.db)
    ).rows.map((r) => Number(r.id));
    expect(truth.length, 'the case selects scans').toBeGreaterThan(40);
    const perPage = 25;
    const last = Math.ceil(truth.length / perPage);
    // First pages (offset path), pages past the day-seek threshold, the last page and one beyond it.
    const pages = [...new Set([1, 2, 41, 42, 43, Math.floor(last / 2), last - 1, last, last + 1].filter((p) => p >= 1))];
    for (const page of pages) {
      const res = await t.as(c.token(), {
        method: 'GET',
        url: `/api/scan/scans?per_page=${perPage}&page=${page}${c.query ? `&${fill(c.query)}` : ''}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ items: { id: number }[]; total: number; total_is_estimate: boolean }>();
      expect(
        body.items.map((i) => i.id),
        `page ${page}`,
      ).toEqual(truth.slice((page - 1) * perPage, page * perPage));
      expect(body.total, `total on page ${page}`).toBe(truth.length);
      expect(body.total_is_estimate).toBe(false);
    }
  });
});
