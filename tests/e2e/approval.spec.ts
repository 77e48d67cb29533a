import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { apiGet, apiToken, bearer, drawSignature, expectAccessibleAndFitting, linkMailedTo, openSignedIn, pdfLines } from './helpers';

interface Quote {
  id: number;
  scan_id: number;
  agent_id: number;
  status: string;
  grant_total: number;
  approval: { signed_pdf_url: string | null } | null;
}

/** Axe's serious and critical violations on the page as it is, and whether it scrolls sideways. */

test.describe('approval by link', () => {
  test('send for approval, decline one line and approve the rest by the link, sign: Quote Generation shows it live, the history, the signed PDF, and a receiver verifies every webhook', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const quotes = await apiGet<Quote[]>(request, admin, '/api/quote/quotes?per_page=50');
    const candidates = quotes.filter((q) => q.status === 'draft' && q.grant_total > 0);
    let quote: Quote | null = null;
    for (const c of candidates) {
      const detail = await apiGet<
        Quote & { items: Record<string, { lineTotal: number }>; products: unknown[]; agent: { language?: string | null } }
      >(request, admin, `/api/quote/quotes/${c.id}`);
      // An English agent's quote: the page opens in English and the customer switches to Japanese and back.
      if (detail.agent.language === 'ja') continue;
      if (Object.values(detail.items).filter((i) => i.lineTotal > 0).length + detail.products.length >= 2) {
        quote = detail;
        break;
      }
    }
    expect(quote, 'a demo draft quote with two lines or more').not.toBeNull();
    const recipient = `approve.${Date.now()}@example.test`;

    // A receiver on this machine, subscribed to the approval events of the quote's agent, verifies each delivery
    // with the Standard Webhooks library and the secret the webhook panel shows.
    let secret = '';
    const received: { type: string; data: { quote_id?: number; declined_lines?: unknown[] } }[] = [];
    const refused: string[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        try {
          received.push(new Webhook(secret).verify(body, req.headers as Record<string, string>) as (typeof received)[number]);
        } catch (error) {
          refused.push(String(error));
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = await request.post('/api/agent/webhooks', {
      headers: bearer(admin),
      data: {
        agent_id: quote!.agent_id,
        endpoint: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/approvals`,
        events: ['quote.sent', 'quote.viewed', 'quote.approved', 'quote.declined'],
      },
    });
    expect(hook.status(), await hook.text()).toBe(201);
    secret = ((await hook.json()) as { data: { secret: string } }).data.secret;
    expect(secret).toMatch(/^whsec_/);

    await openSignedIn(page, 'admin@demo.test', `/quotes/${quote!.scan_id}`);
    const summary = page.getByTestId('quote-summary');
    await expect(summary).toContainText('Draft');
    const card = page.getByRole('region', { name: 'Send for approval' });
    await card.getByRole('button', { name: 'Send for approval' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send the estimate for approval' });
    await dialog.getByLabel('Recipient').fill(recipient);
    await dialog.getByRole('button', { name: 'Send for approval' }).click();
    await expect(dialog).toBeHidden();
    await expect(summary).toContainText('Sent');

    const link = await linkMailedTo(baseURL!, recipient);
    expect(link).not.toBeNull();

    // The customer: another browser, never signed in.
    const customer = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const approve = await customer.newPage();
    await approve.goto(link!);
    await expect(approve.getByRole('heading', { name: 'Estimate for approval' })).toBeVisible();
    // The page opens in the agent's language; the customer's switch holds. A switch back to English made while the
    // Japanese words are still downloading holds too.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await approve.route(/\/assets\/ja-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await approve.getByRole('button', { name: '日本語' }).click();
    await approve.getByRole('button', { name: 'English' }).click();
    const japanese = approve.waitForResponse(/\/assets\/ja-[^/]+\.js$/);
    release();
    await japanese;
    await approve.waitForTimeout(500);
    await expect(approve.getByRole('heading', { name: 'Estimate for approval' })).toBeVisible();
    await expect(approve.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
    await expect(approve.locator('html')).toHaveAttribute('lang', 'en');
    await approve.getByRole('button', { name: '日本語' }).click();
    await expect(approve.getByRole('heading', { name: '承認のための見積' })).toBeVisible();
    await expect(approve.locator('html')).toHaveAttribute('lang', 'ja');
    await approve.waitForTimeout(500);
    await expect(approve.getByRole('heading', { name: '承認のための見積' })).toBeVisible();
    await approve.getByRole('button', { name: 'English' }).click();
    await expect(approve.getByRole('heading', { name: 'Estimate for approval' })).toBeVisible();
    const lines = approve.getByRole('listitem');
    await expect(lines.first()).toBeVisible();
    // Each line says its work as the invoice does ('Bonnet – PDR (Heavy)'), never a stored code.
    const headings = await lines.getByRole('heading').allTextContents();
    expect(
      headings.some((h) => / – (PDR|Conventional|Replace|Push to Paint)( \(\w+\))?$/.test(h)),
      headings.join(' | '),
    ).toBe(true);
    expect(headings.filter((h) => / – (pdr|conventional|replacement|p2p|spot|paint)\b/.test(h))).toEqual([]);
    await expectAccessibleAndFitting(approve);
    // Pressed too early, the page says what is missing, until every part is done.
    const missing = approve.getByText('Decide every line, give a reason for each declined one, accept the terms, type your name and sign.');
    await approve.getByRole('button', { name: 'Sign and send' }).click();
    await expect(missing).toBeVisible();
    const count = await lines.count();
    expect(count).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < count; i++) {
      const line = lines.nth(i);
      if (i === 0) {
        await line.getByRole('button', { name: 'Decline' }).click();
        await line.getByLabel('Reason for declining').fill('Not this panel');
      } else await line.getByRole('button', { name: 'Approve' }).click();
    }
    await approve.getByLabel('I accept the terms and conditions').check();
    await approve.getByLabel('Full name').fill('Pat Customer');
    await drawSignature(approve);
    await expect(missing).toHaveCount(0);
    await approve.getByRole('button', { name: 'Sign and send' }).click();
    await expect(approve.getByText('You approved part of the estimate.')).toBeVisible();
    await expect(approve.getByText('Declined: Not this panel')).toBeVisible();
    await expectAccessibleAndFitting(approve);
    // Nothing is offered to answer again.
    await expect(approve.getByRole('button', { name: 'Sign and send' })).toHaveCount(0);
    await customer.close();

    // The assessor's screen follows without a reload.
    await expect(summary).toContainText('Partially approved');
    const history = page.getByRole('region', { name: 'History' });
    for (const step of ['Sent for approval', 'Approval link opened', 'Partially approved by the customer'])
      await expect(history.getByText(step).first()).toBeVisible();
    // The declined line in words, with the customer's reason (not the stored text).
    await expect(history.getByText(/^Declined lines: — → .+ – .+: Not this panel$/)).toBeVisible();

    const saved = await apiGet<Quote>(request, admin, `/api/quote/quotes/${quote!.id}`);
    expect(saved.status).toBe('partially_approved');
    const text = (await pdfLines(request, saved.approval!.signed_pdf_url!)).join('\n');
    expect(text).toContain('Approved estimate');
    expect(text).toContain('Declined');
    expect(text).toContain('Pat Customer');
    expect(text).toMatch(/Signed at: \d{2}-\d{2}-\d{4}/);

    // Every event reached the receiver signed: sent, viewed, and the partial approval with the declined line.
    await expect
      .poll(() => received.map((m) => m.type).sort(), { timeout: 30_000 })
      .toEqual(['quote.approved', 'quote.sent', 'quote.viewed']);
    expect(refused).toEqual([]);
    for (const m of received) expect(m.data.quote_id).toBe(quote!.id);
    expect(received.find((m) => m.type === 'quote.approved')!.data.declined_lines).toHaveLength(1);
    receiver.close();
  });

  test('a link revoked while the customer has its page open: signing then shows the ended link and whom to ask', async ({
    request,
    browser,
    baseURL,
  }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const headers = bearer(admin);
    // A priced draft quote of a dented arch scan from the end of the first page: other tests take the first one's.
    const scans = await apiGet<{ id: number; client_id: number | null; dentCount: number }[]>(
      request,
      admin,
      '/api/scan/scans?type=arch&status=uploaded&per_page=25&page=1',
    );
    let quote: Quote | null = null;
    for (const s of scans.filter((c) => c.client_id !== null && c.dentCount > 0).reverse()) {
      const found = await request.post('/api/quote/quotes/search', { headers, data: { scan_id: s.id } });
      const existing = ((await found.json()) as { data?: Quote | null }).data;
      if (existing?.status === 'draft' && existing.grant_total > 0) {
        quote = existing;
        break;
      }
    }
    expect(quote, 'a priced draft quote of a dented demo arch scan').not.toBeNull();
    const recipient = `revoked.${Date.now()}@example.test`;
    expect((await request.post(`/api/quote/quotes/${quote!.id}/approval`, { headers, data: { recipient } })).ok()).toBe(true);
    const link = await linkMailedTo(baseURL!, recipient);

    const customer = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'en-AU' });
    const approve = await customer.newPage();
    // The customer picks a language while the estimate is still on its way: the choice stays once it arrives.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await approve.route(
      '**/api/quote/approvals/**',
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await approve.goto(link!);
    await approve.getByRole('button', { name: '日本語' }).click();
    release();
    await expect(approve.getByRole('img', { name: /署名|Signature/ })).toBeVisible();
    await expect(approve.getByRole('heading', { name: '承認のための見積' })).toBeVisible();
    await approve.getByRole('button', { name: 'English' }).click();
    // Every line asked (a supplement's unchanged lines carry their earlier answer and ask nothing).
    const approveButtons = approve.getByRole('button', { name: 'Approve' });
    await expect(approveButtons.first()).toBeVisible();
    for (let i = 0; i < (await approveButtons.count()); i++) await approveButtons.nth(i).click();
    await approve.getByLabel('I accept the terms and conditions').check();
    await approve.getByLabel('Full name').fill('Pat Customer');
    // Signed from the keyboard: the next stop after the name writes it on the pad.
    await approve.getByLabel('Full name').press('Tab');
    await expect(approve.getByRole('button', { name: 'Sign with my typed name' })).toBeFocused();
    await approve.keyboard.press('Enter');
    const ink = await approve.getByRole('img', { name: 'Signature' }).evaluate((c: HTMLCanvasElement) =>
      c
        .getContext('2d')!
        .getImageData(0, 0, c.width, c.height)
        .data.some((v, i) => i % 4 === 3 && v > 0),
    );
    expect(ink).toBe(true);

    // Meanwhile the agent revokes the link.
    expect((await request.delete(`/api/quote/quotes/${quote!.id}/approval`, { headers })).ok()).toBe(true);
    await approve.getByRole('button', { name: 'Sign and send' }).click();
    await expect(approve.getByText('This approval link is no longer valid.')).toBeVisible();
    await expect(approve.getByText(/^To receive a new link, contact /)).toBeVisible();
    await expect(approve.getByRole('button', { name: 'Sign and send' })).toHaveCount(0);
    expect((await apiGet<Quote>(request, admin, `/api/quote/quotes/${quote!.id}`)).status).toBe('revoked');
    await customer.close();
  });

  test('a link that names nothing says so', async ({ page }) => {
    await page.goto(`/approve/${'x'.repeat(43)}`);
    await expect(page.getByText('This approval link is not valid.')).toBeVisible();
  });
});
