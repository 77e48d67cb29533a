import { unzipSync, strFromU8 } from 'fflate';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { FILE_LINK_MINUTES, signedFileUrl, storageOf } from '../../server/lib/storage';
import { removeExpiredReports } from '../../server/lib/report-file';
import { createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
let agentUser: string;
let clientUser: string;
let agentA: { id: number; name: string };
let agentB: { id: number; name: string };
let clientX: { id: number; name: string };
let clientY: { id: number; name: string };

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  clientX = await t.build.client({ name: 'Export client X' });
  clientY = await t.build.client({ name: 'Export client Y, "quoted"' });
  agentA = await t.build.agent({ name: 'Export agent A', default_client_id: clientX.id });
  agentB = await t.build.agent({ name: 'Export agent B', default_client_id: clientY.id });
  const siteA = await t.build.location({ name: 'Export site A', agent_id: agentA.id });
  const siteB = await t.build.location({ name: 'Export site B', agent_id: agentB.id });
  // Melbourne is UTC+10 in May.
  await t.build.scan({
    agent_id: agentA.id,
    client_id: clientX.id,
    location_id: siteA.id,
    license_plate: 'AAA111',
    make: 'Toyota',
    model: 'Corolla',
    car_color: 'Silver',
    scanned_at: '2024-05-10T00:00:00Z',
  });
  await t.build.scan({
    agent_id: agentA.id,
    client_id: clientY.id,
    location_id: siteA.id,
    license_plate: 'AAA222',
    make: '=HYPERLINK("http://evil.test")',
    status: 'ready',
    scanned_at: '2024-05-10T05:15:00Z',
  });
  await t.build.scan({
    agent_id: agentB.id,
    client_id: clientY.id,
    location_id: siteB.id,
    license_plate: 'BBB111',
    make: 'Ford',
    scanned_at: '2024-05-11T00:00:00Z',
  });
  await t.build.scan({
    agent_id: agentB.id,
    client_id: clientX.id,
    location_id: siteB.id,
    license_plate: 'BBB222',
    make: 'Kia',
    scanned_at: '2024-05-12T00:00:00Z',
  });
  agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA.id] })).email);
  clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [clientX.id] })).email);
});

