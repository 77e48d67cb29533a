import { strFromU8, unzipSync } from 'fflate';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DataScope } from '../../src/domain/permissions';
import { readInBatches, removeExpiredReports } from '../../server/lib/report-file';
import { storageOf } from '../../server/lib/storage';
import { listVehicles, vehicleExportRows } from '../../server/services/scan/vehicles-repository';
import { linkScanVehicle } from '../../server/services/scan/vehicles-service';
import { createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
let agentUser: string;
let agentA: { id: number };
let agentB: { id: number };

const URL_PATH = '/api/scan/vehicles/export-vehicle-report';

/** A scan of `agent` linked to its vehicle, as ingestion links it. */
async function scanned(agent: number, plate: string, at: string, make: string | null, model: string | null = null) {
  const scan = await t.build.scan({ agent_id: agent, license_plate: plate, make, model, scanned_at: at });
  await linkScanVehicle(t.db, scan.id);
  return scan.id;
}

/** Runs the export and downloads the file it names, as the browser does. */
async function exportFile(token: string, query = '') {
  const res = await t.as(token, { method: 'GET', url: `${URL_PATH}${query ? `?${query}` : ''}` });
  expect(res.statusCode, res.body).toBe(200);
  const { url } = res.json().data as { url: string };
  expect(url).toMatch(/^\/api\/user\/files\/[0-9a-f]{32}\.(csv|xlsx)\?expires=\d+&uid=\d+&sig=[\w-]{43}$/);
  const file = await t.app.inject({ method: 'GET', url });
  expect(file.statusCode).toBe(200);
  return { url, file };
}

async function exportCsv(token: string, query = '') {
  const { file } = await exportFile(token, query);
  expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(file.body.startsWith('\uFEFF')).toBe(true);
  const lines = file.body.slice(1).split('\r\n').filter(Boolean);
  return { header: lines[0], rows: lines.slice(1) };
}
const platesOf = (rows: string[]) => rows.map((r) => r.split(',')[0]);

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  agentA = await t.build.agent({ name: 'Vehicle export agent A' });
  agentB = await t.build.agent({ name: 'Vehicle export agent B' });
  // Melbourne is UTC+10 in May.
  await scanned(agentA.id, 'VXA111', '2024-05-10T00:00:00Z', 'Toyota', 'Corolla');
  await scanned(agentA.id, 'VXA111', '2024-05-20T05:15:00Z', 'Toyota', 'Corolla');
  await scanned(agentA.id, 'VXA222', '2024-05-11T00:00:00Z', '=HYPERLINK("http://evil.test")');
  await scanned(agentB.id, 'VXB111', '2024-05-12T00:00:00Z', null);
  await scanned(agentB.id, 'VXB222', '2024-05-13T00:00:00Z', 'Kia, "Rio"');
  agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA.id] })).email);
});

