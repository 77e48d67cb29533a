import { type APIRequestContext, expect, test } from '@playwright/test';
import { apiGet, apiToken, bearer, drawSignature, expectAccessibleAndFitting, linkMailedTo, openSignedIn, pdfLines } from './helpers';

interface Item {
  label: string;
  repair_type: string | null;
  lineTotal: number;
  scratch?: { lineTotal?: number } | null;
}
interface Quote {
  id: number;
  scan_id: number;
  status: string;
  revision: number;
  grant_total: number;
  currency: string;
  items: Record<string, Item>;
  products: unknown[];
  agent: { language?: string | null };
}
interface Revisions {
  revisions: { number: number; label: string | null; status: string; pdf: string | null }[];
}

// A drawn signature is a PNG: one black pixel will do for the customer's side of this test.
const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** An amount as the screens print it in the quote's currency. */
const money = (amount: number, currency: string) =>
  `${currency}${amount.toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const escape = (s: string) => s.replace(/[$.+*?()[\]{}|^\\]/g, (c) => `\\${c}`);

/** The first demo draft quote with a total whose detail `fits`, from the newest or the oldest of the list's first 50. */
async function demoDraftQuote(request: APIRequestContext, admin: string, fits: (q: Quote) => boolean, from: 'newest' | 'oldest') {
  const list = await apiGet<Quote[]>(request, admin, '/api/quote/quotes?per_page=50');
  const drafts = list.filter((q) => q.status === 'draft' && q.grant_total > 0);
  for (const c of from === 'newest' ? drafts.reverse() : drafts) {
    const detail = await apiGet<Quote>(request, admin, `/api/quote/quotes/${c.id}`);
    if (fits(detail)) return detail;
  }
  return null;
}

/** Sends the quote for approval to `recipient` and answers the mailed link through the API, approving every line. */
async function approvedByLink(request: APIRequestContext, admin: string, baseURL: string, quoteId: number, recipient: string) {
  const sent = await request.post(`/api/quote/quotes/${quoteId}/approval`, {
    headers: bearer(admin),
    data: { recipient },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const token = (await linkMailedTo(baseURL, recipient))!.split('/').pop();
  const page = (await (await request.get(`/api/quote/approvals/${token}`)).json()) as { data: { quote: { lines: { key: string }[] } } };
  const answered = await request.post(`/api/quote/approvals/${token}`, {
    data: {
      decisions: page.data.quote.lines.map((l) => ({ key: l.key, decision: 'approved' })),
      terms_accepted: true,
      signer_name: 'Pat Customer',
      signature: SIGNATURE,
    },
  });
  expect(answered.status(), await answered.text()).toBe(200);
  return page.data.quote.lines;
}

test('an approved quote edited on Quote Generation becomes S1 with its changes; its link asks only the changed line; the original stays as sent', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await apiToken(request, 'admin@demo.test');
  // A demo draft quote with a PDR panel priced without a scratch line (so repairing it conventionally changes one line) and another line.
  const priced = (q: Quote) => Object.values(q.items).filter((i) => i.lineTotal > 0);
  const pdrOf = (q: Quote) => priced(q).find((i) => i.repair_type === 'pdr' && !(i.scratch?.lineTotal && i.scratch.lineTotal > 0));
  const quote = await demoDraftQuote(request, admin, (q) => !!pdrOf(q) && priced(q).length + q.products.length >= 2, 'newest');
  expect(quote, 'a demo draft quote with a PDR panel and another line').not.toBeNull();
  const panel = pdrOf(quote!)!;

  // Approved by its link: every line.
  const first = `first.${Date.now()}@example.test`;
  const lines0 = await approvedByLink(request, admin, baseURL!, quote!.id, first);
  const original = await apiGet<Revisions>(request, admin, `/api/quote/quotes/${quote!.id}/revisions`);
  expect(original.revisions.map((r) => [r.number, r.status])).toEqual([[0, 'approved']]);
  const originalPdf = await pdfLines(request, original.revisions[0].pdf!);

  // The assessor repairs the panel conventionally and saves: S1, a draft, with its changes.
  await openSignedIn(page, 'admin@demo.test', `/quotes/${quote!.scan_id}`);
  const summary = page.getByTestId('quote-summary');
  await expect(summary).toContainText('Approved');
  const card = page.getByRole('region', { name: panel.label, exact: true });
  await card.getByRole('combobox', { name: 'Repair Type' }).click();
  await page.getByRole('option', { name: 'Conventional' }).click();
  await page.getByRole('button', { name: 'Save and Generate Quote' }).click();
  await expect(page).toHaveURL(/\/quotes\/\d+\/invoice$/);
  const s1 = await apiGet<Quote>(request, admin, `/api/quote/quotes/${quote!.id}`);
  expect(s1).toMatchObject({ revision: 1, status: 'draft' });
  // The invoice says it is the supplement, as its PDF does.
  await expect(page.getByText('Supplement S1', { exact: true })).toBeVisible();
  // And lists its changes above its lines, worded as on the PDF.
  const invoiceChanges = page.getByRole('region', { name: 'Supplement S1 — changes since the original estimate' });
  await expect(invoiceChanges.getByRole('row')).toHaveCount(3);
  await expect(invoiceChanges.getByRole('row').nth(1)).toContainText(
    new RegExp(`${panel.label}Changed: PDR \\(\\w+\\) \\S+ to Conventional`),
  );

  await page.goto(`/quotes/${quote!.scan_id}`);
  await expect(summary).toContainText('S1');
  await expect(summary).toContainText('Draft');
  const changes = page.getByRole('region', { name: 'Changes since the original estimate' });
  await expect(changes.getByRole('listitem')).toHaveCount(1);
  // The work as the invoice names it (its level beside a pdr repair), not the stored code.
  await expect(changes.getByRole('listitem')).toContainText(new RegExp(`Changed ${panel.label}: PDR \\(\\w+\\) \\S+ → Conventional`));
  await expect(changes.getByTestId('changes-total')).toHaveText(new RegExp(`^${escape(money(quote!.grant_total, quote!.currency))} → `));
  await expect(page.getByRole('region', { name: 'Revisions' })).toContainText('Original estimate');
  // The original's answer keeps its signed PDF; the card's link is the original's, and says so.
  await expect(page.getByRole('link', { name: 'Signed answer (PDF): Original estimate' })).toBeVisible();
  await expect(page.getByTestId('approval-link-state')).toHaveText(new RegExp(`^Original estimate: Link sent to ${escape(first)} on `));

  // S1 sent: its link asks only about the changed line; the others carry the earlier approval.
  const second = `second.${Date.now()}@example.test`;
  const approvalCard = page.getByRole('region', { name: 'Send for approval' });
  await approvalCard.getByRole('button', { name: 'Send for approval' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send the estimate for approval' });
  // It proposes whom the original went to (who answered it).
  await expect(dialog.getByLabel('Recipient')).toHaveValue(first);
  await dialog.getByLabel('Recipient').fill(second);
  await dialog.getByRole('button', { name: 'Send for approval' }).click();
  await expect(dialog).toBeHidden();
  await expect(summary).toContainText('Sent');
  const link1 = await linkMailedTo(baseURL!, second);
  const customer = await browser.newContext();
  const approve = await customer.newPage();
  await approve.goto(link1!);
  // The page speaks the agent's language: one decision asked, the others carried.
  const ja = quote!.agent.language === 'ja';
  const decisions = approve.getByRole('group', { name: ja ? / の判断$/ : /^Your decision for / });
  await expect(approve.getByRole('group', { name: new RegExp(panel.label) })).toBeVisible();
  await expect(decisions).toHaveCount(1);
  // It says it is the supplement, and what the changed line was.
  await expect(approve.getByRole('heading', { level: 2 }).first()).toHaveText(
    ja ? `見積 #${quote!.id} の追加見積 S1` : `Supplement S1 to estimate #${quote!.id}`,
  );
  await expect(approve.getByTestId('line-change')).toHaveCount(1);
  await expect(approve.getByTestId('line-change')).toHaveText(ja ? /^変更前：PDR/ : /^Was PDR/);
  await expect(decisions).toHaveAccessibleName(ja ? `${panel.label} の判断` : `Your decision for ${panel.label}`);
  const carried = ja ? '（前回の回答：この明細は変更されていません）' : '(your earlier answer: this line has not changed)';
  await expect(approve.getByText(carried)).toHaveCount(lines0.length - 1);
  await customer.close();

  // The original's invoice and PDF are as they were sent.
  await page.goto(`/quotes/${quote!.id}/invoice?revision=0`);
  await expect(page.getByText('Original estimate')).toBeVisible();
  await expect(page.getByRole('region', { name: /changes since/ })).toHaveCount(0);
  await expect(page.getByText(money(quote!.grant_total, quote!.currency)).first()).toBeVisible();
  const after = await apiGet<Revisions>(request, admin, `/api/quote/quotes/${quote!.id}/revisions`);
  expect(after.revisions.map((r) => [r.number, r.label])).toEqual([
    [0, null],
    [1, 'S1'],
  ]);
  expect(await pdfLines(request, after.revisions[0].pdf!)).toEqual(originalPdf);

  // Revoking S1's link asks first; cancelled, nothing changes; confirmed, the card says when it was revoked.
  await page.goto(`/quotes/${quote!.scan_id}`);
  const state = page.getByTestId('approval-link-state');
  await expect(state).toHaveText(new RegExp(`^Link sent to ${escape(second)} on .+, valid until `));
  await approvalCard.getByRole('button', { name: 'Revoke link' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke the approval link?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(summary).toContainText('Sent');
  await approvalCard.getByRole('button', { name: 'Revoke link' }).click();
  await confirm.getByRole('button', { name: 'Revoke link' }).click();
  await expect(page.getByText('The approval link is revoked')).toBeVisible();
  await expect(state).toHaveText(new RegExp(`^Link sent to ${escape(second)} on .+, revoked on `));
  await expect(summary).toContainText('Revoked');
});

