import { sql } from 'kysely';
import { declinedLinesText } from '../../src/domain/history';
import { APPROVAL_TEMPLATE_BODIES, APPROVAL_TEMPLATE_NAMES } from '../../src/domain/quote-approval';
import { beforeAll, describe, expect, it } from 'vitest';
import { storageOf } from '../../server/lib/storage';
import { createTestContext, type TestContext } from './helper';
import { dentedScan, quotingFixture } from './quote-fixtures';
import { pngImage } from './image-fixtures';
import { pdfLines } from './pdf-text';

let t: TestContext;
let agentUser: string;
let otherAgentUser: string;
let readOnlyUser: string;
let agent: { id: number; name: string };
let client: { id: number; name: string };
let bonnet: number;
let roof: number;
let product: number;
let signature: string;
const logLines: string[] = [];

beforeAll(async () => {
  t = await createTestContext({ LOG_LEVEL: 'info' }, undefined, { write: (line) => void logLines.push(line) });
  ({ client, agent, bonnet, roof, product } = await quotingFixture(t, 'Approval'));
  await sql`update clients set email = 'fleet@client.test' where id = ${client.id}`.execute(t.db);
  const other = await t.build.agent({ name: 'Approval other agent' });
  agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agent.id] })).email);
  otherAgentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [other.id] })).email);
  readOnlyUser = await t.login((await t.build.user({ roles: ['Client'], clients: [client.id] })).email);
  signature = `data:image/png;base64,${(await pngImage(120, 40, '#000000')).toString('base64')}`;
});

