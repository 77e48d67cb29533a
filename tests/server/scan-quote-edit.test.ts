import fs from 'node:fs';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiRoute } from '../../server/plugins/auth';
import { createTestContext, formData, type Call, type TestContext } from './helper';
import { pngImage } from './image-fixtures';

/**
 * Viewing and changing: `scan` reads scans and quotes, `scan_edit` changes a scan and `quote_edit` its
 * quote. The Client role holds `scan` alone, so its users read the evidence and the estimate and change neither: every
 * write route of the scan and quote services answers them 403 and changes nothing (the access matrix calls each one).
 */
let t: TestContext;
let clientRole: string[];
let own: { agent: number; client: number };

const MIGRATION = new URL('../../server/db/migrations/020_scan_quote_edit.sql', import.meta.url);
/** Writes by verb that only read: searches, look-ups and price calculations (the access matrix holds them to `scan` or less). */
const READS = new Set([
  'POST /api/scan/scans/search',
  'POST /api/scan/license-plates/search',
  'POST /api/quote/quotes/search',
  'POST /api/quote/clients/calculate-category',
  'POST /api/quote/products/lists',
  'POST /api/quote/parts/lists',
  'POST /api/quote/panels/lists',
]);
const key = (r: ApiRoute) => `${r.method} ${r.url}`;
const isWrite = (r: ApiRoute) => r.method !== 'GET' && !READS.has(key(r));

async function rolePermissions(role: string) {
  const r = await sql<{ name: string }>`select p.name from roles r join role_permissions rp on rp.role_id = r.id
    join permissions p on p.id = rp.permission_id where r.name = ${role} order by p.name`.execute(t.db);
  return r.rows.map((row) => row.name);
}

/** The scan-page and quote tables' row counts and content digests, to show refused calls changed nothing. */
async function digest() {
  const tables = ['scans', 'scan_measures', 'scan_annotates', 'scan_files', 'scan_tyre_repairs', 'quotes', 'webhook_deliveries'];
  const parts = tables.map(
    (name) =>
      sql<{ d: string }>`select ${name}::text || count(*) || ':' || coalesce(sum(hashtextextended(x::text, 0)::numeric), 0) as d
        from ${sql.table(name)} x`,
  );
  return (await sql<{ d: string }>`${sql.join(parts, sql` union all `)}`.execute(t.db)).rows.map((r) => r.d).join('|');
}

beforeAll(async () => {
  t = await createTestContext();
  clientRole = await rolePermissions('Client');
  const client = (await t.build.client({ name: 'Viewing client' })).id;
  const agent = (await t.build.agent({ name: 'Viewing agent', default_client_id: client })).id;
  own = { agent, client };
});

