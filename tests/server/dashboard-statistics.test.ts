import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { coveringPeriods } from '../../server/lib/periods';
import { createTestContext, type TestContext } from './helper';

/**
 * GET scans/agent-statistics and scans/location-statistics: every figure is checked against a count made on
 * the scans themselves, for each kind of user, header selection, filter and date range, and through writes.
 */
let t: TestContext;
const agents: number[] = [];
const clients: number[] = [];
const locations: number[] = [];
let admin: string;
let agentUser: string;
let clientUser: string;
let nobody: string;

type Row = { key: number | null; name: string | null; arch: number; chasis: number; tire: number };

/** The rows as the endpoint sends them, keyed alike for both kinds. */
async function stats(
  token: string,
  by: 'agent' | 'location',
  query: Record<string, string | number> = {},
  headers: Record<string, string> = {},
) {
  const res = await t.as(token, {
    method: 'GET',
    url: `/api/scan/scans/${by}-statistics`,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  const rows = res.json().data as Record<string, unknown>[];
  return rows.map((r): Row => ({
    key: (by === 'agent' ? r.agent_id : r.location_id) as number | null,
    name: (by === 'agent' ? r.agent_name : r.location_name) as string | null,
    arch: r.arch as number,
    chasis: r.chasis as number,
    tire: r.tire as number,
  }));
}

/** The same figures counted on the scans: `where` over alias s (Melbourne wall-clock bounds in SQL). */
async function truth(by: 'agent' | 'location', where: ReturnType<typeof sql<boolean>> = sql<boolean>`true`) {
  const key = by === 'agent' ? sql`s.agent_id` : sql`s.location_id`;
  const name = by === 'agent' ? sql`a.name` : sql`l.name`;
  const r = await sql<Row>`select ${key}::int as key, ${name} as name,
      count(*) filter (where s.type = 'arch')::int as arch, count(*) filter (where s.type = 'chasis')::int as chasis,
      count(*) filter (where s.type = 'tire')::int as tire
    from scans s join agents a on a.id = s.agent_id left join locations l on l.id = s.location_id
    where ${where} group by 1, 2 order by 2 nulls last, 1`.execute(t.db);
  return r.rows;
}

const melbourne = (wall: string) => sql`(${wall}::timestamp at time zone 'Australia/Melbourne')`;

beforeAll(async () => {
  t = await createTestContext();
  for (let i = 0; i < 3; i++) agents.push((await t.build.agent({ name: `Stats Agent ${'CAB'[i]}` })).id);
  for (let i = 0; i < 3; i++) clients.push((await t.build.client()).id);
  for (let i = 0; i < 2; i++) locations.push((await t.build.location({ name: `Stats Site ${i + 1}`, agent_id: agents[i] })).id);
  // 3,000 scans over the last ~1,100 days (three calendar years and more: year, month and day buckets), every agent,
  // client or none, location or none, and each type; a run of them on today's date.
  await sql`insert into scans (scan_id, agent_id, client_id, location_id, type, status, scanned_at)
    select 'st-' || g, (${agents}::bigint[])[1 + g % 3],
           case when g % 7 = 6 then null else (${clients}::bigint[])[1 + (g / 7) % 3] end,
           case when g % 5 = 4 then null else (${locations}::bigint[])[1 + g % 2] end,
           (array['arch', 'chasis', 'tire'])[1 + (g / 3) % 3], 'uploaded',
           now() - make_interval(mins => (g * 7919) % (1100 * 1440)) + make_interval(secs => g % 60)
    from generate_series(1, 3000) g`.execute(t.db);
  await sql`insert into scans (scan_id, agent_id, client_id, location_id, type, status, scanned_at)
    select 'st-today-' || g, (${agents}::bigint[])[1 + g % 3], (${clients}::bigint[])[1 + g % 3], ${locations[0]},
           (array['arch', 'chasis', 'tire'])[1 + g % 3], 'uploaded', now() - make_interval(secs => g)
    from generate_series(1, 30) g`.execute(t.db);
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agents[0], agents[1]] })).email);
  clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [clients[1]] })).email);
  nobody = await t.login((await t.build.user({ permissions: ['scan'] })).email);
});

