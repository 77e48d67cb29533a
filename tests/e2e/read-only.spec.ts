import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, bearer, defaultQuoteItems, openSignedIn, signIn } from './helpers';

/**
 * Viewing and changing: the Client role holds `scan` without `scan_edit` and `quote_edit`. client@demo.test
 * reads a scan and its quote through the real server and has nothing to change them with; the invoice and its PDF open.
 */

interface Scan {
  id: number;
  make: string | null;
  dentCount: number;
  updated_at: string;
  annotates: unknown[];
}
interface Quote {
  id: number;
  scan_id: number;
  client_id: number;
  pdf: string | null;
  updated_at: string;
  grant_total: number;
}

async function login(request: APIRequestContext, email: string) {
  return bearer(await apiToken(request, email));
}

async function get<T>(request: APIRequestContext, headers: Record<string, string>, url: string): Promise<T> {
  const reply = await request.get(url, { headers });
  expect(reply.ok(), url).toBe(true);
  const body = (await reply.json()) as { data?: T; items?: T };
  return (body.data ?? body.items) as T;
}

/** A quote of the client's with its PDF; made by the admin for a dented scan of the client's when the demo has none. */
async function clientQuote(request: APIRequestContext, client: Record<string, string>): Promise<Quote> {
  const quotes = await get<{ id: number; pdf: string | null }[]>(request, client, '/api/quote/quotes?page=1&per_page=25');
  const withPdf = quotes.find((q) => q.pdf);
  if (withPdf) return get<Quote>(request, client, `/api/quote/quotes/${withPdf.id}`);
  const scans = await get<{ id: number; dentCount: number; client_id: number }[]>(
    request,
    client,
    '/api/scan/scans?type=arch&status=uploaded&per_page=25',
  );
  const scan = scans.find((s) => s.dentCount > 0);
  if (!scan) throw new Error("no dented demo scan of the client's");
  const admin = await apiToken(request, 'admin@demo.test');
  const made = await request.post('/api/quote/quotes', {
    headers: bearer(admin),
    data: { scan_id: scan.id, client_id: scan.client_id, items: await defaultQuoteItems(request, admin, scan.id) },
  });
  expect(made.ok(), await made.text()).toBe(true);
  return ((await made.json()) as { data: Quote }).data;
}

const section = (page: Page, name: string) => page.getByRole('region', { name });

