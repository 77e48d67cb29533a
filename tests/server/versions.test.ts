import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DENT_PRICE_ROW, type TestContext } from './helper';

/** Versions of scans and quotes: each save moves the version on; a save made from an older one gets 409 and stores nothing. */
let t: TestContext;
let anna: string;
let ben: string;
let annaId: number;
let agent: number;
let client: number;
let bonnet: number;

/** Every row of the tables a scan or quote save writes, to show a refused save changed nothing. */
async function digest() {
  const tables = ['scans', 'scan_measures', 'scan_tyre_repairs', 'quotes', 'webhook_deliveries'];
  const parts = tables.map(
    (name) =>
      sql<{
        d: string;
      }>`select ${name}::text || count(*) || ':' || coalesce(sum(hashtextextended(x::text, 0)::numeric), 0) as d from ${sql.table(name)} x`,
  );
  return (await sql<{ d: string }>`${sql.join(parts, sql` union all `)}`.execute(t.db)).rows.map((r) => r.d).join('|');
}

const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
  t.as(token, { method, url, payload });
const scanVersion = async (token: string, scan: number) =>
  (await call(token, 'GET', `/api/scan/scans/${scan}`)).json().data.version as number;

beforeAll(async () => {
  t = await createTestContext();
  client = (await t.build.client({ name: 'Version client' })).id;
  agent = (await t.build.agent({ name: 'Version agent', default_client_id: client })).id;
  const a = await t.build.user({ roles: ['Agent'], agents: [agent] });
  annaId = a.id;
  await sql`update users set first_name = 'Anna', last_name = 'Lee' where id = ${a.id}`.execute(t.db);
  anna = await t.login(a.email);
  ben = await t.login((await t.build.user({ roles: ['Agent'], agents: [agent] })).email);
  const part = (await t.build.part({ name: 'Version part' })).id;
  await t.db
    .insertInto('client_dent_prices')
    .values({ client_id: client, part_id: part, ...DENT_PRICE_ROW })
    .execute();
  const group = (await t.build.panelGroup({ name: 'Version front' })).id;
  bonnet = (
    await t.db
      .insertInto('panels')
      .values({ panel_group_id: group, name: 'Bonnet', label: 'BONNET', position: 1, car_panel: 'bonnet', part_id: part })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});

describe('scan versions', () => {
  it('moves the version on with each vehicle edit and refuses an edit made from an older version, saying what changed', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: client, license_plate: 'VER001' })).id;
    const v = await scanVersion(anna, scan);
    expect(v).toBe(1);
    const first = await call(anna, 'PUT', `/api/scan/scans/${scan}`, { make: 'Mazda', version: v });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.version).toBe(v + 1);

    const before = await digest();
    const stale = await call(ben, 'PUT', `/api/scan/scans/${scan}`, { make: 'Toyota', model: 'Yaris', version: v });
    expect(stale.statusCode, stale.body).toBe(409);
    const body = stale.json();
    expect(body.error).toMatch(/^This scan was changed by Anna Lee at /);
    expect(body.conflict).toMatchObject({
      version: v + 1,
      saved_by: { id: annaId, name: 'Anna Lee' },
      changes: [{ field: 'make', value: 'Mazda' }],
    });
    expect(Date.parse(body.conflict.saved_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await digest()).toBe(before);

    const again = await call(ben, 'PUT', `/api/scan/scans/${scan}`, { model: 'Yaris', version: v + 1 });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ make: 'Mazda', model: 'Yaris', version: v + 2 });
  });

  it('names the saver in a conflict lost to a save made the same instant', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: client, license_plate: 'VER009' })).id;
    const v = await scanVersion(anna, scan);
    // Both saves wait on the row's lock from the same version; the one let through first wins.
    let saves: Promise<Awaited<ReturnType<typeof call>>[]> | undefined;
    await t.db.transaction().execute(async (trx) => {
      await sql`select 1 from scans where id = ${scan} for update`.execute(trx);
      saves = Promise.all([
        call(anna, 'PUT', `/api/scan/scans/${scan}`, { make: 'Mazda', version: v }),
        call(ben, 'PUT', `/api/scan/scans/${scan}`, { make: 'Toyota', version: v }),
      ]);
      for (let waited = 0; ; waited += 20) {
        const r = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
        if (r.rows[0].n >= 2) break;
        if (waited > 10_000) throw new Error('the two saves never both waited for the row');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    const replies = await saves!;
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const lost = replies.find((r) => r.statusCode === 409)!.json();
    const won = replies.find((r) => r.statusCode === 200)!.json().data as { make: string };
    const winner = won.make === 'Mazda' ? { id: annaId, name: 'Anna Lee' } : { name: expect.any(String) };
    expect(lost.conflict.saved_by).toMatchObject(winner);
    expect(lost.conflict.saved_by).not.toBeNull();
    expect(lost.error).toMatch(/^This scan was changed by \S/);
  });

  it('refuses a stale damage count edit and lists the counts that changed', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: client })).id;
    const v = await scanVersion(anna, scan);
    const url = '/api/scan/scans/arch/edit-damage-count';
    const ok = await call(anna, 'POST', url, { scan_id: scan, car_panel: 'bonnet', dents: { light: 3 }, version: v });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.version).toBeGreaterThan(v);

    const before = await digest();
    const stale = await call(ben, 'POST', url, { scan_id: scan, car_panel: 'bonnet', dents: { light: 5 }, version: v });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json().conflict.changes).toEqual([{ field: 'counts.bonnet.dents.light', value: 3 }]);
    expect(await digest()).toBe(before);
  });

  it('refuses a stale tyre choice; the scan read gives the version the choice made', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: client, type: 'tire' })).id;
    await t.build.tyre({ scan_id: scan, row: 1, direction: 'L', label: 'FRONT LEFT' });
    const v = await scanVersion(anna, scan);
    const url = `/api/scan/scans/${scan}/tyre-repairs`;
    expect((await call(anna, 'PUT', url, { row: 1, direction: 'L', repair_type: 'repair', version: v })).statusCode).toBe(200);
    expect(await scanVersion(anna, scan)).toBe(v + 1);

    const before = await digest();
    const stale = await call(ben, 'PUT', url, { row: 1, direction: 'L', repair_type: 'replace', version: v });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json().conflict.changes).toEqual([{ field: 'tyre_repairs.1L', value: 'repair' }]);
    expect(await digest()).toBe(before);
  });

  it('accepts an edit without a version (last save wins), and a device write moves the version too', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: client })).id;
    const v = await scanVersion(anna, scan);
    expect((await call(ben, 'PUT', `/api/scan/scans/${scan}`, { carColor: 'Red' })).json().data.version).toBe(v + 1);
    await sql`update scans set status = 'ready' where id = ${scan}`.execute(t.db);
    expect(await scanVersion(anna, scan)).toBe(v + 2);
    // A write that changes nothing the page shows keeps the version.
    await sql`update scans set updated_at = now() where id = ${scan}`.execute(t.db);
    expect(await scanVersion(anna, scan)).toBe(v + 2);
  });
});