describe('coveringPeriods', () => {
  it('covers a range with whole years, then months, then days, and nothing twice', () => {
    expect(coveringPeriods(null, null)).toEqual([{ grain: 'y', from: null, to: null }]);
    expect(coveringPeriods('2025-03-05', '2025-04-03')).toEqual([{ grain: 'd', from: '2025-03-05', to: '2025-04-03' }]);
    expect(coveringPeriods('2025-03-01', '2025-03-31')).toEqual([{ grain: 'm', from: '2025-03-01', to: '2025-03-01' }]);
    expect(coveringPeriods('2023-11-20', '2026-02-10')).toEqual([
      { grain: 'y', from: '2024-01-01', to: '2025-01-01' },
      { grain: 'm', from: '2023-12-01', to: '2023-12-01' },
      { grain: 'd', from: '2023-11-20', to: '2023-11-30' },
      { grain: 'm', from: '2026-01-01', to: '2026-01-01' },
      { grain: 'd', from: '2026-02-01', to: '2026-02-10' },
    ]);
    expect(coveringPeriods(null, '2024-02-28')).toEqual([
      { grain: 'y', from: null, to: '2023-01-01' },
      { grain: 'm', from: '2024-01-01', to: '2024-01-01' },
      { grain: 'd', from: '2024-02-01', to: '2024-02-28' },
    ]);
    expect(coveringPeriods('2024-12-31', null)).toEqual([
      { grain: 'y', from: '2025-01-01', to: null },
      { grain: 'd', from: '2024-12-31', to: '2024-12-31' },
    ]);
    expect(coveringPeriods('2024-05-02', '2024-05-01')).toEqual([]);
  });

  it('lists every day of a range exactly once', () => {
    const days = (from: string, to: string) => {
      const out: string[] = [];
      for (let d = new Date(`${from}T00:00:00Z`); d.toISOString().slice(0, 10) <= to; d.setUTCDate(d.getUTCDate() + 1))
        out.push(d.toISOString().slice(0, 10));
      return out;
    };
    const lastOfMonth = (m: string) => new Date(Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)), 0)).toISOString().slice(0, 10);
    const expand = (p: { grain: string; from: string | null; to: string | null }) =>
      days(p.from!, p.grain === 'd' ? p.to! : p.grain === 'm' ? lastOfMonth(p.to!) : `${p.to!.slice(0, 4)}-12-31`);
    for (const [from, to] of [
      ['2023-01-31', '2025-03-01'],
      ['2024-02-28', '2024-03-01'],
      ['2024-01-01', '2024-12-31'],
      ['2023-12-31', '2025-01-01'],
      ['2024-06-15', '2024-08-14'],
    ]) {
      const covered = coveringPeriods(from, to).flatMap(expand).sort();
      expect(covered).toEqual(days(from, to));
    }
  });
});

