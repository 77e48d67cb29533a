import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, bearer, openSignedIn, signIn } from './helpers';

// A 1×1 PNG: the vehicle photo the assessor attaches.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A demo arch scan with dents and a client: the kind an assessor quotes. */
async function dentedScan(request: APIRequestContext, token: string) {
  const reply = await request.get('/api/scan/scans?page=1&per_page=50&type=arch', { headers: bearer(token) });
  expect(reply.ok()).toBe(true);
  const { items } = (await reply.json()) as { items: { id: number; licensePlate: string; dentCount: number; client_id: number | null }[] };
  const scan = items.find((s) => s.dentCount > 0 && s.client_id !== null);
  expect(scan, 'a demo arch scan with dents').toBeTruthy();
  return scan!;
}

const summaryTotal = (page: Page) =>
  page
    .getByTestId('quote-summary')
    .locator('div')
    .filter({ hasText: /^Total/ })
    .first();

test('quote generation from a demo scan: toggles, repair type, category, a damage count, product, part, photo, save → invoice; the list shows it; delete', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await apiToken(request, 'admin@demo.test');
  const scan = await dentedScan(request, token);

  await openSignedIn(page, 'admin@demo.test', `/quotes/${scan.id}`);
  await expect(page.getByRole('heading', { name: 'Quote Generation' })).toBeVisible();
  await expect(page.getByTestId('quote-summary')).toBeVisible();
  await expect(page.getByRole('link', { name: 'VIEW FULL SCAN DATA' })).toHaveAttribute('href', `/scans/${scan.id}`);
  await expect(page.getByRole('checkbox', { name: 'Request quote check' })).toBeVisible();

  // Panel cards are the innermost regions; a damaged panel starts at pdr, so its category menu is there.
  const damaged = page
    .getByRole('region')
    .filter({ hasNot: page.getByRole('region') })
    .filter({ has: page.getByRole('combobox', { name: 'Category' }) });
  await expect(damaged.first()).toBeVisible();
  const before = await summaryTotal(page).textContent();

  await page.getByRole('switch', { name: 'Metallic' }).check();
  await page.getByRole('switch', { name: 'Lg Vehicle' }).check();
  await page.getByRole('switch', { name: 'XL Vehicle' }).check();
  await expect(page.getByRole('switch', { name: 'Lg Vehicle' })).not.toBeChecked();
  await page.getByRole('switch', { name: 'XL Vehicle' }).uncheck();

  // Held by name: a panel leaves `damaged` once it is no longer pdr.
  const panelNamed = async (i: number) =>
    page
      .getByRole('region', { name: (await damaged.nth(i).getByRole('heading').textContent()) ?? '', exact: true })
      .filter({ hasNot: page.getByRole('region') })
      .first();
  const first = await panelNamed(0);
  await first.getByRole('combobox', { name: 'Category' }).click();
  await page.getByRole('option', { name: 'Oversize' }).click();
  await expect(first.getByRole('combobox', { name: 'Category' })).toHaveText('Oversize');
  if ((await damaged.count()) > 1) {
    const second = await panelNamed(1);
    await second.getByRole('combobox', { name: 'Repair Type' }).click();
    await page.getByRole('option', { name: 'Conventional' }).click();
    await expect(second.getByRole('combobox', { name: 'Repair Type' })).toHaveText('Conventional');
  }
  await expect(summaryTotal(page)).not.toHaveText(before ?? '');

  // A damage count, in the scan page's modal opened from the panel card: the counts are the scan's (saved at once), the
  // panel follows (a pdr panel takes its new category, replacing the edited Oversize), and the save below prices them.
  const firstName = (await first.getByRole('heading').textContent()) ?? '';
  const dentsShown = async () => Number(/(\d+) dents?/.exec((await first.textContent()) ?? '')?.[1]);
  const dentsBefore = await dentsShown();
  await first.getByRole('button', { name: `Edit damage count: ${firstName}` }).click();
  const modal = page.getByRole('dialog', { name: firstName });
  const heavy = modal.getByRole('spinbutton', { name: 'Dents Heavy' });
  await heavy.fill(String(Number(await heavy.inputValue()) + 2));
  await modal.getByRole('button', { name: 'Save counts' }).click();
  await expect(page.getByText('Damage Count Updated')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect.poll(dentsShown).toBe(dentsBefore + 2);
  await expect(first.getByRole('combobox', { name: 'Category' })).not.toHaveText('Oversize');

  const products = page.getByRole('region', { name: 'Add Products' });
  await products.getByRole('combobox', { name: 'Product' }).click();
  await page.getByRole('option').first().click();
  await expect(products.getByRole('spinbutton', { name: 'Price' })).not.toHaveValue('');
  await products.getByRole('spinbutton', { name: 'Price' }).fill('50');

  const parts = page.getByRole('region', { name: 'Add Parts' });
  await parts.getByRole('combobox', { name: 'Parts' }).fill('  Left Mirror Glass  ');
  await parts.getByRole('combobox', { name: 'Parts' }).press('Enter');
  await expect(parts.getByRole('button', { name: 'Left Mirror Glass' })).toBeVisible();

  await page
    .locator('input[type="file"][accept="image/png,image/jpeg,image/webp"]')
    .setInputFiles({ name: 'car.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('img', { name: 'Vehicle photo' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Comments' }).fill('Hail damage on the bonnet');

  const shownTotal = (await summaryTotal(page).textContent())?.replace(/^Total/, '').trim() ?? '';
  const save = page.getByRole('button', { name: 'Save and Generate Quote' });
  // The invoice screen is another page's: the save's part is to go there with the saved quote's id.
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/quote/quotes') && r.request().method() === 'POST');
  let invoicePath = '';
  const toInvoice = page.waitForURL((url) => {
    if (/^\/quotes\/\d+\/invoice$/.test(url.pathname)) invoicePath = url.pathname;
    return invoicePath !== '';
  });
  await save.click();
  const reply = await saved;
  expect(reply.ok()).toBe(true);
  const quoteId = ((await reply.json()) as { data: { id: number } }).data.id;
  await toInvoice;
  expect(invoicePath).toBe(`/quotes/${quoteId}/invoice`);
  await expect(page.getByText('Quote Generated')).toBeVisible();

  // The server recomputed the quote with the same engine: its grand total is the preview's.
  const stored = await request.get(`/api/quote/quotes/${quoteId}`, { headers: bearer(token) });
  expect(stored.ok()).toBe(true);
  const quote = (
    (await stored.json()) as { data: { grant_total: number; currency: string; parts: { text: string; value: string }[]; metallic: number } }
  ).data;
  expect(shownTotal).toContain(quote.grant_total.toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  expect(quote.parts).toEqual([{ text: 'Left Mirror Glass', value: 'left mirror glass' }]);

  // Reopening the scan's quote loads it.
  await page.goto(`/quotes/${scan.id}`);
  await expect(page.getByRole('switch', { name: 'Metallic' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Comments' })).toHaveValue('Hail damage on the bonnet');
  await expect(page.getByRole('img', { name: 'Vehicle photo' })).toBeVisible();

  // The list (default range: today to two days later) shows the row with the same grand total.
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Quotes', exact: true }).click();
  await expect(page).toHaveURL(/\/quotes$/);
  const row = page.getByRole('table', { name: 'Quotes' }).locator('tbody tr').filter({ hasText: scan.licensePlate });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(shownTotal);
  await expect(row.getByRole('link', { name: 'View Invoice' })).toHaveAttribute('href', `/quotes/${quoteId}/invoice`);
  await expect(row.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/quotes/${scan.id}`);

  await row.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('are you sure ?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
  await expect(page.getByText('Deleted Successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('table', { name: 'Quotes' })).toHaveAttribute('aria-busy', 'false');
  await expect(row).toHaveCount(0);
  const gone = await request.get(`/api/quote/quotes/${quoteId}`, { headers: bearer(token) });
  expect(gone.status()).toBe(404);
});

test('quote screens at 360 px, in English and Japanese: no horizontal page scroll', async ({ page, request }) => {
  const token = await apiToken(request, 'admin@demo.test');
  const scan = await dentedScan(request, token);
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, 'admin@demo.test');
  const check = async (headings: Record<string, string>) => {
    for (const url of [`/quotes/${scan.id}`, '/quotes']) {
      await page.goto(url);
      await expect(page.getByRole('heading', { name: url === '/quotes' ? headings.list : headings.generation })).toBeVisible();
      await expect(page.locator('[role="progressbar"]')).toHaveCount(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${url} scrolls sideways`).toBeLessThanOrEqual(0);
    }
  };
  await check({ list: 'Quotes', generation: 'Quote Generation' });
  await page.getByRole('combobox', { name: 'Language' }).click();
  await page.getByRole('option', { name: '日本語' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await check({ list: '見積', generation: '見積作成' });
});