describe('the vehicles export', () => {
  it('writes every searched vehicle, last seen first, under the list’s headings with Melbourne times', async () => {
    const { header, rows } = await exportCsv(admin, 'q=vx');
    expect(header).toBe('Registration,State,Make,Model,VIN,First Seen,Last Seen');
    expect(platesOf(rows)).toEqual(['VXA111', 'VXB222', 'VXB111', 'VXA222']);
    expect(rows[0]).toBe('VXA111,,Toyota,Corolla,,10-05-2024 10:00 AM,20-05-2024 03:15 PM');
    // A cell a spreadsheet would run as a formula is neutralised; quotes and commas are escaped.
    expect(rows[3]).toContain(`,"'=HYPERLINK(""http://evil.test"")",`);
    expect(rows[1]).toContain(',"Kia, ""Rio""",');
  });

  it('follows the list’s order, empty values last either way, and its search', async () => {
    expect(platesOf((await exportCsv(admin, 'q=vx&sort=registration&order=asc')).rows)).toEqual(['VXA111', 'VXA222', 'VXB111', 'VXB222']);
    expect(platesOf((await exportCsv(admin, 'q=vx&sort=make&order=asc')).rows)).toEqual(['VXA222', 'VXB222', 'VXA111', 'VXB111']);
    expect(platesOf((await exportCsv(admin, 'q=vx&sort=make&order=desc')).rows)).toEqual(['VXA111', 'VXB222', 'VXA222', 'VXB111']);
    expect(platesOf((await exportCsv(admin, 'q=vxb&page=3&per_page=1')).rows)).toEqual(['VXB222', 'VXB111']);
  });

  it('reads batches through its cursor that give the list’s order, ties and empty values included', async () => {
    // Both ways of reading: the stored vehicles (unrestricted) and the facts of the scans in a narrower scope.
    for (const scope of [
      { agents: null, clients: null },
      { agents: [agentA.id, agentB.id], clients: null },
    ] satisfies DataScope[])
      for (const sort of ['registration', 'make', 'model', 'first_seen', 'last_seen'] as const)
        for (const order of ['asc', 'desc'] as const) {
          const query = { q: 'VX', sort, order };
          const listed = (await listVehicles(t.db, scope, { ...query, page: 1, per_page: 100 })).items.map((v) => v.id);
          const read = await readInBatches(
            t.db,
            vehicleExportRows(scope, query),
            async (batches) => {
              const ids: number[][] = [];
              for await (const batch of batches) ids.push(batch.map((v) => v.id));
              return ids;
            },
            1,
          );
          // One vehicle a batch, every vehicle once.
          expect(read.flat(), `${sort} ${order} ${JSON.stringify(scope)}`).toEqual(listed);
          expect(read.every((batch) => batch.length === 1)).toBe(true);
        }
  });

  it('reads one snapshot: a vehicle first seen while the file is being written is not in it', async () => {
    const query = { q: 'VXA', sort: 'registration', order: 'asc' } as const;
    let added: number | null = null;
    const read = await readInBatches(
      t.db,
      vehicleExportRows({ agents: null, clients: null }, query),
      async (batches) => {
        const plates: (string | null)[] = [];
        for await (const batch of batches) {
          plates.push(...batch.map((v) => v.registration));
          added ??= await scanned(agentA.id, 'VXA999', '2024-05-14T00:00:00Z', 'Mazda');
        }
        return plates;
      },
      1,
    );
    expect(read).toEqual(['VXA111', 'VXA222']);
    // The next export has it.
    expect(platesOf((await exportCsv(admin, 'q=vxa&sort=registration&order=asc')).rows)).toEqual(['VXA111', 'VXA222', 'VXA999']);
    await sql`delete from scans where id = ${added}`.execute(t.db);
    await sql`delete from vehicles where registration = 'VXA999'`.execute(t.db);
  });

  it('holds only the vehicles of an Agent user’s scans', async () => {
    expect(platesOf((await exportCsv(agentUser, 'q=vx')).rows)).toEqual(['VXA111', 'VXA222']);
    // The header selection cannot widen it.
    const res = await t.as(agentUser, { method: 'GET', url: `${URL_PATH}?q=vx`, headers: { x_sng_agents: String(agentB.id) } });
    const file = await t.app.inject({ method: 'GET', url: res.json().data.url });
    expect(file.body).not.toContain('VXB');
  });

  it('writes a sheet in Japanese with real date cells when asked', async () => {
    const { url, file } = await exportFile(admin, 'q=vxa1&format=xlsx&lang=ja');
    expect(url).toMatch(/\.xlsx\?/);
    expect(file.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const zip = unzipSync(new Uint8Array(file.rawPayload));
    expect(strFromU8(zip['xl/workbook.xml'])).toContain('name="車両"');
    expect(strFromU8(zip['xl/sharedStrings.xml'])).toContain('初回スキャン');
    const sheet = strFromU8(zip['xl/worksheets/sheet1.xml']);
    expect(sheet.match(/<row[ >]/g)).toHaveLength(2);
    // 10-05-2024 10:00 AM in Melbourne as an Excel serial date (days since 1899-12-30).
    const serial = Date.UTC(2024, 4, 10, 10, 0) / 86_400_000 + 25_569;
    expect(sheet).toContain(`<v>${serial}</v>`);
    // Formatted as the Japanese screen writes a date: year first, 午前/午後 before the time.
    expect(strFromU8(zip['xl/styles.xml'])).toContain('[$-411]yyyy-mm-dd AM/PM hh:mm');
    const csv = await exportCsv(admin, 'q=vxa1&lang=ja');
    expect(csv.rows).toEqual(['VXA111,,Toyota,Corolla,,2024-05-10 午前 10:00,2024-05-20 午後 03:15']);
  });

  it('refuses a bad format, order or language, stores nothing, and needs `scan`', async () => {
    const count = async () => (await sql<{ n: number }>`select count(*)::int as n from vehicle_exports`.execute(t.db)).rows[0].n;
    const before = await count();
    for (const [query, error] of [
      ['format=pdf', { format: 'Format must be csv or xlsx' }],
      ['sort=vin', { sort: 'The selected sort is invalid' }],
      ['lang=fr', { lang: 'Lang must be en or ja' }],
    ] as const) {
      const res = await t.as(admin, { method: 'GET', url: `${URL_PATH}?${query}` });
      expect([res.statusCode, res.json()]).toEqual([422, { error }]);
    }
    expect(await count()).toBe(before);
    const noScan = await t.login((await t.build.user({ permissions: ['location'] })).email);
    expect((await t.as(noScan, { method: 'GET', url: URL_PATH })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: URL_PATH })).statusCode).toBe(401);
  });

  it('removes its files a day after they were made, and keeps newer ones', async () => {
    const old = (await exportFile(admin)).url;
    const fresh = (await exportFile(admin)).url;
    const keyOf = (url: string) => url.slice(url.lastIndexOf('/') + 1, url.indexOf('?'));
    await sql`update vehicle_exports set created_at = now() - interval '25 hours' where key = ${keyOf(old)}`.execute(t.db);
    expect(await removeExpiredReports('vehicle_exports', t.db, storageOf(t.app))).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: old })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: fresh })).statusCode).toBe(200);
  });
});