describe('scope', () => {
  it('gives a Super Admin every agent and location, counted exactly, all time', async () => {
    expect(await stats(admin, 'agent')).toEqual(await truth('agent'));
    const locationRows = await stats(admin, 'location');
    expect(locationRows).toEqual(await truth('location'));
    // Scans without a location come as one row with null id and name, last.
    expect(locationRows.at(-1)).toMatchObject({ key: null, name: null });
    expect(locationRows.map((r) => r.name)).toEqual(['Stats Site 1', 'Stats Site 2', null]);
  });

  it("holds an Agent user to their agents and a Client user to their clients' scans", async () => {
    const agentRows = await stats(agentUser, 'agent');
    expect(agentRows.map((r) => r.key).sort()).toEqual([agents[0], agents[1]].sort());
    expect(agentRows).toEqual(await truth('agent', sql<boolean>`s.agent_id = any(${[agents[0], agents[1]]}::bigint[])`));
    expect(await stats(agentUser, 'location')).toEqual(
      await truth('location', sql<boolean>`s.agent_id = any(${[agents[0], agents[1]]}::bigint[])`),
    );
    const clientRows = await stats(clientUser, 'agent');
    expect(clientRows).toHaveLength(3);
    expect(clientRows).toEqual(await truth('agent', sql<boolean>`s.client_id = ${clients[1]}`));
    expect(await stats(clientUser, 'location')).toEqual(await truth('location', sql<boolean>`s.client_id = ${clients[1]}`));
    // Neither role: nothing.
    expect(await stats(nobody, 'agent')).toEqual([]);
    expect(await stats(nobody, 'location')).toEqual([]);
  });

  it('narrows by X_SNG_AGENTS / X_SNG_CLIENTS, never widens', async () => {
    expect(await stats(admin, 'agent', {}, { x_sng_agents: String(agents[2]) })).toEqual(
      await truth('agent', sql<boolean>`s.agent_id = ${agents[2]}`),
    );
    expect(await stats(admin, 'location', {}, { x_sng_clients: `${clients[0]},${clients[2]}` })).toEqual(
      await truth('location', sql<boolean>`s.client_id = any(${[clients[0], clients[2]]}::bigint[])`),
    );
    expect(await stats(agentUser, 'agent', {}, { x_sng_agents: String(agents[2]) })).toEqual([]);
    expect(await stats(agentUser, 'agent', {}, { x_sng_agents: `${agents[1]},${agents[2]}` })).toEqual(
      await truth('agent', sql<boolean>`s.agent_id = ${agents[1]}`),
    );
    expect(await stats(clientUser, 'agent', {}, { x_sng_clients: String(clients[0]) })).toEqual([]);
    expect(await stats(agentUser, 'location', {}, { x_sng_clients: String(clients[0]) })).toEqual(
      await truth('location', sql<boolean>`s.agent_id = any(${[agents[0], agents[1]]}::bigint[]) and s.client_id = ${clients[0]}`),
    );
  });
});