describe('quote versions', () => {
  const quote = (scan: number, over: Record<string, unknown> = {}) => ({
    scan_id: scan,
    client_id: client,
    type: 'arch',
    items: { [bonnet]: { repair_type: 'pdr', category: 'light' } },
    vehicle_type: 'D',
    ...over,
  });

  it('creates at version 1, moves on with each save, and refuses a save made from an older version', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: client })).id;
    await sql`insert into scan_measures (scan_id, car_panel, type, level, count) values (${scan}, 'bonnet', 'dents', 'light', 2)`.execute(
      t.db,
    );
    const created = await call(anna, 'POST', '/api/quote/quotes', quote(scan, { version: 0 }));
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.version).toBe(1);
    const id = created.json().data.id as number;
    expect((await call(ben, 'GET', `/api/quote/quotes/${id}`)).json().data.version).toBe(1);

    // Ben also opened the scan before any quote existed: his first save is refused, and every line is news to him.
    let before = await digest();
    const late = await call(
      ben,
      'POST',
      '/api/quote/quotes',
      quote(scan, { version: 0, items: { [bonnet]: { repair_type: 'conventional' } } }),
    );
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json().conflict).toMatchObject({ version: 1, saved_by: { name: 'Anna Lee' } });
    expect(late.json().conflict.changes).toEqual(expect.arrayContaining([{ field: 'items.BONNET.repair_type', value: 'pdr' }]));
    expect(await digest()).toBe(before);

    const second = await call(
      anna,
      'POST',
      '/api/quote/quotes',
      quote(scan, { version: 1, items: { [bonnet]: { repair_type: 'conventional' } } }),
    );
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data).toMatchObject({ id, version: 2 });

    before = await digest();
    const stale = await call(ben, 'POST', '/api/quote/quotes', quote(scan, { version: 1, metallic: 1 }));
    expect(stale.statusCode, stale.body).toBe(409);
    const fields = (stale.json().conflict.changes as { field: string; value: unknown }[]).map((c) => c.field);
    expect(fields).toEqual(expect.arrayContaining(['items.BONNET.repair_type', 'grant_total']));
    expect(fields).not.toContain('metallic');
    expect(stale.json().conflict.changes).toEqual(expect.arrayContaining([{ field: 'items.BONNET.repair_type', value: 'conventional' }]));
    expect(await digest()).toBe(before);

    // Without a version the save is accepted (the last save wins), and the quote check flag moves the version too.
    expect((await call(ben, 'POST', '/api/quote/quotes', quote(scan))).json().data.version).toBe(3);
    const checked = await call(ben, 'PUT', `/api/quote/quotes/${id}/manual_check`, { manual_check: 1 });
    expect(checked.json().data.version).toBe(4);
  });
});

