import { expect, test } from '@playwright/test';
import { toCents } from '../../src/domain/money';
import { previewGstPercent, toEvaluation } from '../../src/custom/quote-generation/evaluation';
import { initialForm, onePerCarPanel, pricingOf, visiblePanels } from '../../src/custom/quote-generation/quoteForm';
import { apiGet, apiToken, openSignedIn } from './helpers';

/**
 * The scan page's agent viewer quotes the scan: products, parts and comments, then 'Save and Generate
 * Quote' through `POST quotes` (JSON). The stored figures are the pricing engine's.
 */

interface Quote {
  id: number;
  scan_id: number;
  pdf: string | null;
  gst_percent: number;
  products: { value: number; text: string; price: number }[];
  parts: { text: string; value: string }[];
  assessor_comments: string | null;
  items: Record<string, { panel_id: number; repair_type: string | null; category: string | null; lineTotal: number }>;
  totals: Record<
    'pdr' | 'conventional' | 'p2p' | 'replacement' | 'paint' | 'tyre' | 'product' | 'sub_total' | 'tax' | 'grant_total',
    number
  >;
}

test('agent viewer: products, parts and comments saved with Save and Generate Quote; the stored figures are the engine’s', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const agent = await apiToken(request, 'agent@demo.test');
  // An uploaded body scan of the agent's, with dents and a client, not quoted yet.
  const rows = await apiGet<{ id: number; dentCount: number; client_id: number | null; has_quote: boolean }[]>(
    request,
    agent,
    '/api/scan/scans?type=arch&status=uploaded&per_page=100',
  );
  const scan = rows.find((r) => r.dentCount > 0 && r.client_id !== null && !r.has_quote);
  expect(scan, "an agent's dented scan without a quote").toBeTruthy();
  const evaluation = toEvaluation(await apiGet(request, agent, `/api/scan/scans/${scan!.id}/evaluate`))!;
  expect(evaluation.productIds.length, 'the client offers products').toBeGreaterThan(0);

  await openSignedIn(page, 'agent@demo.test', `/scans/${scan!.id}`);
  const quote = page.getByRole('region', { name: 'Quote', exact: true });
  await expect(quote.getByRole('button', { name: 'Save and Generate Quote' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^View Quote/ })).toHaveCount(0);

  const products = quote.getByRole('region', { name: 'Add Products' });
  // The client's products arrive with their own request: a menu opened before them is empty, so open it again.
  await expect(async () => {
    await page.keyboard.press('Escape');
    await products.getByRole('combobox', { name: 'Product' }).click();
    await expect(page.getByRole('option').first()).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 60_000 });
  await page.getByRole('option').first().click();
  await products.getByRole('spinbutton', { name: 'Price' }).fill('40');
  const parts = quote.getByRole('region', { name: 'Add Parts' });
  await parts.getByRole('combobox', { name: 'Parts' }).fill('  Wheel Nut ');
  await parts.getByRole('combobox', { name: 'Parts' }).press('Enter');
  await expect(parts.getByRole('button', { name: 'Wheel Nut' })).toBeVisible();
  await quote.getByRole('textbox', { name: 'Comments' }).fill('Quoted from the scan page');

  // The save held back a moment, to see its busy state.
  await page.route('**/api/quote/quotes', async (route) => {
    if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/quote/quotes') && r.request().method() === 'POST');
  await quote.getByRole('button', { name: 'Save and Generate Quote' }).click();
  await expect(quote.getByRole('button', { name: 'Loading..' })).toBeDisabled();
  const reply = await saved;
  expect(reply.status()).toBe(201);
  // The JSON variant, not multipart.
  expect(reply.request().headers()['content-type']).toContain('application/json');
  const sent = reply.request().postDataJSON() as { scan_id: number; client_id: number; items: Record<string, unknown> };
  expect(sent).toMatchObject({ scan_id: scan!.id, client_id: evaluation.client.id });
  const id = ((await reply.json()) as { data: { id: number } }).data.id;
  await expect(page.getByText('Quote Generated')).toBeVisible();
  await expect(quote.getByRole('button', { name: 'Save and Generate Quote' })).toBeEnabled();

  // The stored quote, as the API gives it: every figure is the engine's for the same choices.
  const stored = await apiGet<Quote>(request, agent, `/api/quote/quotes/${id}`);
  expect(stored.scan_id).toBe(scan!.id);
  expect(stored.parts).toEqual([{ text: 'Wheel Nut', value: 'wheel nut' }]);
  expect(stored.assessor_comments).toBe('Quoted from the scan page');
  expect(stored.products).toHaveLength(1);
  expect(stored.products[0].price).toBe(40);
  const form = {
    ...initialForm(evaluation.panels, evaluation.measures, null),
    products: [{ value: String(stored.products[0].value), text: stored.products[0].text, price: '40' }],
  };
  const gst = previewGstPercent(evaluation, null);
  expect(stored.gst_percent).toBe(gst);
  const engine = pricingOf(form, onePerCarPanel(visiblePanels(evaluation.panels, 'D')), evaluation.client, gst, evaluation.tyres);
  const t = engine.totals;
  expect(Object.fromEntries(Object.entries(stored.totals).map(([k, v]) => [k, toCents(v)]))).toEqual({
    pdr: t.pdr,
    conventional: t.conventional,
    p2p: t.p2p,
    replacement: t.replacement,
    paint: t.paint,
    tyre: t.tyre,
    product: t.product,
    sub_total: t.sub_total,
    tax: t.tax,
    grant_total: t.grand_total,
  });
  const dentLines = engine.lines.filter((l) => l.kind === 'dent');
  expect(dentLines.length, 'the scan has priced panels').toBeGreaterThan(0);
  for (const line of dentLines) {
    const item = stored.items[String(line.panel_id)];
    expect(item, `panel ${line.panel_id}`).toBeTruthy();
    expect(item.repair_type).toBe(line.repair_type);
    expect(toCents(item.lineTotal)).toBe(line.line_total);
  }
  expect(t.sub_total).toBeGreaterThan(t.product);

  // After the save: the result with its invoice, and the scan's Reports give its PDF as 'View Quote'.
  await expect(quote.getByRole('status')).toContainText(`Saved quote #${id}`);
  await expect(quote.getByRole('link', { name: 'Open the invoice' })).toHaveAttribute('href', `/quotes/${id}/invoice`);
  const view = page.getByRole('region', { name: 'Reports' }).getByRole('link', { name: /^View Quote/ });
  // A link signed for the user when the scan page read the scan: the same document as the saved quote's.
  const pdfPath = stored.pdf!.split('?')[0];
  await expect(view).toHaveAttribute('href', new RegExp(`^${pdfPath.replace(/[.]/g, '\\.')}\\?expires=\\d+&uid=\\d+&sig=`));
  expect((await request.get((await view.getAttribute('href'))!)).headers()['content-type']).toBe('application/pdf');
  expect((await request.get(stored.pdf!)).headers()['content-type']).toBe('application/pdf');

  // Reopened, the quote's products, parts and comments are loaded; saving again keeps its number.
  await page.unroute('**/api/quote/quotes');
  await page.reload();
  await expect(quote.getByRole('textbox', { name: 'Comments' })).toHaveValue('Quoted from the scan page');
  await expect(parts.getByRole('button', { name: 'Wheel Nut' })).toBeVisible();
  await expect(products.getByRole('spinbutton', { name: 'Price' })).toHaveValue('40');
  await expect(products.getByRole('combobox', { name: 'Product' })).toHaveText(stored.products[0].text);
  const again = page.waitForResponse((r) => r.url().endsWith('/api/quote/quotes') && r.request().method() === 'POST');
  await quote.getByRole('button', { name: 'Save and Generate Quote' }).click();
  const second = await again;
  expect(second.status()).toBe(200);
  expect(((await second.json()) as { data: { id: number } }).data.id).toBe(id);

  await quote.getByRole('link', { name: 'Open the invoice' }).click();
  await expect(page).toHaveURL(new RegExp(`/quotes/${id}/invoice$`));
  await expect(page.getByRole('heading', { level: 1, name: `ESTIMATE # ${id}` })).toBeVisible();
});

test("normal viewer: 'Request quote check' asks for a check of the scan's quote without pricing it again; without a quote it is disabled", async ({
  page,
  request,
}) => {
  const admin = await apiToken(request, 'admin@demo.test');
  const quotes = await apiGet<{ id: number; scan_id: number; grant_total: number }[]>(request, admin, '/api/quote/quotes?per_page=50');
  const rows = await apiGet<{ id: number; has_quote: boolean }[]>(request, admin, '/api/scan/scans?status=uploaded&per_page=100');
  const quoted = quotes[0];
  const unquoted = rows.find((r) => !r.has_quote)!;
  const before = await apiGet<Quote & { manual_check: number }>(request, admin, `/api/quote/quotes/${quoted.id}`);

  await openSignedIn(page, 'admin@demo.test', `/scans/${unquoted.id}`);
  const area = page.getByRole('region', { name: 'Quote', exact: true });
  await expect(area.getByRole('checkbox', { name: 'Request quote check' })).toBeDisabled();
  await expect(area.getByText('A quote check can be requested once the scan has a quote.')).toBeVisible();
  await expect(area.getByRole('button', { name: 'Save and Generate Quote' })).toHaveCount(0);

  await page.goto(`/scans/${quoted.scan_id}`);
  const box = area.getByRole('checkbox', { name: 'Request quote check' });
  await expect(box).toBeEnabled();
  await expect(box).toBeChecked({ checked: before.manual_check === 1 });
  const put = page.waitForResponse((r) => r.url().endsWith(`/api/quote/quotes/${quoted.id}/manual_check`));
  await box.click();
  expect((await put).status()).toBe(200);
  await expect(page.getByText(before.manual_check === 1 ? 'Quote check request withdrawn' : 'Quote check requested')).toBeVisible();
  const after = await apiGet<Quote & { manual_check: number }>(request, admin, `/api/quote/quotes/${quoted.id}`);
  expect(after.manual_check).toBe(before.manual_check === 1 ? 0 : 1);
  // The flag alone: the figures are the issued ones.
  expect(after.totals).toEqual(before.totals);
  await page.reload();
  await expect(area.getByRole('checkbox', { name: 'Request quote check' })).toBeChecked({ checked: after.manual_check === 1 });
});
