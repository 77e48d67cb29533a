import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_LINK_MINUTES, signedFileUrl, storageOf } from '../../server/lib/storage';
import { createTestContext, formData, type TestContext } from './helper';
import { pngImage } from './image-fixtures';

let t: TestContext;
let admin: string;
let agentUserA: string;
let agentUserA2: string;
let agentUserB: string;
let clientUserX: string;
let clientUserY: string;
/** Signed in, scoped to agent A, but holding no permission to read scans or quotes. */
let noReader: string;
let scanA: number;
let quoteA: number;
let reportPath: string;
/** The customer portal's PDF of the scan (a document like the report). */
let portalReportPath: string;
let quotePath: string;

const get = (url: string, token?: string) => (token ? t.as(token, { method: 'GET', url }) : t.app.inject({ method: 'GET', url }));
const idOf = async (token: string) => (await t.as(token, { method: 'GET', url: '/api/user/auth/user' })).json().data.id as number;
const keyOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const SIGNED = /^\/api\/user\/files\/[0-9a-f]{32}\.pdf\?expires=(\d+)&uid=(\d+)&sig=[\w-]{43}$/;

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  const clientX = await t.build.client({ name: 'Document client X' });
  const clientY = await t.build.client({ name: 'Document client Y' });
  const agentA = await t.build.agent({ name: 'Document agent A', default_client_id: clientX.id });
  const agentB = await t.build.agent({ name: 'Document agent B', default_client_id: clientY.id });
  agentUserA = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA.id] })).email);
  agentUserA2 = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA.id] })).email);
  agentUserB = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentB.id] })).email);
  clientUserX = await t.login((await t.build.user({ roles: ['Client'], clients: [clientX.id] })).email);
  clientUserY = await t.login((await t.build.user({ roles: ['Client'], clients: [clientY.id] })).email);
  noReader = await t.login((await t.build.user({ permissions: [], agents: [agentA.id] })).email);

  scanA = (await t.build.scan({ agent_id: agentA.id, client_id: clientX.id, license_plate: 'DOC111' })).id;
  // The scan's report PDF, written by the server.
  expect((await t.as(admin, { method: 'POST', url: `/api/scan/scans/${scanA}/refresh` })).statusCode).toBe(200);
  const report = await sql<{ url: string }>`select url from scan_reports where scan_id = ${scanA} order by kind`.execute(t.db);
  [portalReportPath, reportPath] = report.rows.map((r) => r.url);
  // A quote of the scan with a stored PDF.
  quoteA = (await t.build.quote(scanA, { grant_total: 1234 })).id;
  const pdfKey = await storageOf(t.app).put(Buffer.from('%PDF-1.4\n% quote of Document client X\n'), 'application/pdf');
  await sql`update quotes set pdf_key = ${pdfKey} where id = ${quoteA}`.execute(t.db);
  quotePath = `/api/user/files/${pdfKey}`;
});