describe('editing presence', () => {
  it("signs a scan's editing channel and publishes presence only for users who may see the scan", async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: client })).id;
    const otherAgent = (await t.build.agent({ name: 'Version other agent', default_client_id: client })).id;
    const foreign = (await t.build.scan({ agent_id: otherAgent, client_id: client })).id;
    const auth = (channel: string) => call(anna, 'POST', '/api/broadcasting/auth', { socket_id: '123.456', channel_name: channel });
    expect((await auth(`private-editing.${scan}`)).statusCode).toBe(200);
    expect((await auth(`private-editing.${foreign}`)).statusCode).toBe(403);
    const here = await call(anna, 'POST', '/api/broadcasting/presence', { scan_id: scan, record: 'quote', state: 'here' });
    expect(here.statusCode, here.body).toBe(200);
    expect(here.json().data).toEqual({ channel: `private-editing.${scan}` });
    expect((await call(anna, 'POST', '/api/broadcasting/presence', { scan_id: foreign, record: 'quote', state: 'here' })).statusCode).toBe(
      404,
    );
    expect((await call(anna, 'POST', '/api/broadcasting/presence', { scan_id: scan, record: 'invoice', state: 'here' })).statusCode).toBe(
      422,
    );
  });

  it('takes presence only from an editor: a Client user, who reads the scan and its quote, is refused for both', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: client })).id;
    const reader = await t.login((await t.build.user({ roles: ['Client'], clients: [client] })).email);
    expect((await call(reader, 'GET', `/api/scan/scans/${scan}`)).statusCode).toBe(200);
    for (const record of ['scan', 'quote'])
      expect((await call(reader, 'POST', '/api/broadcasting/presence', { scan_id: scan, record, state: 'here' })).statusCode).toBe(403);
    expect((await call(anna, 'POST', '/api/broadcasting/presence', { scan_id: scan, record: 'scan', state: 'here' })).statusCode).toBe(200);
  });
});
