import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { quoteSaving } from '../../server/services/quote/quotes-service';
import { quoteBody } from '../../src/domain/quotes';
import { createTestContext, type TestContext } from './helper';

/**
 * The history of scans and quotes (the `events` table): append-only in the database, written in the write's
 * transaction, read back scoped by the agent and client the subject had at each event, and exported as CSV.
 * (That every write route leaves exactly one event is checked by the access matrix.)
 */
let t: TestContext;
let admin: string;
let adminId: number;
let agent: number;
let mine: number;
let other: number;

const events = (kind: 'scan' | 'quote', id: number) =>
  t.db.selectFrom('events').selectAll().where('subject_kind', '=', kind).where('subject_id', '=', id).orderBy('id').execute();

beforeAll(async () => {
  t = await createTestContext();
  mine = (await t.build.client({ name: 'History mine' })).id;
  other = (await t.build.client({ name: 'History other' })).id;
  agent = (await t.build.agent({ default_client_id: mine })).id;
  const user = await t.build.user({ roles: ['Super Admin'] });
  adminId = user.id;
  await t.db.updateTable('users').set({ first_name: 'Ada', last_name: 'Admin' }).where('id', '=', user.id).execute();
  admin = await t.login(user.email);
});

describe('the events table', () => {
  it('refuses UPDATE, DELETE and TRUNCATE, whoever asks', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: mine })).id;
    expect((await t.as(admin, { method: 'PUT', url: `/api/scan/scans/${scan}`, payload: { make: 'Kia' } })).statusCode).toBe(200);
    const [event] = await events('scan', scan);
    await expect(sql`update events set action = 'scan.forged' where id = ${event.id}`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from events where id = ${event.id}`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate events`.execute(t.db)).rejects.toThrow(/append-only/);
    expect(await events('scan', scan)).toEqual([event]);
  });
});