describe('documents (PDFs) on the files route', () => {
  it('answers 401 to a request without a bearer token or a signed link', async () => {
    for (const path of [reportPath, portalReportPath, quotePath]) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(401);
      expect(res.rawPayload.toString()).not.toContain('%PDF');
    }
  });

  it('serves a document to a user whose scope reaches its scan or quote, never cached publicly', async () => {
    for (const token of [admin, agentUserA, clientUserX])
      for (const path of [reportPath, portalReportPath, quotePath]) {
        const res = await get(path, token);
        expect(res.statusCode, path).toBe(200);
        expect(res.headers['content-type']).toBe('application/pdf');
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      }
  });

  it("answers 404 to another agent's or client's user, and to a user in scope who may not read scans or quotes", async () => {
    for (const token of [agentUserB, clientUserY, noReader])
      for (const path of [reportPath, portalReportPath, quotePath]) {
        const res = await get(path, token);
        expect(res.statusCode, path).toBe(404);
        expect(res.rawPayload.toString()).not.toContain('%PDF');
      }
  });

  it('replies the scan and quote services make carry links signed for the requesting user, which open the document', async () => {
    const userA = await idOf(agentUserA);
    const scan = (await t.as(agentUserA, { method: 'GET', url: `/api/scan/scans/${scanA}` })).json().data;
    const list = (await t.as(agentUserA, { method: 'GET', url: '/api/quote/quotes' })).json();
    const quote = (await t.as(agentUserA, { method: 'GET', url: `/api/quote/quotes/${quoteA}` })).json().data;
    const row = list.items.find((q: { id: number }) => q.id === quoteA);
    const links: string[] = [scan.pdf_url, ...scan.report_pdfs.map((r: { url: string }) => r.url), row.pdf, quote.pdf_url];
    // The scan page's Reports holds its two reports and 'View Quote'.
    expect(links).toHaveLength(6);
    for (const link of links) {
      const m = SIGNED.exec(link);
      expect(m, link).not.toBeNull();
      expect(Number(m![2])).toBe(userA);
      const expiresIn = Number(m![1]) - Date.now() / 1000;
      expect(expiresIn).toBeGreaterThan(DOCUMENT_LINK_MINUTES * 60 - 60);
      expect(expiresIn).toBeLessThanOrEqual(DOCUMENT_LINK_MINUTES * 60);
      const res = await get(link);
      expect(res.statusCode, link).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      const named = await get(`${link}&download=quote.pdf`);
      expect(named.statusCode).toBe(200);
      expect(named.headers['content-disposition']).toBe('attachment; filename="quote.pdf"');
    }
    // The attachment names the scan page mails by stay the plain keys.
    expect(scan.report_pdfs.map((r: { path: string }) => r.path).sort()).toEqual(
      [keyOf(reportPath), keyOf(portalReportPath), keyOf(quotePath)].sort(),
    );
    expect(quote.pdf_path).toBe(keyOf(quotePath));
  });

  it('never hands a link signed for one user to another user of the same scope', async () => {
    const [userA, userA2] = [await idOf(agentUserA), await idOf(agentUserA2)];
    for (const [token, id] of [
      [agentUserA, userA],
      [agentUserA2, userA2],
      [agentUserA, userA],
    ] as const) {
      const list = (await t.as(token, { method: 'GET', url: '/api/quote/quotes' })).json();
      const row = list.items.find((q: { id: number }) => q.id === quoteA);
      expect(Number(SIGNED.exec(row.pdf)![2])).toBe(id);
    }
  });

  it('stops a signed link once its user no longer reaches the document: moved to another agent, or deleted', async () => {
    const agentB = (await sql<{ id: number }>`select id from agents where name = 'Document agent B'`.execute(t.db)).rows[0].id;
    const agentA = (await sql<{ id: number }>`select id from agents where name = 'Document agent A'`.execute(t.db)).rows[0].id;
    const user = await t.build.user({ roles: ['Agent'], agents: [agentA] });
    const token = await t.login(user.email);
    const quote = (await t.as(token, { method: 'GET', url: `/api/quote/quotes/${quoteA}` })).json().data;
    const report = (await t.as(token, { method: 'GET', url: `/api/scan/scans/${scanA}` })).json().data.pdf_url as string;
    for (const link of [quote.pdf_url as string, report]) expect((await get(link)).statusCode, link).toBe(200);

    await sql`update user_agents set agent_id = ${agentB} where user_id = ${user.id}`.execute(t.db);
    for (const link of [quote.pdf_url as string, report]) {
      const res = await get(link);
      expect(res.statusCode, link).toBe(403);
      expect(res.json()).toEqual({ error: 'The download link is no longer valid for its user' });
    }
    await sql`update user_agents set agent_id = ${agentA} where user_id = ${user.id}`.execute(t.db);
    expect((await get(report)).statusCode).toBe(200);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/user/users/${user.id}`, payload: {} })).statusCode).toBe(200);
    for (const link of [quote.pdf_url as string, report]) expect((await get(link)).statusCode, link).toBe(403);
  });

  it('answers 403 to an altered, incomplete or expired link', async () => {
    const userA = await idOf(agentUserA);
    const userB = await idOf(agentUserB);
    const key = keyOf(quotePath);
    const link = signedFileUrl(t.app.signer, key, userA, Date.now(), DOCUMENT_LINK_MINUTES);
    const params = new URL(link, 'http://x').searchParams;
    const [expires, uid, sig] = [params.get('expires'), params.get('uid'), params.get('sig')];
    expect((await get(link)).statusCode).toBe(200);
    const variants = [
      `${quotePath}?expires=${expires}&uid=${userB}&sig=${sig}`,
      `${quotePath}?expires=${Number(expires) + 600}&uid=${uid}&sig=${sig}`,
      `${quotePath}?expires=${expires}&uid=${uid}&sig=${'A'.repeat(43)}`,
      `${quotePath}?expires=${expires}&uid=${uid}`,
      // Signed for another document.
      `${reportPath}?expires=${expires}&uid=${uid}&sig=${sig}`,
      // Genuinely signed, expired.
      signedFileUrl(t.app.signer, key, userA, Date.now() - (DOCUMENT_LINK_MINUTES * 60 + 1) * 1000, DOCUMENT_LINK_MINUTES),
    ];
    for (const bad of variants) {
      const res = await get(bad);
      expect(res.statusCode, bad).toBe(403);
      expect(res.rawPayload.toString()).not.toContain('%PDF');
    }
  });

  it('shows a browser tab a page in its language for an expired link or a missing file; the API still answers JSON', async () => {
    const userA = await idOf(agentUserA);
    const expired = signedFileUrl(
      t.app.signer,
      keyOf(quotePath),
      userA,
      Date.now() - (DOCUMENT_LINK_MINUTES * 60 + 1) * 1000,
      DOCUMENT_LINK_MINUTES,
    );
    const tab = (url: string, language = 'en-AU,en;q=0.9') =>
      t.app.inject({
        method: 'GET',
        url,
        headers: { 'sec-fetch-dest': 'document', accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'accept-language': language },
      });
    const page = await tab(expired);
    expect(page.statusCode).toBe(403);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<h1>This link has expired</h1>');
    expect(page.body).toContain('<a href="/">Open Insurance ScanQuote</a>');
    expect(page.body).not.toContain('%PDF');
    const ja = await tab(expired, 'ja-JP,ja;q=0.9,en;q=0.8');
    expect(ja.body).toContain('<html lang="ja">');
    expect(ja.body).toContain('このリンクは有効期限切れです');
    // No link at all (401) reads as a refused link too; a file that is not there says so.
    expect((await tab(quotePath)).body).toContain('This link has expired');
    const missing = await tab(`/api/user/files/${'0'.repeat(32)}.png`);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<h1>File not found</h1>');
    // The app's own requests (and an <img>) keep the JSON error.
    const api = await t.app.inject({ method: 'GET', url: expired, headers: { 'sec-fetch-dest': 'empty', accept: 'text/html' } });
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.json()).toEqual({ error: 'The download link has expired or is not valid' });
    expect((await get(expired)).json()).toEqual({ error: 'The download link has expired or is not valid' });
  });
});

describe('images on the files route', () => {
  it('stay capability URLs (no token needed) but are cached privately only', async () => {
    const upload = await t.as(agentUserA, {
      method: 'POST',
      url: '/api/user/file/upload',
      ...(await formData({ file: { data: await pngImage(), filename: 'a.png', type: 'image/png' } })),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const image = await get(upload.json().data.url as string);
    expect(image.statusCode).toBe(200);
    expect(image.headers['cache-control']).toBe('private, max-age=31536000, immutable');
  });
});
