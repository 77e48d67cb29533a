import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
});

/**
 * Two DELETEs of one row that both find it before either deletes: a third connection holds the row's lock until both
 * requests wait on it, then lets go. One deletes; the other finds nothing left once the first has committed.
 */
async function deleteTwiceAtOnce(table: 'clients' | 'scans' | 'quotes', id: number, url: string) {
  let both: Promise<Awaited<ReturnType<TestContext['as']>>[]> | undefined;
  await t.db.transaction().execute(async (trx) => {
    await sql`select 1 from ${sql.table(table)} where id = ${id} for update`.execute(trx);
    both = Promise.all([t.as(admin, { method: 'DELETE', url }), t.as(admin, { method: 'DELETE', url })]);
    for (let waited = 0; ; waited += 20) {
      const r = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike 'delete from%'`.execute(t.db);
      if (r.rows[0].n === 2) break;
      if (waited > 10_000) throw new Error('the two DELETEs never both waited for the row');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  return (await both!).map((r) => r.statusCode).sort();
}

const deletedEvents = async (kind: 'scan' | 'quote', id: number) =>
  (
    await sql<{ n: number }>`select count(*)::int as n from events where subject_kind = ${kind} and subject_id = ${id}
      and action = ${`${kind}.deleted`}`.execute(t.db)
  ).rows[0].n;

describe('two DELETEs of one record at the same moment', () => {
  it('a described resource (a client): one 200, the other 404', async () => {
    const client = await t.build.client({ name: 'Deleted twice' });
    expect(await deleteTwiceAtOnce('clients', client.id, `/api/quote/clients/${client.id}`)).toEqual([200, 404]);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/quote/clients/${client.id}` })).statusCode).toBe(404);
  });

  it('a scan: one 200, the other 404, and its history says deleted once', async () => {
    const agent = await t.build.agent();
    const scan = await t.build.scan({ agent_id: agent.id });
    expect(await deleteTwiceAtOnce('scans', scan.id, `/api/scan/scans/${scan.id}`)).toEqual([200, 404]);
    expect(await deletedEvents('scan', scan.id)).toBe(1);
  });

  it('a quote: one 200, the other 404, and its history says deleted once', async () => {
    const agent = await t.build.agent();
    const client = await t.build.client();
    const quote = await t.build.quote((await t.build.scan({ agent_id: agent.id, client_id: client.id })).id);
    expect(await deleteTwiceAtOnce('quotes', quote.id, `/api/quote/quotes/${quote.id}`)).toEqual([200, 404]);
    expect(await deletedEvents('quote', quote.id)).toBe(1);
  });
});