describe('recording', () => {
  it('records nothing, and keeps the version, when an edit changes no value', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: mine, make: 'Kia', model: null })).id;
    await t.db.updateTable('scans').set({ valuation: 18500 }).where('id', '=', scan).execute();
    const version = async () => (await t.db.selectFrom('scans').select('version').where('id', '=', scan).executeTakeFirstOrThrow()).version;
    const before = await version();
    for (const payload of [{}, { status: 'ready' }, { make: 'Kia', model: null, valuation: '18,500' }, { model: '', client_id: mine }]) {
      const res = await t.as(admin, { method: 'PUT', url: `/api/scan/scans/${scan}`, payload });
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(200);
    }
    expect(await events('scan', scan)).toEqual([]);
    expect(await version()).toBe(before);
  });

  it('keeps who acted and only the changed fields, before and after', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: mine, make: 'Kia', model: 'Rio' })).id;
    const res = await t.as(admin, { method: 'PUT', url: `/api/scan/scans/${scan}`, payload: { make: 'Kia', valuation: '12,500' } });
    expect(res.statusCode, res.body).toBe(200);
    const [event] = await events('scan', scan);
    expect(event).toMatchObject({
      action: 'scan.updated',
      actor_id: adminId,
      actor_name: 'Ada Admin',
      admin_id: null,
      agent_id: agent,
      client_id: mine,
      before: { valuation: null },
      after: { valuation: 12500 },
    });
  });

  it('keeps a damage count edit as the panel level and the totals before and after', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: mine })).id;
    await t.build.panel({ panel_group_id: (await t.build.panelGroup()).id, car_panel: 'history_bonnet' });
    const edit = (dents: number) =>
      t.as(admin, {
        method: 'POST',
        url: '/api/scan/scans/arch/edit-damage-count',
        payload: { scan_id: scan, car_panel: 'history_bonnet', dents: { light: dents } },
      });
    expect((await edit(2)).statusCode).toBe(200);
    expect((await edit(5)).statusCode).toBe(200);
    const [, second] = await events('scan', scan);
    expect(second).toMatchObject({
      action: 'scan.counts_changed',
      before: { 'history_bonnet.dents.light': 2, dentCount: 2 },
      after: { 'history_bonnet.dents.light': 5, dentCount: 5 },
    });
  });

  it('records nothing, and keeps the version, when the counts are saved as they were', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: mine })).id;
    await t.build.panel({ panel_group_id: (await t.build.panelGroup()).id, car_panel: 'history_door' });
    const edit = () =>
      t.as(admin, {
        method: 'POST',
        url: '/api/scan/scans/arch/edit-damage-count',
        payload: { scan_id: scan, car_panel: 'history_door', dents: { light: 3 } },
      });
    const first = await edit();
    expect(first.statusCode).toBe(200);
    const again = await edit();
    expect(again.statusCode, again.body).toBe(200);
    expect(first.json().data.version).toEqual(expect.any(Number));
    expect(again.json().data.version).toBe(first.json().data.version);
    expect((await events('scan', scan)).map((e) => e.action)).toEqual(['scan.counts_changed']);
  });

  it('names the Super Admin behind an impersonation', async () => {
    const agentUser = await t.build.user({ roles: ['Agent'], agents: [agent] });
    const take = await t.as(admin, { method: 'GET', url: `/api/user/auth/impersonate/take/${agentUser.id}` });
    expect(take.statusCode, take.body).toBe(200);
    const scan = (await t.build.scan({ agent_id: agent, client_id: mine })).id;
    const token = take.json().data.token as string;
    expect((await t.as(token, { method: 'PUT', url: `/api/scan/scans/${scan}`, payload: { model: 'Cerato' } })).statusCode).toBe(200);
    const [event] = await events('scan', scan);
    expect(event).toMatchObject({ actor_id: agentUser.id, admin_id: adminId });
    const history = await t.as(admin, { method: 'GET', url: `/api/scan/scans/${scan}/history` });
    expect(history.json().data[0]).toMatchObject({ actor_name: 'Test User', admin_name: 'Ada Admin', after: { model: 'Cerato' } });
  });

  it('leaves no event when the write rolls back at commit', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: mine })).id;
    await t.build.panel({ panel_group_id: (await t.build.panelGroup()).id, car_panel: 'history_roof' });
    // A check deferred to the commit: everything the transaction wrote before it, the event included, is undone.
    await sql`create function history_refuse() returns trigger language plpgsql as $$
      begin raise exception 'refused at commit'; end $$`.execute(t.db);
    await sql`create constraint trigger history_refuse after insert on scan_measures deferrable initially deferred
      for each row execute function history_refuse()`.execute(t.db);
    try {
      const res = await t.as(admin, {
        method: 'POST',
        url: '/api/scan/scans/arch/edit-damage-count',
        payload: { scan_id: scan, car_panel: 'history_roof', dents: { light: 1 } },
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await sql`drop trigger history_refuse on scan_measures`.execute(t.db);
    }
    expect(await events('scan', scan)).toEqual([]);
  });

  it('leaves no event of a quote save that fails after recording it', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: mine })).id;
    const save = quoteSaving({
      db: t.db,
      storage: t.app.storage,
      enqueue: () => Promise.reject(new Error('outbox down')),
    });
    const caller = { actor: null, scope: { agents: null, clients: null }, log: { warn() {}, error() {} } };
    await expect(save(caller, quoteBody.parse({ scan_id: scan, client_id: mine }))).rejects.toThrow('outbox down');
    expect((await sql`select id from quotes where scan_id = ${scan}`.execute(t.db)).rows).toEqual([]);
    expect(
      await t.db.selectFrom('events').select('id').where('subject_kind', '=', 'quote').where('agent_id', '=', agent).execute(),
    ).toEqual([]);
  });

  it('records a quote created, then re-saved, with its changed totals and choices', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: mine })).id;
    const save = (body: object) =>
      t.as(admin, { method: 'POST', url: '/api/quote/quotes', payload: { scan_id: scan, client_id: mine, ...body } });
    const first = await save({});
    expect(first.statusCode, first.body).toBe(201);
    const id = first.json().data.id as number;
    expect((await save({ manual_check: 1 })).statusCode).toBe(200);
    const history = await t.as(admin, { method: 'GET', url: `/api/quote/quotes/${id}/history` });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().data.map((e: { action: string }) => e.action)).toEqual(['quote.created', 'quote.saved']);
    expect(history.json().data[1]).toMatchObject({ before: { manual_check: false }, after: { manual_check: true } });

    // Products (with their prices) and parts are choices too.
    const wax = await t.build.product({ name: 'Wax' });
    const resaved = await save({ manual_check: 1, products: [{ value: wax.id, price: 12.5 }], parts: ['Clip'] });
    expect(resaved.statusCode, resaved.body).toBe(200);
    const last = (await t.as(admin, { method: 'GET', url: `/api/quote/quotes/${id}/history` })).json().data.at(-1);
    expect(last).toMatchObject({
      before: { products: null, parts: null, product: 0 },
      after: { products: 'Wax $12.50', parts: 'Clip', product: 12.5 },
    });
  });
});