describe('scan_edit and quote_edit', () => {
  it('are held by Super Admin and Agent, not by Client', async () => {
    expect(clientRole).toEqual(['dashboard_statistics', 'scan']);
    for (const role of ['Super Admin', 'Agent'])
      expect(await rolePermissions(role)).toEqual(expect.arrayContaining(['scan_edit', 'quote_edit']));
  });

  it('are listed by the roles screen like the others, and protected like the built-in ones', async () => {
    const admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
    const lists = await t.as(admin, { method: 'GET', url: '/api/user/permissions/lists' });
    for (const name of ['scan', 'scan_edit', 'quote_edit']) expect(lists.json()).toContainEqual({ text: name, value: name });
    const agentRole = await t.db.selectFrom('roles').select('id').where('name', '=', 'Agent').executeTakeFirstOrThrow();
    const role = await t.as(admin, { method: 'GET', url: `/api/user/roles/${agentRole.id}` });
    expect(role.json().data.permissions).toEqual(expect.arrayContaining(['scan', 'scan_edit', 'quote_edit']));
    const edit = await t.db.selectFrom('permissions').select('id').where('name', '=', 'scan_edit').executeTakeFirstOrThrow();
    expect((await t.as(admin, { method: 'DELETE', url: `/api/user/permissions/${edit.id}` })).statusCode).toBe(403);
  });

  it('guard every write route of the scan and quote services, so none is open to the Client role', () => {
    const writes = t.app.apiRoutes.filter((r) => /^\/api\/(scan|quote)\//.test(r.url) && isWrite(r));
    expect(writes.length).toBeGreaterThan(20);
    const open: string[] = [];
    for (const r of writes) {
      // The kiosk and the devices are no users: the portal creates scans for its own agent, a device for its key user's agents.
      if (r.access === 'portal' || r.access === 'device') continue;
      // The customer is no user either: an approval link's token alone answers its quote (approvals.test.ts).
      if (r.url === '/api/quote/approvals/:token') continue;
      if (typeof r.access !== 'object' || clientRole.includes(r.access.permission)) open.push(key(r));
      // The scans' and quotes' own changes need exactly their edit permission.
      else if (/^\/api\/scan\/scans/.test(r.url)) expect(r.access.permission, key(r)).toBe('scan_edit');
      else if (/^\/api\/quote\/quotes/.test(r.url)) expect(r.access.permission, key(r)).toBe('quote_edit');
    }
    expect(open, 'write routes a Client user may call').toEqual([]);
  });

  it('leave a user whose role holds scan alone reading a scan and its quote, and refuse every change with 403', async () => {
    const scan = (await t.build.scan({ agent_id: own.agent, client_id: own.client, make: 'Mazda' })).id;
    const quote = (await t.build.quote(scan)).id;
    const image = (await t.build.annotate({ scan_id: scan, vehicle_photo: true })).id;
    await t.build.tyre({ scan_id: scan });
    const reader = await t.login((await t.build.user({ roles: ['Client'], clients: [own.client] })).email);

    const reads: Call[] = [
      { method: 'GET', url: `/api/scan/scans/${scan}` },
      { method: 'GET', url: `/api/scan/scans/${scan}/evaluate` },
      { method: 'GET', url: `/api/scan/archData/search?scan_id=${scan}` },
      { method: 'POST', url: '/api/quote/quotes/search', payload: { scan_id: scan } },
      { method: 'GET', url: `/api/quote/quotes/${quote}` },
      { method: 'GET', url: '/api/quote/quotes/export-quote-report' },
    ];
    for (const call of reads) expect((await t.as(reader, call)).statusCode, `${call.method} ${call.url}`).toBe(200);

    const before = await digest();
    const png = await pngImage();
    const writes: Call[] = [
      { method: 'PUT', url: `/api/scan/scans/${scan}`, payload: { make: 'Kia', valuation: '1' } },
      { method: 'POST', url: '/api/scan/scans', payload: { agent_id: own.agent, client_id: own.client } },
      { method: 'POST', url: `/api/scan/scans/${scan}/refresh` },
      {
        method: 'POST',
        url: '/api/scan/scans/arch/edit-damage-count',
        payload: { scan_id: scan, car_panel: 'bonnet', dents: { light: 9 } },
      },
      {
        method: 'POST',
        url: `/api/scan/scans/${scan}/annotates`,
        ...(await formData({ file: { data: png, filename: 'a.png', type: 'image/png' } })),
      },
      { method: 'DELETE', url: `/api/scan/scans/${scan}/annotates/${image}` },
      { method: 'PUT', url: `/api/scan/scans/${scan}/tyre-repairs`, payload: { row: 1, direction: 'L', repair_type: 'replace' } },
      { method: 'POST', url: '/api/quote/quotes', payload: { scan_id: scan, client_id: own.client } },
      { method: 'PUT', url: `/api/quote/quotes/${quote}/manual_check`, payload: { manual_check: 1 } },
      { method: 'PUT', url: `/api/quote/quotes/${quote}/delete_vehicle_photo` },
      { method: 'DELETE', url: `/api/quote/quotes/${quote}` },
      { method: 'DELETE', url: `/api/scan/scans/${scan}` },
    ];
    for (const call of writes) {
      const res = await t.as(reader, call);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(res.json()).toEqual({ error: 'This action is unauthorized.' });
    }
    expect(await digest()).toBe(before);

    // The permissions, not the role, decide: the same scope given both changes the scan and the quote.
    const editor = await t.login(
      (await t.build.user({ roles: ['Client'], clients: [own.client], permissions: ['scan_edit', 'quote_edit'] })).email,
    );
    expect((await t.as(editor, { method: 'PUT', url: `/api/scan/scans/${scan}`, payload: { make: 'Kia' } })).json().data.make).toBe('Kia');
    const checked = await t.as(editor, { method: 'PUT', url: `/api/quote/quotes/${quote}/manual_check`, payload: { manual_check: 1 } });
    expect(checked.json().data.manual_check).toBe(1);
  });

  it('count only beside scan: a role holding scan_edit and quote_edit without it reads and changes nothing', async () => {
    const scan = (await t.build.scan({ agent_id: own.agent, client_id: own.client, make: 'Mazda' })).id;
    const quote = (await t.build.quote(scan)).id;
    const blind = await t.login((await t.build.user({ roles: [], agents: [own.agent], permissions: ['scan_edit', 'quote_edit'] })).email);
    const before = await digest();
    const calls: Call[] = [
      { method: 'GET', url: `/api/scan/scans/${scan}` },
      { method: 'PUT', url: `/api/scan/scans/${scan}`, payload: { make: 'Kia' } },
      { method: 'POST', url: '/api/scan/scans', payload: { agent_id: own.agent, client_id: own.client } },
      { method: 'POST', url: `/api/scan/scans/${scan}/refresh` },
      { method: 'POST', url: '/api/quote/quotes', payload: { scan_id: scan, client_id: own.client } },
      { method: 'PUT', url: `/api/quote/quotes/${quote}/manual_check`, payload: { manual_check: 1 } },
      { method: 'DELETE', url: `/api/scan/scans/${scan}` },
    ];
    for (const call of calls) expect((await t.as(blind, call)).statusCode, `${call.method} ${call.url}`).toBe(403);
    expect(await digest()).toBe(before);
  });

  it('are given by the migration to every role holding scan except Client, and to Super Admin', async () => {
    // The installation as it was before: both permissions gone, and two roles of its own.
    await sql`delete from permissions where name in ('scan_edit', 'quote_edit')`.execute(t.db);
    const role = async (name: string, permissions: string[]) => {
      const { id } = await t.db.insertInto('roles').values({ name }).returning('id').executeTakeFirstOrThrow();
      await sql`insert into role_permissions (role_id, permission_id) select ${id}, id from permissions
        where name = any(${permissions}::text[])`.execute(t.db);
    };
    await role('Fleet Assessor', ['scan', 'location']);
    await role('Site Manager', ['location', 'device']);
    await sql`delete from role_permissions where role_id = (select id from roles where name = 'Super Admin')
      and permission_id = (select id from permissions where name = 'scan')`.execute(t.db);

    await sql.raw(fs.readFileSync(MIGRATION, 'utf8')).execute(t.db);

    const edits = async (name: string) => (await rolePermissions(name)).filter((p) => p === 'scan_edit' || p === 'quote_edit');
    expect(await edits('Super Admin')).toEqual(['quote_edit', 'scan_edit']);
    expect(await edits('Agent')).toEqual(['quote_edit', 'scan_edit']);
    expect(await edits('Fleet Assessor')).toEqual(['quote_edit', 'scan_edit']);
    expect(await edits('Client')).toEqual([]);
    expect(await edits('Site Manager')).toEqual([]);
    // Run again (a permission someone already made by that name): nothing doubles, nothing fails.
    await sql.raw(fs.readFileSync(MIGRATION, 'utf8')).execute(t.db);
    expect(await edits('Agent')).toEqual(['quote_edit', 'scan_edit']);
  });
});