test('a supplement that only removes a line: the customer sees it removed, has nothing to decide and signs the lower total', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await apiToken(request, 'admin@demo.test');
  // A demo draft quote of an English-speaking agent, with a product; a second product is added so that one can be removed.
  const quote = await demoDraftQuote(request, admin, (q) => q.agent.language !== 'ja' && q.products.length > 0, 'oldest');
  expect(quote, 'a demo draft quote of an English-speaking agent, with a product').not.toBeNull();

  await openSignedIn(page, 'admin@demo.test', `/quotes/${quote!.scan_id}`);
  const products = page.getByRole('region', { name: 'Add Products' });
  // The first product no other row holds (choosing one twice is refused).
  const taken = (quote!.products as { text: string }[]).map((p) => p.text);
  await expect(products.getByRole('combobox', { name: 'Product' })).toHaveText(taken);
  await products.getByRole('button', { name: 'Add Product' }).click();
  const added = products.getByRole('combobox', { name: 'Product' }).last();
  await added.click();
  const free = (await page.getByRole('option').allTextContents()).find((name) => !taken.includes(name))!;
  await page.getByRole('option', { name: free, exact: true }).click();
  await expect(added).toHaveText(free);
  await page.getByRole('button', { name: 'Save and Generate Quote' }).click();
  await expect(page).toHaveURL(/\/quotes\/\d+\/invoice$/);

  // Sent and wholly approved by its link.
  await approvedByLink(request, admin, baseURL!, quote!.id, `removal.${Date.now()}@example.test`);

  // The assessor removes the added product: S1, a draft, that only removes a line.
  await page.goto(`/quotes/${quote!.scan_id}`);
  const summary = page.getByTestId('quote-summary');
  await expect(summary).toContainText('Approved');
  await products.getByRole('button', { name: 'Remove product' }).last().click();
  await page.getByRole('button', { name: 'Save and Generate Quote' }).click();
  await expect(page).toHaveURL(/\/quotes\/\d+\/invoice$/);
  expect(await apiGet<Quote>(request, admin, `/api/quote/quotes/${quote!.id}`)).toMatchObject({ revision: 1, status: 'draft' });

  // Sent from Quote Generation like any supplement.
  await page.goto(`/quotes/${quote!.scan_id}`);
  await page.getByRole('region', { name: 'Send for approval' }).getByRole('button', { name: 'Send for approval' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send the estimate for approval' });
  const second = `removal.s1.${Date.now()}@example.test`;
  await dialog.getByLabel('Recipient').fill(second);
  await dialog.getByRole('button', { name: 'Send for approval' }).click();
  await expect(dialog).toBeHidden();
  await expect(summary).toContainText('Sent');

  // The customer: the removed line is listed, nothing is asked, the signature confirms the lower total.
  const customer = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const approve = await customer.newPage();
  await approve.goto((await linkMailedTo(baseURL!, second))!);
  const removed = approve.getByRole('region', { name: 'Removed from the estimate' });
  await expect(removed.getByTestId('line-removed')).toHaveText([new RegExp(`^${escape(free)} `)]);
  await expect(approve.getByText(/^Nothing new to decide/)).toBeVisible();
  await expect(approve.getByRole('group', { name: /^Your decision for / })).toHaveCount(0);
  await expectAccessibleAndFitting(approve);
  await approve.getByLabel('I accept the terms and conditions').check();
  await approve.getByLabel('Full name').fill('Pat Customer');
  await drawSignature(approve);
  await approve.getByRole('button', { name: 'Sign and send' }).click();
  await expect(approve.getByText('You approved the estimate.')).toBeVisible();
  await customer.close();
  await expect(summary).toContainText('Approved');
});