describe('GET scans/{id}/history', () => {
  it('shows a Client user only the events of the times the scan was theirs', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: other })).id;
    const put = (payload: object) => t.as(admin, { method: 'PUT', url: `/api/scan/scans/${scan}`, payload });
    expect((await put({ make: 'Mazda' })).statusCode).toBe(200);
    expect((await put({ client_id: mine })).statusCode).toBe(200);
    expect((await put({ model: 'CX-5' })).statusCode).toBe(200);

    const read = async (token: string) => {
      const res = await t.as(token, { method: 'GET', url: `/api/scan/scans/${scan}/history` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((e: { action: string }) => e.action);
    };
    const clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [mine] })).email);
    const agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agent] })).email);
    expect(await read(admin)).toEqual(['scan.updated', 'scan.client_changed', 'scan.updated']);
    expect(await read(agentUser)).toEqual(['scan.updated', 'scan.client_changed', 'scan.updated']);
    expect(await read(clientUser)).toEqual(['scan.client_changed', 'scan.updated']);
    const [moved] = (await t.as(admin, { method: 'GET', url: `/api/scan/scans/${scan}/history` })).json().data.slice(1);
    expect(moved).toMatchObject({
      before: { client_id: other, client_name: 'History other' },
      after: { client_id: mine, client_name: 'History mine' },
    });
    // The client it came to sees that it came, not from whom: another client's id and name are left out.
    const [arrived] = (await t.as(clientUser, { method: 'GET', url: `/api/scan/scans/${scan}/history` })).json().data;
    expect(arrived).toMatchObject({
      action: 'scan.client_changed',
      before: { client_id: null, client_name: null },
      after: { client_id: mine, client_name: 'History mine' },
    });
    const csv = await t.as(clientUser, { method: 'GET', url: `/api/scan/scans/${scan}/history?format=csv` });
    expect(csv.body).not.toContain('History other');

    const otherClientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [other] })).email);
    const refused = await t.as(otherClientUser, { method: 'GET', url: `/api/scan/scans/${scan}/history` });
    expect(refused.statusCode).toBe(404);
  });

  it('sends the history as CSV with format=csv: one row per changed field, Melbourne times', async () => {
    const scan = (await t.build.scan({ agent_id: agent, client_id: mine, make: 'Kia' })).id;
    expect(
      (await t.as(admin, { method: 'PUT', url: `/api/scan/scans/${scan}`, payload: { make: '=Evil', valuation: 9000 } })).statusCode,
    ).toBe(200);
    const [event] = await events('scan', scan);
    const res = await t.as(admin, { method: 'GET', url: `/api/scan/scans/${scan}/history?format=csv` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="scan-${scan}-history.csv"`);
    // Who changed what: for the reader only, never kept by a cache.
    expect(res.headers['cache-control']).toBe('private, no-store');
    const at = new Intl.DateTimeFormat('en-AU', { timeZone: 'Australia/Melbourne', day: '2-digit', month: '2-digit', year: 'numeric' })
      .format(event.at)
      .replace(/\//g, '-');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('\uFEFFDate/Time,User,Acting Admin,Action,Field,Before,After');
    expect(lines[1]).toMatch(new RegExp(`^${at} \\d\\d:\\d\\d [AP]M,Ada Admin,,scan.updated,make,Kia,'=Evil$`));
    expect(lines[2]).toMatch(/,Ada Admin,,scan\.updated,valuation,,9000$/);
    expect(lines).toHaveLength(4);
  });
});