/** A saved quote of the agent's scan: the bonnet (pdr, heavy), the roof (conventional) and one product. */
async function savedQuote() {
  const scan = await dentedScan(t, agent.id, client.id, 'APR123');
  const res = await t.as(agentUser, {
    method: 'POST',
    url: '/api/quote/quotes',
    payload: {
      scan_id: scan.id,
      client_id: client.id,
      type: 'arch',
      items: { [bonnet]: { repair_type: 'pdr', category: 'heavy' }, [roof]: { repair_type: 'conventional' } },
      products: [{ value: product, text: 'Approval wax', price: 30 }],
      parts: [],
      metallic: 0,
      pearl: 0,
      aluminium: 0,
      vehicle_type: 'D',
      version: 0,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; status: string; grant_total: number; updated_at: string };
}

const send = (token: string, id: number, recipient = 'owner@example.test') =>
  t.as(token, { method: 'POST', url: `/api/quote/quotes/${id}/approval`, payload: { recipient } });

/** Sends the quote and reads the link's token from the mail the outbox holds. */
async function sentLink(id: number) {
  const res = await send(agentUser, id);
  expect(res.statusCode, res.body).toBe(200);
  const mail = await sql<{ html: string; recipients: string[] }>`select html, recipients from mail_outbox order by id desc limit 1`.execute(
    t.db,
  );
  const token = /\/approve\/([A-Za-z0-9_-]{43})/.exec(mail.rows[0].html)![1];
  return { token, mail: mail.rows[0], quote: res.json().data };
}

let address = 0;
/** Each test its own client address, so the wrong-token throttle of one never reaches another. */
const from = () => `10.77.${Math.floor(++address / 250)}.${address % 250}`;

const open = (token: string, ip = from()) => t.app.inject({ method: 'GET', url: `/api/quote/approvals/${token}`, remoteAddress: ip });
const answer = (token: string, payload: unknown, ip = from()) =>
  t.app.inject({
    method: 'POST',
    url: `/api/quote/approvals/${token}`,
    payload: payload as object,
    remoteAddress: ip,
    headers: { 'user-agent': 'Approval test' },
  });

/** An answer deciding every line of the page: `declined` keys declined with a reason, the rest approved. */
async function fullAnswer(token: string, declined: string[] = []) {
  const page = (await open(token)).json().data;
  return {
    decisions: page.quote.lines.map((l: { key: string }) =>
      declined.includes(l.key) ? { key: l.key, decision: 'declined', reason: 'Not now' } : { key: l.key, decision: 'approved' },
    ),
    terms_accepted: true,
    signer_name: 'Pat Customer',
    signature,
  };
}

const quoteRow = async (id: number) =>
  (await sql<{ status: string; version: number }>`select status, version from quotes where id = ${id}`.execute(t.db)).rows[0];
const events = async (id: number) =>
  (
    await sql<{ action: string }>`select action from events where subject_kind = 'quote' and subject_id = ${id} order by id`.execute(t.db)
  ).rows.map((r) => r.action);
const deliveries = async (hookId: number) =>
  (
    await sql<{ event: string; payload: { data: Record<string, unknown> } }>`select event, payload from webhook_deliveries
      where webhook_id = ${hookId} order by id`.execute(t.db)
  ).rows;

describe('sending a quote for approval', () => {
  it('mails a single-use link stored only hashed; the quote becomes sent, with its event and quote.sent', async () => {
    const hook = await t.build.webhook({ agent_id: agent.id, events: ['quote.sent'] });
    const q = await savedQuote();
    expect(q.status).toBe('draft');
    const { token, mail, quote } = await sentLink(q.id);
    expect(mail.recipients).toEqual(['owner@example.test']);
    expect(mail.html).toContain(`http://app.test/approve/${token}`);
    expect(quote.status).toBe('sent');
    // Sending changes the status, not the estimate: its date (updated_at, on the invoice and the PDF) stays the save's.
    expect(quote.updated_at).toBe(q.updated_at);
    expect(quote.approval).toMatchObject({ recipient: 'owner@example.test', revoked_at: null, decided_at: null });
    const days = (new Date(quote.approval.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    const stored = await sql<{ token_hash: string }>`select token_hash from quote_approvals where quote_id = ${q.id}`.execute(t.db);
    expect(stored.rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored.rows)).not.toContain(token);
    expect(await events(q.id)).toEqual(['quote.created', 'quote.sent']);
    expect((await deliveries(hook.id)).map((d) => d.event)).toEqual(['quote.sent']);
    // The list shows the status too.
    const list = await t.as(agentUser, { method: 'GET', url: `/api/quote/quotes?q=APR123&per_page=100` });
    expect(list.json().items.find((r: { id: number }) => r.id === q.id).status).toBe('sent');
  });

  it('refuses a bad recipient with 422 on the field, and needs quote_edit and the quote in scope', async () => {
    const q = await savedQuote();
    const bad = await send(agentUser, q.id, 'not-an-address');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toEqual({ recipient: 'Enter a valid email address' });
    expect((await send(readOnlyUser, q.id)).statusCode).toBe(403);
    expect((await send(otherAgentUser, q.id)).statusCode).toBe(404);
    const revoke = (token: string) => t.as(token, { method: 'DELETE', url: `/api/quote/quotes/${q.id}/approval` });
    expect((await revoke(readOnlyUser)).statusCode).toBe(403);
    expect((await revoke(otherAgentUser)).statusCode).toBe(404);
    expect((await quoteRow(q.id)).status).toBe('draft');
    expect(await events(q.id)).toEqual(['quote.created']);
  });

  it('keeps the recipient lower-cased and trimmed, as the scan mail keeps its recipients', async () => {
    const q = await savedQuote();
    const res = await send(agentUser, q.id, '  Owner.Two@Example.TEST ');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.approval.recipient).toBe('owner.two@example.test');
    const mail = await sql<{ recipients: string[] }>`select recipients from mail_outbox order by id desc limit 1`.execute(t.db);
    expect(mail.rows[0].recipients).toEqual(['owner.two@example.test']);
  });

  it("writes the mail in the agent's language, as the page it links to: the seeded template of that language", async () => {
    const seeded = await sql<{ template_name: string; template_body: string }>`select template_name, template_body from email_templates
      where template_name in (${APPROVAL_TEMPLATE_NAMES.en}, ${APPROVAL_TEMPLATE_NAMES.ja})`.execute(t.db);
    expect(Object.fromEntries(seeded.rows.map((r) => [r.template_name, r.template_body]))).toEqual({
      [APPROVAL_TEMPLATE_NAMES.en]: APPROVAL_TEMPLATE_BODIES.en,
      [APPROVAL_TEMPLATE_NAMES.ja]: APPROVAL_TEMPLATE_BODIES.ja,
    });
    await sql`update agents set language = 'ja' where id = ${agent.id}`.execute(t.db);
    try {
      const q = await savedQuote();
      expect((await send(agentUser, q.id)).statusCode).toBe(200);
      const mail = (
        await sql<{ subject: string; text: string }>`select subject, text_body as text from mail_outbox order by id desc limit 1`.execute(
          t.db,
        )
      ).rows[0];
      expect(mail.subject).toBe(`見積 #${q.id}（APR123）承認のお願い`);
      expect(mail.text).toContain(`の見積 #${q.id} の合計は`);
      // The date as the Japanese screens write it (YYYY-MM-DD A hh:mm), Melbourne time.
      expect(mail.text).toMatch(/このリンクは \d{4}-\d{2}-\d{2} (午前|午後) \d{2}:\d{2} まで有効です。/);
      expect(mail.text).not.toMatch(/The link is valid|Your estimate/);
    } finally {
      await sql`update agents set language = 'en' where id = ${agent.id}`.execute(t.db);
    }
  });

  it('uses the QUOTE_APPROVAL_DAYS setting', async () => {
    await sql`update options set option_value = '3' where option_name = 'QUOTE_APPROVAL_DAYS'`.execute(t.db);
    try {
      const { quote } = await sentLink((await savedQuote()).id);
      const days = (new Date(quote.approval.expires_at).getTime() - Date.now()) / 86_400_000;
      expect(Math.round(days)).toBe(3);
    } finally {
      await sql`update options set option_value = '14' where option_name = 'QUOTE_APPROVAL_DAYS'`.execute(t.db);
    }
  });
});

describe('the approval page', () => {
  it('opens without sign-in; the first opening sends quote.viewed once', async () => {
    const hook = await t.build.webhook({ agent_id: agent.id, events: ['quote.viewed'] });
    const q = await savedQuote();
    const { token } = await sentLink(q.id);
    const res = await open(token);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json().data;
    expect(page.state).toBe('open');
    expect(page.agent).toMatchObject({ name: 'Approval agent' });
    expect(page.quote.lines.map((l: { key: string }) => l.key)).toEqual([`dent:${bonnet}`, `dent:${roof}`, `product:${product}`]);
    expect(page.quote.lines[0]).toMatchObject({
      label: 'BONNET',
      repair_type: 'pdr',
      category: 'heavy',
      dents: { heavy: 2 },
      decision: null,
    });
    await open(token);
    expect((await deliveries(hook.id)).map((d) => d.event)).toEqual(['quote.viewed']);
    expect(await events(q.id)).toEqual(['quote.created', 'quote.sent', 'quote.viewed']);
  });

  it('takes a partial approval once: lines, total, name, signature, address; status, event, webhook and the signed PDF', async () => {
    const hook = await t.build.webhook({ agent_id: agent.id, events: ['quote.approved', 'quote.declined'] });
    const q = await savedQuote();
    const { token } = await sentLink(q.id);
    const body = await fullAnswer(token, [`dent:${roof}`]);
    const res = await answer(token, body, '10.88.0.1');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json().data;
    expect(page.state).toBe('answered');
    expect(page.answer).toMatchObject({ status: 'partially_approved', signer_name: 'Pat Customer' });
    expect(page.quote.lines.find((l: { key: string }) => l.key === `dent:${roof}`)).toMatchObject({
      decision: 'declined',
      reason: 'Not now',
    });
    // The signed PDF is made after the reply.
    await t.app.background.settled();
    const row = (
      await sql<{ ip_address: string; user_agent: string; signature: Buffer; approved_total: string; signed_pdf_key: string }>`
        select ip_address, user_agent, signature, approved_total, signed_pdf_key from quote_approvals where quote_id = ${q.id}`.execute(
        t.db,
      )
    ).rows[0];
    expect(row).toMatchObject({ ip_address: '10.88.0.1', user_agent: 'Approval test' });
    expect(row.signature.subarray(1, 4).toString()).toBe('PNG');
    const approved = page.quote.lines.filter((l: { decision: string }) => l.decision === 'approved');
    const sub = approved.reduce((s: number, l: { amount: number }) => s + l.amount, 0);
    expect(Number(row.approved_total)).toBeCloseTo(sub * 1.1, 2);
    expect(page.answer.approved_total).toBeCloseTo(sub * 1.1, 2);
    expect((await quoteRow(q.id)).status).toBe('partially_approved');
    expect(await events(q.id)).toEqual(['quote.created', 'quote.sent', 'quote.viewed', 'quote.partially_approved']);
    // The history names the declined line with its work (a panel may have a dent and a scratch line).
    const history = (await t.as(agentUser, { method: 'GET', url: `/api/quote/quotes/${q.id}/history` })).json().data;
    expect(declinedLinesText(history.at(-1).after.declined_lines, 'en')).toBe('ROOF – Conventional: Not now');
    expect(declinedLinesText(history.at(-1).after.declined_lines, 'ja')).toBe('ROOF – 板金: Not now');
    const csv = (await t.as(agentUser, { method: 'GET', url: `/api/quote/quotes/${q.id}/history?format=csv` })).body;
    expect(csv).toContain('ROOF – Conventional: Not now');
    const sent = await deliveries(hook.id);
    expect(sent.map((d) => d.event)).toEqual(['quote.approved']);
    expect(sent[0].payload.data).toMatchObject({
      status: 'partially_approved',
      declined_lines: [{ key: `dent:${roof}`, reason: 'Not now' }],
    });
    // The signed PDF: the lines, the name and the time; linked from the quote.
    const quote = (await t.as(agentUser, { method: 'GET', url: `/api/quote/quotes/${q.id}` })).json().data;
    expect(quote.status).toBe('partially_approved');
    expect(quote.approval.signed_pdf_url).toContain(row.signed_pdf_key);
    // Its link opens it (a document: for the users whose scope reaches the quote).
    const served = await t.app.inject({ method: 'GET', url: quote.approval.signed_pdf_url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    const pdf = await storageOf(t.app).get(row.signed_pdf_key);
    const text = pdfLines(pdf!.data).join('\n');
    expect(text).toContain('Approved estimate');
    // Each line's work as the invoice names it, not its stored code; a product not named twice.
    expect(text).toMatch(/BONNET\s+PDR \(Heavy\)/);
    expect(text).not.toMatch(/\bpdr\b/);
    expect(text).toContain('Declined');
    expect(text).toContain('Pat Customer');
    expect(text).toMatch(/Signed at: \d{2}-\d{2}-\d{4}/);
  });

  it('a used, revoked, expired or tampered link answers its page and changes nothing', async () => {
    // Used.
    const used = await savedQuote();
    const u = await sentLink(used.id);
    expect((await answer(u.token, await fullAnswer(u.token))).statusCode).toBe(200);
    const again = await answer(u.token, await fullAnswer(u.token));
    expect(again.statusCode).toBe(409);
    expect((await quoteRow(used.id)).status).toBe('approved');

    // Revoked from Quote Generation.
    const revoked = await savedQuote();
    const r = await sentLink(revoked.id);
    const body = await fullAnswer(r.token);
    const rev = await t.as(agentUser, { method: 'DELETE', url: `/api/quote/quotes/${revoked.id}/approval` });
    expect(rev.statusCode, rev.body).toBe(200);
    expect(rev.json().data.status).toBe('revoked');
    expect((await open(r.token)).json().data).toMatchObject({ state: 'revoked', quote: null, agent: { name: 'Approval agent' } });
    expect((await answer(r.token, body)).statusCode).toBe(410);
    expect((await quoteRow(revoked.id)).status).toBe('revoked');

    // Expired: lazily, once, with quote.expired.
    const hook = await t.build.webhook({ agent_id: agent.id, events: ['quote.expired'] });
    const expired = await savedQuote();
    const e = await sentLink(expired.id);
    const eBody = await fullAnswer(e.token);
    await sql`update quote_approvals set expires_at = now() - interval '1 minute' where quote_id = ${expired.id}`.execute(t.db);
    expect((await answer(e.token, eBody)).statusCode).toBe(410);
    expect((await open(e.token)).json().data).toMatchObject({ state: 'expired', quote: null });
    expect((await quoteRow(expired.id)).status).toBe('expired');
    expect((await deliveries(hook.id)).map((d) => d.event)).toEqual(['quote.expired']);
    expect((await events(expired.id)).filter((a) => a === 'quote.expired')).toHaveLength(1);

    // Tampered: one character changed.
    const tampered = await savedQuote();
    const tp = await sentLink(tampered.id);
    const wrong = tp.token.slice(0, -1) + (tp.token.endsWith('A') ? 'B' : 'A');
    expect((await open(wrong)).statusCode).toBe(404);
    expect((await answer(wrong, await fullAnswer(tp.token))).statusCode).toBe(404);
    expect((await open('short')).statusCode).toBe(404);
    expect((await quoteRow(tampered.id)).status).toBe('sent');
    const answered = await sql<{
      n: number;
    }>`select count(*)::int as n from quote_approvals where quote_id = ${tampered.id} and decided_at is not null`.execute(t.db);
    expect(answered.rows[0].n).toBe(0);
    // No token reached the request log, though every request above was logged.
    const log = logLines.join('');
    expect(log).toContain('/api/quote/approvals/[redacted]');
    for (const token of [u.token, r.token, e.token, tp.token]) expect(log).not.toContain(token);
  });

  it('refuses bad answers with 422 naming the field', async () => {
    const q = await savedQuote();
    const { token } = await sentLink(q.id);
    const good = await fullAnswer(token);
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ signer_name: '' }, { signer_name: 'Full name is required' }],
      [{ terms_accepted: false }, { terms_accepted: 'The terms must be accepted' }],
      [{ signature: 'data:image/jpeg;base64,AAAA' }, { signature: 'Signature must be a PNG image' }],
      [{ signature: 'data:image/png;base64,AAAA' }, { signature: 'Signature must be a PNG image' }],
      [
        { decisions: [{ key: `dent:${bonnet}`, decision: 'declined' }, ...good.decisions.slice(1)] },
        { 'decisions.0.reason': 'A reason is required to decline a line' },
      ],
      [{ decisions: good.decisions.slice(1) }, { decisions: 'Every line must be approved or declined' }],
      [
        { decisions: [...good.decisions, { key: 'dent:999999', decision: 'approved' }] },
        { 'decisions.3.key': 'The selected line is invalid' },
      ],
      // Limits that allow their own figure say 'at most'.
      [{ signer_name: 'N'.repeat(201) }, { signer_name: 'Full name must be at most 200 characters' }],
      [
        { decisions: [{ ...good.decisions[0], decision: 'declined', reason: 'r'.repeat(1001) }, ...good.decisions.slice(1)] },
        { 'decisions.0.reason': 'Reason must be at most 1000 characters' },
      ],
      [{ decisions: Array.from({ length: 501 }, () => good.decisions[0]) }, { decisions: 'Decisions may hold at most 500 items' }],
    ];
    for (const [over, error] of cases) {
      const res = await answer(token, { ...good, ...over });
      expect(res.statusCode, JSON.stringify(over)).toBe(422);
      expect(res.json().error, JSON.stringify(over)).toMatchObject(error);
    }
    expect((await quoteRow(q.id)).status).toBe('sent');
  });

  it('throttles 20 wrong tokens a minute from one address, then refuses even a good one', async () => {
    const { token } = await sentLink((await savedQuote()).id);
    const ip = '10.99.0.1';
    const wrong = 'x'.repeat(43);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await open(wrong, ip)).statusCode);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(404));
    expect(statuses[20]).toBe(429);
    expect((await open(token, ip)).statusCode).toBe(429);
    // Another address is not held back, and good tokens do not count.
    for (let i = 0; i < 25; i++) expect((await open(token, '10.99.0.2')).statusCode).toBe(200);
  });
});