describe('filters', () => {
  it('filters by agent, client and location, within the scope only', async () => {
    expect(await stats(admin, 'agent', { agent_id: agents[1] })).toEqual(await truth('agent', sql<boolean>`s.agent_id = ${agents[1]}`));
    expect(await stats(admin, 'location', { client_id: clients[2], location_id: locations[1] })).toEqual(
      await truth('location', sql<boolean>`s.client_id = ${clients[2]} and s.location_id = ${locations[1]}`),
    );
    // An Agent user naming another agent sees nothing of it.
    expect(await stats(agentUser, 'agent', { agent_id: agents[2] })).toEqual([]);
    expect(await stats(clientUser, 'location', { client_id: clients[0] })).toEqual([]);
    expect(await stats(clientUser, 'agent', { agent_id: agents[0] })).toEqual(
      await truth('agent', sql<boolean>`s.client_id = ${clients[1]} and s.agent_id = ${agents[0]}`),
    );
  });

  it('counts Melbourne days, months and years exactly for date ranges and for times within a day', async () => {
    const today = (await sql<{ d: string }>`select (now() at time zone 'Australia/Melbourne')::date::text as d`.execute(t.db)).rows[0].d;
    const ago = async (days: number) =>
      (await sql<{ d: string }>`select ((now() at time zone 'Australia/Melbourne')::date - ${days}::int)::text as d`.execute(t.db)).rows[0]
        .d;
    const ranges: [string, string][] = [
      [today, today],
      [await ago(29), today],
      [await ago(400), await ago(35)],
      [await ago(1000), await ago(2)],
      ['2020-01-01', today],
    ];
    for (const [ts, td] of ranges) {
      const within = sql<boolean>`s.scanned_at >= ${melbourne(ts)} and s.scanned_at < (${td}::date + 1)::timestamp at time zone 'Australia/Melbourne'`;
      for (const by of ['agent', 'location'] as const)
        expect(await stats(admin, by, { ts, td }), `${by} ${ts}..${td}`).toEqual(await truth(by, within));
    }
    // Only a start or only an end.
    const start = await ago(100);
    expect(await stats(admin, 'agent', { ts: start })).toEqual(await truth('agent', sql<boolean>`s.scanned_at >= ${melbourne(start)}`));
    expect(await stats(admin, 'agent', { td: start })).toEqual(
      await truth('agent', sql<boolean>`s.scanned_at < (${start}::date + 1)::timestamp at time zone 'Australia/Melbourne'`),
    );
    // Times of day: the days they cut are counted on the scans (the ends inclusive, as the scan list's ts/te).
    const [from, to] = [`${await ago(300)} 13:15:00`, `${await ago(3)} 06:30:59`];
    const cut = sql<boolean>`s.scanned_at >= ${melbourne(from)} and s.scanned_at < ${melbourne(to)} + interval '1 second'`;
    expect(await stats(admin, 'agent', { ts: from, td: to })).toEqual(await truth('agent', cut));
    expect(await stats(agentUser, 'location', { ts: from, td: to, client_id: clients[0] })).toEqual(
      await truth(
        'location',
        sql<boolean>`${cut} and s.agent_id = any(${[agents[0], agents[1]]}::bigint[]) and s.client_id = ${clients[0]}`,
      ),
    );
    const sameDay = [`${today} 00:00:00`, `${today} 23:59:59`];
    expect(await stats(admin, 'agent', { ts: sameDay[0], td: sameDay[1] })).toEqual(await stats(admin, 'agent', { ts: today, td: today }));
    const noon = sql<boolean>`s.scanned_at >= ${melbourne(`${today} 00:00:00`)} and s.scanned_at < ${melbourne(`${today} 12:00:00`)}`;
    expect(await stats(admin, 'agent', { ts: today, td: `${today} 11:59` })).toEqual(await truth('agent', noon));
  });

  it('refuses a bad query with 422 naming the field', async () => {
    for (const [query, field] of [
      [{ agent_id: 'abc' }, 'agent_id'],
      [{ client_id: '-3' }, 'client_id'],
      [{ location_id: '1.5' }, 'location_id'],
      [{ ts: '2024-13-01' }, 'ts'],
      [{ td: 'yesterday' }, 'td'],
      [{ ts: '2024-05-02', td: '2024-05-01' }, 'td'],
    ] as const) {
      for (const by of ['agent', 'location']) {
        const res = await t.as(admin, { method: 'GET', url: `/api/scan/scans/${by}-statistics`, query });
        expect(res.statusCode, `${by} ${JSON.stringify(query)}`).toBe(422);
        expect(Object.keys(res.json().error)).toEqual([field]);
      }
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/scan/scans/agent-statistics' })).statusCode).toBe(401);
  });
});

/** scan_stats as it stands, against a recount from the scans. */
async function storedVersusScans() {
  const stored = await sql<{
    k: string;
  }>`select grain || ' ' || period || ' ' || agent_id || ' ' || client_id || ' ' || location_id || ' ' || type || ' ' || n as k
    from scan_stats where n <> 0 order by 1`.execute(t.db);
  const truthRows = await sql<{ k: string }>`with r as (
      select (scanned_at at time zone 'Australia/Melbourne')::date as day, agent_id, coalesce(client_id, 0) as c, coalesce(location_id, 0) as l, type from scans
    ), g as (
      select 'd' as grain, day as period, agent_id, c, l, type from r
      union all select 'm', date_trunc('month', day)::date, agent_id, c, l, type from r
      union all select 'y', date_trunc('year', day)::date, agent_id, c, l, type from r
    )
    select grain || ' ' || period || ' ' || agent_id || ' ' || c || ' ' || l || ' ' || type || ' ' || count(*) as k
    from g group by grain, period, agent_id, c, l, type order by 1`.execute(t.db);
  return { stored: stored.rows.map((r) => r.k), truth: truthRows.rows.map((r) => r.k) };
}

describe('counts through writes', () => {
  it('stay exact through inserts, updates across midnight, month and year, moves between agents, clients, locations and types, deletes and a rebuild', async () => {
    let c = await storedVersusScans();
    expect(c.stored.length).toBeGreaterThan(1000);
    expect(c.stored).toEqual(c.truth);

    const ids = (await sql<{ id: number }>`select id::int as id from scans order by id limit 3`.execute(t.db)).rows.map((r) => r.id);
    // 23:59:59.9 Melbourne on New Year's Eve, then 00:00 on New Year's Day: day, month and year all change.
    await sql`update scans set scanned_at = ${melbourne('2024-12-31 23:59:59.9')} where id = ${ids[0]}`.execute(t.db);
    c = await storedVersusScans();
    expect(c.stored).toEqual(c.truth);
    await sql`update scans set scanned_at = ${melbourne('2025-01-01 00:00:00')} where id = ${ids[0]}`.execute(t.db);
    c = await storedVersusScans();
    expect(c.stored).toEqual(c.truth);
    const newYear = await stats(admin, 'agent', { ts: '2025-01-01', td: '2025-01-01' });
    expect(newYear).toEqual(
      await truth(
        'agent',
        sql<boolean>`s.scanned_at >= ${melbourne('2025-01-01 00:00:00')} and s.scanned_at < ${melbourne('2025-01-02 00:00:00')}`,
      ),
    );
    expect(newYear.reduce((n, r) => n + r.arch + r.chasis + r.tire, 0)).toBeGreaterThanOrEqual(1);

    const before = await stats(admin, 'agent');
    await sql`update scans set agent_id = ${agents[2]}, client_id = null, location_id = null, type = 'tire' where id = any(${ids}::bigint[])`.execute(
      t.db,
    );
    await sql`update scans set client_id = ${clients[0]}, location_id = ${locations[1]}, type = 'chasis' where id in (select id from scans order by id desc limit 40)`.execute(
      t.db,
    );
    c = await storedVersusScans();
    expect(c.stored).toEqual(c.truth);
    expect(await stats(admin, 'agent')).not.toEqual(before);
    expect(await stats(admin, 'agent')).toEqual(await truth('agent'));

    // A write that moves no scan between buckets leaves the rows untouched.
    const rows = await sql<{
      xmin: string;
    }>`select xmin::text from scan_stats order by grain, period, agent_id, client_id, location_id, type`.execute(t.db);
    await sql`update scans set status = 'ready', make = 'Holden' where id in (select id from scans order by id limit 100)`.execute(t.db);
    expect(
      (
        await sql<{
          xmin: string;
        }>`select xmin::text from scan_stats order by grain, period, agent_id, client_id, location_id, type`.execute(t.db)
      ).rows,
    ).toEqual(rows.rows);

    await sql`delete from scans where id in (select id from scans order by id desc limit 25)`.execute(t.db);
    // Through the API as well: a manual scan (tire, today) is counted at once.
    const today = (await sql<{ d: string }>`select (now() at time zone 'Australia/Melbourne')::date::text as d`.execute(t.db)).rows[0].d;
    const tireToday = async () => (await stats(admin, 'agent', { ts: today, td: today, agent_id: agents[1] }))[0]?.tire ?? 0;
    const n = await tireToday();
    expect((await t.as(admin, { method: 'POST', url: '/api/scan/scans', payload: { agent_id: agents[1] } })).statusCode).toBe(201);
    expect(await tireToday()).toBe(n + 1);
    c = await storedVersusScans();
    expect(c.stored).toEqual(c.truth);

    // A load that bypassed the triggers is recounted by scan_stats_rebuild().
    await sql`delete from scan_stats`.execute(t.db);
    await sql`select scan_stats_rebuild()`.execute(t.db);
    c = await storedVersusScans();
    expect(c.stored).toEqual(c.truth);
    await sql`truncate scans cascade`.execute(t.db);
    expect((await sql<{ n: number }>`select count(*)::int as n from scan_stats`.execute(t.db)).rows[0].n).toBe(0);
    expect(await stats(admin, 'agent')).toEqual([]);
  });
});
