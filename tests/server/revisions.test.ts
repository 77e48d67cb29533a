import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTHING_TO_APPROVE } from '../../server/services/quote/approvals-service';
import { storageOf } from '../../server/lib/storage';
import { createTestContext, DENT_PRICE_ROW, type TestContext } from './helper';
import { dentedScan, quotingFixture } from './quote-fixtures';
import { pngImage } from './image-fixtures';
import { pdfLines } from './pdf-text';

let t: TestContext;
let agentUser: string;
let otherAgentUser: string;
let clientUser: string;
let agent: { id: number };
let client: { id: number };
let bonnet: number;
let roof: number;
let product: number;
let signature: string;

beforeAll(async () => {
  t = await createTestContext();
  ({ client, agent, bonnet, roof, product } = await quotingFixture(t, 'Revision'));
  const other = await t.build.agent({ name: 'Revision other agent' });
  agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agent.id] })).email);
  otherAgentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [other.id] })).email);
  clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [client.id] })).email);
  signature = `data:image/png;base64,${(await pngImage(120, 40, '#000000')).toString('base64')}`;
});

type Saved = { id: number; scan_id: number; status: string; revision: number; version: number; grant_total: number; pdf_path: string };

/**
 * Saves the scan's quote: the bonnet (pdr heavy, or the repair given), the roof (conventional, or as given; null: none)
 * and one product; by the agent's user for the fixture's client unless `by` says otherwise.
 */
async function save(
  scanId: number,
  version: number,
  bonnetRepair: Record<string, string> = { repair_type: 'pdr', category: 'heavy' },
  comments?: string,
  roofRepair: Record<string, string> | null = { repair_type: 'conventional' },
  by: { token: string; clientId: number } = { token: agentUser, clientId: client.id },
) {
  const res = await t.as(by.token, {
    method: 'POST',
    url: '/api/quote/quotes',
    payload: {
      scan_id: scanId,
      client_id: by.clientId,
      type: 'arch',
      items: { [bonnet]: bonnetRepair, ...(roofRepair ? { [roof]: roofRepair } : {}) },
      products: [{ value: product, text: 'Revision wax', price: 30 }],
      parts: [],
      metallic: 0,
      pearl: 0,
      aluminium: 0,
      vehicle_type: 'D',
      version,
      ...(comments === undefined ? {} : { assessor_comments: comments }),
    },
  });
  expect([200, 201], res.body).toContain(res.statusCode);
  return res.json().data as Saved;
}

async function newQuote() {
  const scan = await dentedScan(t, agent.id, client.id, 'REV123');
  return save(scan.id, 0);
}