/** Runs the export and downloads the file it names, as the browser does. */
async function exportCsv(token: string, query = '', headers: Record<string, string> = {}) {
  const res = await t.as(token, { method: 'GET', url: `/api/scan/scans/export-scan-report${query ? `?${query}` : ''}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  const { url } = res.json().data as { url: string };
  expect(url).toMatch(/^\/api\/user\/files\/[0-9a-f]{32}\.csv\?expires=\d+&uid=\d+&sig=[\w-]{43}$/);
  const file = await t.app.inject({ method: 'GET', url });
  expect(file.statusCode).toBe(200);
  expect(file.headers['cache-control']).toBe('private, no-store');
  expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(file.body.startsWith('\uFEFF')).toBe(true);
  const lines = file.body.slice(1).split('\r\n').filter(Boolean);
  return { header: lines[0], rows: lines.slice(1) };
}
const plates = (rows: string[]) => rows.map((r) => /,(AAA\d{3}|BBB\d{3}),/.exec(r)?.[1]).sort();

describe('the scan export', () => {
  it('writes every scan of a Super Admin, newest first, with the list columns and Melbourne times', async () => {
    const { header, rows } = await exportCsv(admin);
    expect(header).toBe(
      'ID,Scan ID,Date/Time,Registration,Make,Model,Car Color,Body Type,Valuation,Location,Location State,Client,Agent,Type,Status,Dents,Scratches,New Damage',
    );
    expect(rows).toHaveLength(4);
    expect(rows[3]).toMatch(
      /^\d+,scan-[\w-]+,10-05-2024 10:00 AM,AAA111,Toyota,Corolla,Silver,,,Export site A,,Export client X,Export agent A,Arch,Uploaded,0,0,0$/,
    );
    expect(rows[2]).toContain(',10-05-2024 03:15 PM,AAA222,');
    // A cell a spreadsheet would run as a formula is neutralised; quotes and commas are escaped.
    expect(rows[2]).toContain(`,"'=HYPERLINK(""http://evil.test"")",`);
    expect(rows[2]).toContain(',"Export client Y, ""quoted""",');
    expect(rows[2]).toContain(',Ready,');
  });

  it('is written in Japanese when asked from the Japanese screen, CSV and XLSX; an unknown language is refused', async () => {
    const { header, rows } = await exportCsv(admin, 'lang=ja');
    expect(header).toBe(
      'ID,スキャンID,日時,登録番号,メーカー,モデル,車体色,ボディタイプ,評価額,ロケーション,所在州,クライアント,エージェント,種別,ステータス,へこみ,傷,新しい損傷',
    );
    expect(rows[3]).toMatch(/,Export client X,Export agent A,アーチ,アップロード済み,0,0,0$/);
    // Dates as the Japanese screen writes them: year first, 午前/午後 before the time.
    expect(rows[3]).toContain(',2024-05-10 午前 10:00,AAA111,');
    expect(rows[2]).toContain(',2024-05-10 午後 03:15,AAA222,');
    expect(rows[2]).toContain(',準備完了,');
    const xlsx = await t.as(admin, { method: 'GET', url: '/api/scan/scans/export-scan-report?format=xlsx&lang=ja' });
    const zip = unzipSync(new Uint8Array((await t.app.inject({ method: 'GET', url: xlsx.json().data.url })).rawPayload));
    expect(strFromU8(zip['xl/workbook.xml'])).toContain('name="スキャン"');
    expect(strFromU8(zip['xl/sharedStrings.xml'])).toContain('スキャンID');
    // The date cells' format writes the year first and the meridiem in Japanese.
    expect(strFromU8(zip['xl/styles.xml'])).toContain('[$-411]yyyy-mm-dd AM/PM hh:mm');
    const bad = await t.as(admin, { method: 'GET', url: '/api/scan/scans/export-scan-report?lang=fr' });
    expect([bad.statusCode, bad.json().error]).toEqual([422, { lang: 'Lang must be en or ja' }]);
  });

  it("holds only an Agent user's agents' scans, and a Client user's clients'", async () => {
    expect(plates((await exportCsv(agentUser)).rows)).toEqual(['AAA111', 'AAA222']);
    expect(plates((await exportCsv(clientUser)).rows)).toEqual(['AAA111', 'BBB222']);
    // Filters and the header selection cannot widen it.
    expect(plates((await exportCsv(agentUser, `agent_id=${agentB.id}`)).rows)).toEqual([]);
    expect(plates((await exportCsv(agentUser, '', { x_sng_agents: String(agentB.id) })).rows)).toEqual([]);
  });

  it('applies the list filters', async () => {
    expect(plates((await exportCsv(admin, 'status=ready')).rows)).toEqual(['AAA222']);
    expect(plates((await exportCsv(admin, `agent_id=${agentB.id}`)).rows)).toEqual(['BBB111', 'BBB222']);
    expect(plates((await exportCsv(admin, 'ts=2024-05-11&te=2024-05-11')).rows)).toEqual(['BBB111']);
    expect(plates((await exportCsv(admin, 'q=bbb2&page=3&per_page=10')).rows)).toEqual(['BBB222']);
    expect(plates((await exportCsv(admin, `client_id=${clientX.id}`, { x_sng_agents: String(agentA.id) })).rows)).toEqual(['AAA111']);
  });

  it('answers 422 on a bad filter, 403 without `scan`, 401 without a token', async () => {
    const bad = await t.as(admin, { method: 'GET', url: '/api/scan/scans/export-scan-report?ts=31-05-2024' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: { ts: 'Start date must be a date like 2024-05-31 or 2024-05-31 17:30:00' } });
    const noScan = await t.login((await t.build.user({ permissions: ['location'] })).email);
    expect((await t.as(noScan, { method: 'GET', url: '/api/scan/scans/export-scan-report' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/scan/scans/export-scan-report' })).statusCode).toBe(401);
  });

  it('reads in batches across the whole result (more rows than one batch)', async () => {
    const agentC = await t.build.agent({ name: 'Export agent C' });
    await t.db
      .insertInto('scans')
      .values(
        Array.from({ length: 5_050 }, (_, i) => ({
          scan_id: `bulk-${i}`,
          agent_id: agentC.id,
          type: 'arch',
          status: 'uploaded',
          // Two rows share each timestamp: the order breaks ties by id.
          scanned_at: new Date(Date.UTC(2024, 0, 1) + Math.floor(i / 2) * 60_000),
        })),
      )
      .execute();
    const { rows } = await exportCsv(admin, `agent_id=${agentC.id}`);
    expect(rows).toHaveLength(5_050);
    expect(new Set(rows.map((r) => r.split(',')[0])).size).toBe(5_050);
  });
  it('writes an XLSX of the same scans: bold sticky header, real Melbourne date cells, text never run as a formula', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/scan/scans/export-scan-report?format=xlsx&agent_id=' + agentA.id });
    expect(res.statusCode, res.body).toBe(200);
    const { url } = res.json().data as { url: string };
    expect(url).toMatch(/^\/api\/user\/files\/[0-9a-f]{32}\.xlsx\?expires=\d+&uid=\d+&sig=[\w-]{43}$/);
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const zip = unzipSync(new Uint8Array(file.rawPayload));
    const sheet = strFromU8(zip['xl/worksheets/sheet1.xml']);
    const text = Object.entries(zip)
      .filter(([name]) => name.endsWith('.xml'))
      .map(([, bytes]) => strFromU8(bytes))
      .join('\n');
    // The header and the two scans of agent A.
    expect(sheet.match(/<row[ >]/g)).toHaveLength(3);
    for (const title of ['Registration', 'Date/Time', 'Scratches', 'AAA111', 'AAA222', 'Export agent A', 'Export client Y, "quoted"'])
      expect(text).toContain(title);
    expect(text).not.toContain('BBB111');
    // Stored as text, so a spreadsheet shows it and never evaluates it.
    expect(text).toContain('<t>=HYPERLINK("http://evil.test")</t>');
    expect(sheet).not.toMatch(/<f[ >]/);
    // 10-05-2024 10:00 AM in Melbourne as an Excel serial date (days since 1899-12-30), formatted day first.
    const serial = Date.UTC(2024, 4, 10, 10, 0) / 86_400_000 + 25_569;
    expect(sheet).toContain(`<v>${serial}</v>`);
    expect(text).toContain('dd-mm-yyyy hh:mm AM/PM');
    expect(sheet).toContain('state="frozen"');

    const agentsOnly = await t.as(agentUser, { method: 'GET', url: '/api/scan/scans/export-scan-report?format=xlsx' });
    const agentZip = unzipSync(new Uint8Array((await t.app.inject({ method: 'GET', url: agentsOnly.json().data.url })).rawPayload));
    const agentText = Object.values(agentZip)
      .map((b) => strFromU8(b))
      .join('\n');
    expect(agentText).toContain('AAA111');
    expect(agentText).not.toContain('BBB222');
  });

  it('refuses an unknown format with 422 naming it, and stores nothing', async () => {
    const before = (await sql<{ n: number }>`select count(*)::int as n from scan_exports`.execute(t.db)).rows[0].n;
    const res = await t.as(admin, { method: 'GET', url: '/api/scan/scans/export-scan-report?format=pdf' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { format: 'Format must be csv or xlsx' } });
    expect((await sql<{ n: number }>`select count(*)::int as n from scan_exports`.execute(t.db)).rows[0].n).toBe(before);
  });

  it('removes export files a day after they were made, and keeps newer ones', async () => {
    const make = async () => (await t.as(admin, { method: 'GET', url: '/api/scan/scans/export-scan-report' })).json().data.url as string;
    const old = await make();
    const fresh = await make();
    const keyOf = (url: string) => url.slice(url.lastIndexOf('/') + 1, url.indexOf('?'));
    await sql`update scan_exports set created_at = now() - interval '25 hours' where key = ${keyOf(old)}`.execute(t.db);
    expect(await removeExpiredReports('scan_exports', t.db, storageOf(t.app))).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: old })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: fresh })).statusCode).toBe(200);
    const rows = (await sql<{ key: string; format: string; rows: number }>`select key, format, rows from scan_exports`.execute(t.db)).rows;
    expect(rows.map((r) => r.key)).not.toContain(keyOf(old));
    expect(rows.find((r) => r.key === keyOf(fresh))).toMatchObject({ format: 'csv', rows: expect.any(Number) });
  });
  it('sends the file as an attachment under the name the browser asks for, checked', async () => {
    const url = (await t.as(admin, { method: 'GET', url: '/api/scan/scans/export-scan-report' })).json().data.url as string;
    expect((await t.app.inject({ method: 'GET', url })).headers['content-disposition']).toMatch(/^inline; filename="[0-9a-f]{32}\.csv"$/);
    const named = await t.app.inject({ method: 'GET', url: `${url}&download=scans-20240531-1730.csv` });
    expect(named.statusCode).toBe(200);
    expect(named.headers['content-disposition']).toBe('attachment; filename="scans-20240531-1730.csv"');
    const quoted = await t.app.inject({ method: 'GET', url: `${url}&download=${encodeURIComponent('x".csv')}` });
    expect(quoted.statusCode).toBe(422);
    expect(quoted.json()).toEqual({ error: { download: 'Download must be a file name of letters, digits, dots, dashes and underscores' } });
    const other = await t.app.inject({ method: 'GET', url: `${url}&download=scans.html` });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ error: { download: 'Download must end in .csv' } });
  });

  it("serves an export only to its maker or a Super Admin: bearer token or the signed link, never another agent's user", async () => {
    const made = await t.as(agentUser, { method: 'GET', url: '/api/scan/scans/export-scan-report' });
    const url = made.json().data.url as string;
    const path = url.slice(0, url.indexOf('?'));
    const key = path.slice(path.lastIndexOf('/') + 1);
    const get = (u: string, token?: string) => (token ? t.as(token, { method: 'GET', url: u }) : t.app.inject({ method: 'GET', url: u }));

    // Without anything: 401. The maker's token or a Super Admin's opens it, never cached.
    expect((await get(path)).statusCode).toBe(401);
    for (const token of [agentUser, admin]) {
      const res = await get(path, token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    // Another agent's user, a client user: 403, with their token or with the link signed for the maker... replayed with their id.
    const otherAgentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentB.id] })).email);
    expect((await get(path, otherAgentUser)).statusCode).toBe(403);
    expect((await get(path, clientUser)).statusCode).toBe(403);
    const params = new URL(url, 'http://x').searchParams;
    const otherId = (await t.as(otherAgentUser, { method: 'GET', url: '/api/user/auth/user' })).json().data.id as number;
    const variants = [
      `${path}?expires=${params.get('expires')}&uid=${otherId}&sig=${params.get('sig')}`,
      `${path}?expires=${Number(params.get('expires')) + 600}&uid=${params.get('uid')}&sig=${params.get('sig')}`,
      `${path}?expires=${params.get('expires')}&uid=${params.get('uid')}&sig=${'A'.repeat(43)}`,
      `${path}?expires=${params.get('expires')}&uid=${params.get('uid')}`,
      // Genuinely signed, but for a user who did not make the export.
      signedFileUrl(t.app.signer, key, otherId),
      // Signed for the maker, ten minutes and more ago.
      signedFileUrl(t.app.signer, key, Number(params.get('uid')), Date.now() - (FILE_LINK_MINUTES * 60 + 1) * 1000),
    ];
    for (const bad of variants) expect((await get(bad)).statusCode, bad).toBe(403);
    expect((await get(url)).statusCode).toBe(200);
    expect((await get(`${path}?expires=soon&uid=1&sig=x`)).statusCode).toBe(422);

    // Images stay capability URLs, cached privately: documents.test.ts ('images on the files route').
  });
});