test('client@demo.test: the scan page has no edit control, the quote view is read-only, the invoice and its PDF open', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const client = await login(request, 'client@demo.test');
  const quote = await clientQuote(request, client);
  const scanBefore = await get<Scan>(request, client, `/api/scan/scans/${quote.scan_id}`);

  // The server refuses the client's changes (every write route: tests/server/scan-quote-edit.test.ts).
  const put = await request.put(`/api/scan/scans/${quote.scan_id}`, { headers: client, data: { make: 'Changed' } });
  expect(put.status()).toBe(403);
  const save = await request.post('/api/quote/quotes', { headers: client, data: { scan_id: quote.scan_id, client_id: quote.client_id } });
  expect(save.status()).toBe(403);

  await signIn(page, 'client@demo.test');

  // The scan list opens each scan to view: an eye, no pencil.
  await page.goto('/scans');
  await expect(page.getByRole('link', { name: 'View Scan' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);

  // The scan page: every value shown, nothing to change it with.
  await page.goto(`/scans/${quote.scan_id}`);
  const car = section(page, 'Car Details');
  await expect(car.getByRole('heading', { name: 'Car Details' })).toBeVisible();
  if (scanBefore.make) await expect(car.getByText(scanBefore.make, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Fetch vehicle details' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Refresh' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete image/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Capture frame' })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Request quote check' })).toHaveCount(0);
  await expect(section(page, 'Quote').getByText(/quote has been requested\.$/)).toBeVisible();
  if (scanBefore.annotates.length) {
    await section(page, 'Saved Images').getByRole('button', { name: 'Actions for image 1' }).click();
    await expect(page.getByRole('menuitem')).toHaveText(['View', 'Info']);
    await page.keyboard.press('Escape');
  }
  // A damage chip opens the modal with the counts shown, not editable.
  await page
    .getByRole('button', { name: /: \d+ dents?$/ })
    .first()
    .click();
  const modal = page.getByRole('dialog');
  await expect(modal.getByText('Damage counts', { exact: true })).toBeVisible();
  await expect(modal.getByRole('spinbutton')).toHaveCount(0);
  await expect(modal.getByRole('button', { name: 'Save counts' })).toHaveCount(0);
  await modal.getByRole('button', { name: 'Close' }).click();

  // The quote view: read-only, with the invoice and the PDF.
  await page.goto(`/quotes/${quote.scan_id}`);
  await expect(page.getByText('You can view this quote but not change it.')).toBeVisible();
  await expect(page.getByTestId('quote-summary')).toBeVisible();
  for (const name of ['Metallic', 'Pearl', 'Aluminium', 'Lg Vehicle', 'XL Vehicle'])
    await expect(page.getByRole('switch', { name })).toBeDisabled();
  const details = section(page, 'Quote Details');
  for (const box of await details.getByRole('combobox').all()) await expect(box).toBeDisabled();
  for (const input of await details.getByRole('spinbutton').all()) await expect(input).toBeDisabled();
  await expect(details.getByRole('textbox', { name: 'Comments' })).not.toBeEditable();
  for (const name of [
    'Save and Generate Quote',
    'Add Product',
    'Remove product',
    'Add Vehicle Photo',
    'Delete vehicle photo',
    /^Edit damage count/,
  ])
    await expect(page.getByRole('button', { name })).toHaveCount(0);

  const pdf = page.getByRole('link', { name: 'Download PDF' });
  const href = await pdf.getAttribute('href');
  expect(href).toBeTruthy();
  const file = await page.request.get(href!);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toBe('application/pdf');
  expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-');

  await page.getByRole('link', { name: 'View Invoice' }).click();
  await expect(page).toHaveURL(new RegExp(`/quotes/${quote.id}/invoice$`));
  await expect(page.getByRole('heading', { level: 1, name: `ESTIMATE # ${quote.id}` })).toBeVisible();

  // The quotes list: PDF, invoice and a view of each quote; no edit, no delete.
  await page.goto('/quotes');
  await page.getByRole('button', { name: /^Expand to Filter/ }).click();
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByRole('link', { name: 'View Invoice' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'View Quote' })).toHaveCount(await page.getByRole('link', { name: 'View Invoice' }).count());
  await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);

  // Nothing changed.
  expect((await get<Scan>(request, client, `/api/scan/scans/${quote.scan_id}`)).updated_at).toBe(scanBefore.updated_at);
  expect((await get<Quote>(request, client, `/api/quote/quotes/${quote.id}`)).updated_at).toBe(quote.updated_at);
});

test('agent@demo.test keeps changing: pencils, counts and the quote form are there', async ({ page, request }) => {
  const agent = await login(request, 'agent@demo.test');
  const scans = await get<{ id: number; dentCount: number }[]>(request, agent, '/api/scan/scans?type=arch&status=uploaded&per_page=25');
  const scan = scans.find((s) => s.dentCount > 0);
  if (!scan) throw new Error("no dented demo scan of the agent's");
  await openSignedIn(page, 'agent@demo.test', `/scans/${scan.id}`);
  await expect(section(page, 'Car Details').getByRole('button', { name: 'Edit Make' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeVisible();
  // The agent viewer's Quote Evaluation keeps the agent.
  await expect(page.getByRole('link', { name: 'Quote Evaluation' })).toHaveAttribute(
    'href',
    new RegExp(`^/quotes/${scan.id}/agents/\\d+$`),
  );
  await page
    .getByRole('button', { name: /: \d+ dents?$/ })
    .first()
    .click();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Save counts' })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(section(page, 'Quote').getByRole('button', { name: 'Save and Generate Quote' })).toBeVisible();
  await page.getByRole('link', { name: 'Quote Evaluation' }).click();
  await expect(page.getByRole('button', { name: 'Save and Generate Quote' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Request quote check' })).toHaveCount(0);
});