/** Sends the quote for approval and reads the link's token from the mail. */
async function send(id: number) {
  const res = await t.as(agentUser, {
    method: 'POST',
    url: `/api/quote/quotes/${id}/approval`,
    payload: { recipient: 'owner@example.test' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const mail = await sql<{ html: string }>`select html from mail_outbox order by id desc limit 1`.execute(t.db);
  return /\/approve\/([A-Za-z0-9_-]{43})/.exec(mail.rows[0].html)![1];
}

let address = 0;
const from = () => `10.78.${Math.floor(++address / 250)}.${address % 250}`;
const open = async (token: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/quote/approvals/${token}`, remoteAddress: from() })).json().data;
const answer = (token: string, decisions: { key: string; decision: string; reason?: string }[]) =>
  t.app.inject({
    method: 'POST',
    url: `/api/quote/approvals/${token}`,
    payload: { decisions, terms_accepted: true, signer_name: 'Pat Customer', signature },
    remoteAddress: from(),
  });

const revisionRows = async (id: number) =>
  (
    await sql<{ number: number; quote: unknown; grand_total: string; client_snapshot: unknown; pdf_key: string }>`select number, quote,
      grand_total::text, client_snapshot, pdf_key from quote_revisions where quote_id = ${id} order by number`.execute(t.db)
  ).rows;
const events = async (id: number) =>
  (
    await sql<{ action: string }>`select action from events where subject_kind = 'quote' and subject_id = ${id} order by id`.execute(t.db)
  ).rows.map((r) => r.action);
/** The quote's latest event: its action and the fields before and after. */
const lastEvent = async (id: number) =>
  (
    await sql<{ action: string; before: Record<string, unknown>; after: Record<string, unknown> }>`select action, before, after
      from events where subject_kind = 'quote' and subject_id = ${id} order by id desc limit 1`.execute(t.db)
  ).rows[0];
const pdfOf = async (key: string) => (await storageOf(t.app).get(key))!.data;
/** A new quote sent for approval and wholly approved by its link. */
async function approvedQuote() {
  const q = await newQuote();
  const token = await send(q.id);
  const page = await open(token);
  const decisions = page.quote.lines.map((l: { key: string }) => ({ key: l.key, decision: 'approved' }));
  expect((await answer(token, decisions)).statusCode).toBe(200);
  return q;
}

/** The quote as it now is (its revision, status and version). */
const current = async (id: number) => (await t.as(agentUser, { method: 'GET', url: `/api/quote/quotes/${id}` })).json().data as Saved;

describe('quote revisions', () => {
  it('re-saves a draft in place: no revision, no supplement', async () => {
    const q = await newQuote();
    const again = await save(q.scan_id, q.version, { repair_type: 'conventional' });
    expect(again).toMatchObject({ id: q.id, status: 'draft', revision: 0 });
    expect(await revisionRows(q.id)).toEqual([]);
    expect(await events(q.id)).toEqual(['quote.created', 'quote.saved']);
  });

  it('freezes revision 0 when sent; saving again starts S1 as a draft and leaves revision 0 byte for byte', async () => {
    const q = await newQuote();
    await send(q.id);
    const [frozen] = await revisionRows(q.id);
    expect(frozen).toMatchObject({ number: 0, grand_total: q.grant_total.toFixed(2) });
    const pdfBefore = await pdfOf(frozen.pdf_key);
    expect(pdfLines(pdfBefore).join('\n')).toContain('ESTIMATE');

    const s1 = await save(q.scan_id, q.version, { repair_type: 'conventional' });
    expect(s1).toMatchObject({ id: q.id, status: 'draft', revision: 1 });
    expect(s1.grant_total).not.toBe(q.grant_total);
    const rows = await revisionRows(q.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual(frozen);
    expect((await pdfOf(rows[0].pdf_key)).equals(pdfBefore)).toBe(true);
    // One event for the save: the supplement's start, with the revision before and after.
    expect(await lastEvent(q.id)).toMatchObject({
      action: 'quote.supplement_created',
      before: { revision: 0, status: 'sent' },
      after: { revision: 1, status: 'draft' },
    });
    // The link still waiting on revision 0 is revoked.
    const links = await sql<{ revoked_at: Date | null }>`select revoked_at from quote_approvals where quote_id = ${q.id}`.execute(t.db);
    expect(links.rows.every((l) => l.revoked_at !== null)).toBe(true);

    // Re-saving the draft supplement stays S1, in place.
    const again = await save(q.scan_id, s1.version, { repair_type: 'conventional' });
    expect(again).toMatchObject({ revision: 1, status: 'draft' });
    expect(await revisionRows(q.id)).toHaveLength(1);
  });

  it('lists the revisions with the delta; the original revision and its PDF read back as sent', async () => {
    const q = await newQuote();
    await send(q.id);
    const s1 = await save(q.scan_id, q.version, { repair_type: 'conventional' });
    const res = await t.as(clientUser, { method: 'GET', url: `/api/quote/quotes/${q.id}/revisions` });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.current).toBe(1);
    expect(data.revisions.map((r: { number: number; label: string | null; status: string }) => [r.number, r.label, r.status])).toEqual([
      [0, null, 'revoked'],
      [1, 'S1', 'draft'],
    ]);
    expect(data.revisions[0].grand_total).toBe(q.grant_total);
    // The quotes list shows the current revision beside the status.
    const listed = await t.as(agentUser, { method: 'GET', url: `/api/quote/quotes?agent_id=${agent.id}&per_page=100` });
    expect(listed.json().items.find((row: { id: number }) => row.id === q.id)).toMatchObject({ status: 'draft', revision: 1 });
    expect(data.revisions[1].sent_at).toBeNull();
    expect(data.delta).toMatchObject({
      since: 0,
      added: [],
      removed: [],
      changed: [{ key: `dent:${bonnet}`, label: 'BONNET', before: { repair_type: 'pdr' }, after: { repair_type: 'conventional' } }],
      total: { before: q.grant_total, after: s1.grant_total },
    });
    const [changed] = data.delta.changed;
    expect(changed.difference).toBeCloseTo(changed.after.amount - changed.before.amount, 2);

    const original = await t.as(clientUser, { method: 'GET', url: `/api/quote/quotes/${q.id}?revision=0` });
    expect(original.statusCode, original.body).toBe(200);
    expect(original.json().data).toMatchObject({ id: q.id, revision: 0, grant_total: q.grant_total });
    expect(original.json().data.items[bonnet].repair_type).toBe('pdr');
    expect((await t.as(clientUser, { method: 'GET', url: `/api/quote/quotes/${q.id}?revision=7` })).statusCode).toBe(404);
    expect((await t.as(clientUser, { method: 'GET', url: `/api/quote/quotes/${q.id}?revision=x` })).statusCode).toBe(422);
    expect((await t.as(otherAgentUser, { method: 'GET', url: `/api/quote/quotes/${q.id}/revisions` })).statusCode).toBe(404);
    expect((await t.as(otherAgentUser, { method: 'GET', url: `/api/quote/quotes/${q.id}?revision=0` })).statusCode).toBe(404);

    // The frozen PDF is served to a reader of the quote (its signed link), and the supplement's PDF prints its changes.
    const pdfLink = original.json().data.pdf as string;
    const served = await t.app.inject({ method: 'GET', url: pdfLink.replace(/^https?:\/\/[^/]+/, '') });
    expect(served.statusCode).toBe(200);
    const rows = await revisionRows(q.id);
    expect(served.rawPayload.equals(await pdfOf(rows[0].pdf_key))).toBe(true);
    const text = pdfLines(await pdfOf(s1.pdf_path)).join('\n');
    expect(text).toContain('Supplement S1 — changes since the original estimate');
    expect(text).toMatch(/BONNET Changed: PDR( \(\w+\))? \$[\d,.]+ to Conventional \$[\d,.]+/);
    expect(text).toContain('Grand total');
    // An English supplement keeps to the standard fonts: no glyph of it needs the embedded Japanese font.
    expect((await pdfOf(s1.pdf_path)).toString('latin1')).not.toContain('IPAexGothic');
  });

  it("gives an earlier supplement's changes with ?revision=n: S1 against the original while S2 is the draft", async () => {
    const q = await newQuote();
    await send(q.id);
    const s1 = await save(q.scan_id, q.version, { repair_type: 'conventional' });
    await send(q.id);
    await save(q.scan_id, s1.version, { repair_type: 'pdr', category: 'light' });
    const deltaOf = async (query: string) => {
      const res = await t.as(clientUser, { method: 'GET', url: `/api/quote/quotes/${q.id}/revisions${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { current: number; delta: { since: number; changed: { after: { repair_type: string } }[] } | null };
    };
    const current = await deltaOf('');
    expect(current.current).toBe(2);
    expect(current.delta).toMatchObject({ since: 1, changed: [{ after: { repair_type: 'pdr' } }] });
    const first = await deltaOf('?revision=1');
    expect(first.current).toBe(2);
    expect(first.delta).toMatchObject({ since: 0, changed: [{ after: { repair_type: 'conventional' } }] });
    expect((await deltaOf('?revision=0')).delta).toBeNull();
    expect((await deltaOf('?revision=2')).delta).toEqual(current.delta);
    expect((await t.as(clientUser, { method: 'GET', url: `/api/quote/quotes/${q.id}/revisions?revision=3` })).statusCode).toBe(404);
    const bad = await t.as(clientUser, { method: 'GET', url: `/api/quote/quotes/${q.id}/revisions?revision=x` });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Revision must be a whole number');
    expect((await t.as(otherAgentUser, { method: 'GET', url: `/api/quote/quotes/${q.id}/revisions?revision=1` })).statusCode).toBe(404);
  });

  it('saves an answered quote in place when only its comments change: no supplement, the answer and its link stand', async () => {
    const q = await approvedQuote();
    const answered = await current(q.id);
    expect(answered).toMatchObject({ revision: 0, status: 'approved' });
    const commented = await save(q.scan_id, answered.version, undefined, 'Polish the bonnet after the repair.');
    expect(commented).toMatchObject({ revision: 0, status: 'approved' });
    expect(commented.version).toBeGreaterThan(answered.version);
    expect((await lastEvent(q.id)).action).toBe('quote.saved');
    const links = await sql<{ revoked_at: Date | null }>`select revoked_at from quote_approvals where quote_id = ${q.id}`.execute(t.db);
    expect(links.rows.map((l) => l.revoked_at)).toEqual([null]);
    expect(await revisionRows(q.id)).toHaveLength(1);
    // A priced change still starts the supplement.
    expect(await save(q.scan_id, commented.version, { repair_type: 'conventional' })).toMatchObject({ revision: 1, status: 'draft' });
    // The latest link is still the original's, and says so; each revision keeps its signed answer.
    const quote = (await t.as(agentUser, { method: 'GET', url: `/api/quote/quotes/${q.id}` })).json().data;
    expect(quote.approval).toMatchObject({ revision: 0, recipient: 'owner@example.test' });
    await send(q.id);
    expect((await t.as(agentUser, { method: 'GET', url: `/api/quote/quotes/${q.id}` })).json().data.approval.revision).toBe(1);
    const listed = (await t.as(clientUser, { method: 'GET', url: `/api/quote/quotes/${q.id}/revisions` })).json().data;
    expect(listed.revisions.map((r: { signed_pdf: string | null }) => r.signed_pdf !== null)).toEqual([true, false]);
    expect(listed.revisions[0].signed_pdf).toMatch(/^\/api\/user\/files\/[0-9a-f]{32}\.pdf\?expires=\d+&uid=\d+&sig=[\w-]{43}$/);
  });

  it('withdraws a draft supplement saved back to the revision sent before it: the quote is that revision again, with its answer', async () => {
    const q = await approvedQuote();
    const s1 = await save(q.scan_id, (await current(q.id)).version, { repair_type: 'conventional' });
    expect(s1).toMatchObject({ revision: 1, status: 'draft' });
    const back = await save(q.scan_id, s1.version);
    expect(back).toMatchObject({ revision: 0, status: 'approved', grant_total: q.grant_total });
    expect(await lastEvent(q.id)).toMatchObject({
      action: 'quote.supplement_withdrawn',
      before: { revision: 1, status: 'draft' },
      after: { revision: 0, status: 'approved' },
    });
    const listed = await t.as(clientUser, { method: 'GET', url: `/api/quote/quotes/${q.id}/revisions` });
    expect(listed.json().data).toMatchObject({ current: 0, delta: null });
    expect(await revisionRows(q.id)).toHaveLength(1);

    // A revision whose link was still waiting comes back revoked (its link was revoked when the supplement started).
    const r = await newQuote();
    await send(r.id);
    const r1 = await save(r.scan_id, (await current(r.id)).version, { repair_type: 'conventional' });
    expect(await save(r.scan_id, r1.version)).toMatchObject({ revision: 0, status: 'revoked' });
  });

  it('withdraws back to the answered original a supplement saved back to its lines while a later one waits; the next supplement follows the frozen ones', async () => {
    const q = await approvedQuote();
    // S1 changes the bonnet and is sent; before S1 is answered the bonnet goes back to what the customer approved.
    const s1 = await save(q.scan_id, (await current(q.id)).version, { repair_type: 'conventional' });
    expect(s1.revision).toBe(1);
    await send(q.id);
    const back = await save(q.scan_id, (await current(q.id)).version);
    expect(back).toMatchObject({ revision: 0, status: 'approved', grant_total: q.grant_total });
    expect(await lastEvent(q.id)).toMatchObject({
      action: 'quote.supplement_withdrawn',
      before: { revision: 1, status: 'sent' },
      after: { revision: 0, status: 'approved' },
    });
    // S1's link is revoked, and the quote's approval is the original's answer, not the revoked S1 link.
    const links = await sql<{ revision: number; revoked: boolean }>`select revision, revoked_at is not null as revoked
      from quote_approvals where quote_id = ${q.id} order by id`.execute(t.db);
    expect(links.rows).toEqual([
      { revision: 0, revoked: false },
      { revision: 1, revoked: true },
    ]);
    const quote = (await t.as(agentUser, { method: 'GET', url: `/api/quote/quotes/${q.id}` })).json().data;
    expect(quote.approval).toMatchObject({ revision: 0, decided_at: expect.any(String) });
    const listed = (await t.as(clientUser, { method: 'GET', url: `/api/quote/quotes/${q.id}/revisions` })).json().data;
    expect(listed.current).toBe(0);
    expect(listed.revisions.map((r: { number: number; status: string }) => [r.number, r.status])).toEqual([
      [0, 'approved'],
      [1, 'revoked'],
    ]);

    // A draft S2 saved back to the answered original is withdrawn the same way (S1 sent and waiting in between).
    const r = await approvedQuote();
    await save(r.scan_id, (await current(r.id)).version, { repair_type: 'conventional' });
    await send(r.id);
    const r2 = await save(r.scan_id, (await current(r.id)).version, { repair_type: 'pdr', category: 'light' });
    expect(r2).toMatchObject({ revision: 2, status: 'draft' });
    expect(await save(r.scan_id, r2.version)).toMatchObject({ revision: 0, status: 'approved' });

    // The next change starts S2, after the frozen S1, and S2 asks about its changed line.
    const s2 = await save(q.scan_id, (await current(q.id)).version, { repair_type: 'pdr', category: 'light' });
    expect(s2).toMatchObject({ revision: 2, status: 'draft' });
    const page = await open(await send(q.id));
    expect(page.quote.revision).toBe(2);
    expect(page.quote.lines.filter((l: { carried?: unknown }) => !l.carried).length).toBeGreaterThan(0);
    expect((await revisionRows(q.id)).map((row) => row.number)).toEqual([0, 1, 2]);
  });

  it('sends a supplement that only removes lines: the page lists them and asks nothing; the signature confirms the lower total', async () => {
    const q = await approvedQuote();
    const before = await current(q.id);
    // The roof's dents were a misreading: with its counts cleared on the scan, the next save has no line for it.
    await sql`delete from scan_measures where scan_id = ${q.scan_id} and car_panel = 'roof'`.execute(t.db);
    const s1 = await save(q.scan_id, before.version, undefined, undefined, null);
    expect(s1).toMatchObject({ revision: 1, status: 'draft' });
    expect(s1.grant_total).toBeLessThan(before.grant_total);
    const token = await send(q.id);
    const mail = await sql<{ subject: string }>`select subject from mail_outbox order by id desc limit 1`.execute(t.db);
    expect(mail.rows[0].subject).toMatch(/^Supplement S1 to estimate /);
    const page = await open(token);
    expect(page.quote.revision).toBe(1);
    expect(page.quote.lines.every((l: { carried: boolean }) => l.carried)).toBe(true);
    expect(page.quote.removed).toEqual([
      { key: `dent:${roof}`, kind: 'dent', label: 'ROOF', repair_type: 'conventional', category: null, amount: expect.any(Number) },
    ]);
    expect(page.quote.grand_total).toBe(s1.grant_total);
    // Nothing to decide: the signature alone answers, with the earlier decisions.
    const res = await answer(token, []);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.answer).toMatchObject({ status: 'approved', approved_total: s1.grant_total });
    expect(await current(q.id)).toMatchObject({ revision: 1, status: 'approved' });
    // A line no longer on the estimate cannot be decided.
    const again = await approvedQuote();
    await sql`delete from scan_measures where scan_id = ${again.scan_id} and car_panel = 'roof'`.execute(t.db);
    await save(again.scan_id, (await current(again.id)).version, undefined, undefined, null);
    const token2 = await send(again.id);
    const stale = await answer(token2, [{ key: `dent:${roof}`, decision: 'approved' }]);
    expect(stale.statusCode).toBe(422);
    expect(stale.json().error).toEqual({ 'decisions.0.key': 'The selected line is invalid' });
  });

  it('sends a supplement whose lines stand but whose total moved (a new GST rate): nothing to decide, the new total to sign', async () => {
    const q = await approvedQuote();
    const gst = (await sql<{ v: string }>`select option_value as v from options where option_name = 'GST_PERCENT'`.execute(t.db)).rows[0].v;
    await sql`update options set option_value = '15' where option_name = 'GST_PERCENT'`.execute(t.db);
    try {
      const s1 = await save(q.scan_id, (await current(q.id)).version);
      expect(s1).toMatchObject({ revision: 1, status: 'draft' });
      expect(s1.grant_total).toBeGreaterThan(q.grant_total);
      const page = await open(await send(q.id));
      expect(page.quote.lines.every((l: { carried: boolean }) => l.carried)).toBe(true);
      expect(page.quote.removed).toEqual([]);
      expect(page.quote).toMatchObject({ gst_percent: 15, grand_total: s1.grant_total });
    } finally {
      await sql`update options set option_value = ${gst} where option_name = 'GST_PERCENT'`.execute(t.db);
    }
  });

  it('does not send a supplement that changes only the client, every line and the total as answered: 422, no link, no mail', async () => {
    const q = await approvedQuote();
    const part = (await sql<{ part_id: number }>`select part_id from panels where id = ${bonnet}`.execute(t.db)).rows[0].part_id;
    const twin = await t.build.client({ name: 'Revision twin client' });
    await t.db
      .insertInto('client_dent_prices')
      .values({ client_id: twin.id, part_id: part, ...DENT_PRICE_ROW })
      .execute();
    // The scan moves to the twin client (a quote is priced for its scan's client); a Super Admin saves the quote.
    await sql`update scans set client_id = ${twin.id} where id = ${q.scan_id}`.execute(t.db);
    const admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
    const moved = await save(q.scan_id, (await current(q.id)).version, undefined, undefined, undefined, {
      token: admin,
      clientId: twin.id,
    });
    expect(moved).toMatchObject({ revision: 1, status: 'draft', grant_total: q.grant_total });
    const links = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from quote_approvals where quote_id = ${q.id}`.execute(t.db)).rows[0].n;
    const mails = async () => (await sql<{ n: number }>`select count(*)::int as n from mail_outbox`.execute(t.db)).rows[0].n;
    const [linksBefore, mailsBefore] = [await links(), await mails()];
    const res = await t.as(agentUser, {
      method: 'POST',
      url: `/api/quote/quotes/${q.id}/approval`,
      payload: { recipient: 'owner@example.test' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toEqual({ recipient: NOTHING_TO_APPROVE });
    expect([await links(), await mails()]).toEqual([linksBefore, mailsBefore]);
    expect(await current(q.id)).toMatchObject({ revision: 1, status: 'draft' });
  });

  it('asks only about the changed line of a supplement; the earlier answers carry over and the answer completes the approval', async () => {
    const q = await newQuote();
    const token0 = await send(q.id);
    const page0 = await open(token0);
    const keys = page0.quote.lines.map((l: { key: string }) => l.key);
    expect(keys).toEqual([`dent:${bonnet}`, `dent:${roof}`, `product:${product}`]);
    expect(
      (
        await answer(
          token0,
          keys.map((key: string) => ({ key, decision: 'approved' })),
        )
      ).statusCode,
    ).toBe(200);

    const lastMail = async () =>
      (await sql<{ subject: string; html: string }>`select subject, html from mail_outbox order by id desc limit 1`.execute(t.db)).rows[0];
    const first = await lastMail();
    expect(first.subject).toMatch(/^Estimate #\d+ for .*: your approval$/);
    expect(first.html).not.toContain('Supplement');

    const s1 = await save(q.scan_id, q.version, { repair_type: 'conventional' });
    expect(s1).toMatchObject({ revision: 1, status: 'draft' });
    const token1 = await send(q.id);
    // The supplement's mail says it is one, and that only its changed lines are asked.
    const second = await lastMail();
    expect(second.subject).toMatch(/^Supplement S1 to estimate #\d+ for .*: your approval$/);
    expect(second.html).toContain(
      'Supplement S1 changes your estimate. Only the lines that changed are asked again; your earlier answers stand for the others.',
    );
    const page1 = await open(token1);
    expect(page1.state).toBe('open');
    const asked = page1.quote.lines.filter((l: { carried: boolean }) => !l.carried);
    const carried = page1.quote.lines.filter((l: { carried: boolean }) => l.carried);
    expect(asked.map((l: { key: string }) => l.key)).toEqual([`dent:${bonnet}`]);
    // The page says it is the supplement and what the changed line was.
    expect(page0.quote.revision).toBe(0);
    expect(page1.quote.revision).toBe(1);
    expect(asked[0]).toMatchObject({ repair_type: 'conventional', added: false, before: { repair_type: 'pdr', category: 'heavy' } });
    expect(asked[0].before.amount).toBeGreaterThan(0);
    expect(carried.map((l: { before: unknown; added: boolean }) => [l.before, l.added])).toEqual([
      [null, false],
      [null, false],
    ]);
    expect(page0.quote.lines.every((l: { before: unknown; added: boolean }) => l.before === null && !l.added)).toBe(true);
    expect(carried.map((l: { key: string; decision: string }) => [l.key, l.decision])).toEqual([
      [`dent:${roof}`, 'approved'],
      [`product:${product}`, 'approved'],
    ]);
    // A carried line is not answered again.
    const again = await answer(token1, [
      { key: `dent:${bonnet}`, decision: 'approved' },
      { key: `dent:${roof}`, decision: 'declined', reason: 'No' },
    ]);
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toMatchObject({ 'decisions.1.key': 'The selected line is invalid' });

    const done = await answer(token1, [{ key: `dent:${bonnet}`, decision: 'approved' }]);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.answer).toMatchObject({ status: 'approved', approved_total: s1.grant_total });
    const status = await sql<{ status: string }>`select status from quotes where id = ${q.id}`.execute(t.db);
    expect(status.rows[0].status).toBe('approved');
    const stored = await sql<{ lines: { key: string; decision: string }[] }>`select lines from quote_approvals where quote_id = ${q.id}
      and revision = 1`.execute(t.db);
    expect(stored.rows[0].lines.map((l) => [l.key, l.decision])).toEqual(keys.map((k: string) => [k, 'approved']));
    // The original's link still reads back as it was answered, with revision 0's figures.
    const old = await open(token0);
    expect(old).toMatchObject({ state: 'answered', quote: { grand_total: q.grant_total } });
  });
});
