import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { apiToken, bearer, openSignedIn, pdfLines } from './helpers';

/**
 * The invoice: a demo quote saved again through the quote route (which makes its PDF), then its invoice
 * screen: the same lines and totals as the record and as the PDF's text (pdftotext), the body type, the assessor's
 * comments, the vehicle photo and the GST rate on both, no sidebar, Print with a print stylesheet, Japanese, 360 px.
 */

interface QuoteItem {
  panel_id: number;
  repair_type: string | null;
  category: string | null;
  scratch: { repair_type: string } | null;
}
interface Quote {
  id: number;
  scan_id: number;
  client_id: number;
  type: string;
  currency: string;
  items: Record<string, QuoteItem>;
  products: { value: number; price: number }[];
  parts: { text: string }[];
  metallic: number;
  pearl: number;
  aluminium: number;
  vehicle_type: string;
  totals: Record<string, number>;
  gst_percent: number;
  assessor_comments: string | null;
  vehicle_photo: string | null;
  pdf: string | null;
}

const COMMENTS = ['Hail damage on the roof and bonnet.', 'Customer to bring the car back on Monday.'];
const BODY_TYPE = 'Station Wagon';

const money = (currency: string, n: number) =>
  `${currency}${n.toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * A demo quote, saved again with its own choices, the assessor's comments and a vehicle photo (the quote screen's
 * multipart form) so the server makes its PDF now; its scan's body type set first.
 */
async function savedQuote(request: APIRequestContext): Promise<Quote> {
  const headers = bearer(await apiToken(request, 'admin@demo.test'));
  const list = await request.get('/api/quote/quotes?page=1&per_page=25', { headers });
  expect(list.ok()).toBe(true);
  // A demo quote with priced lines (other tests save quotes of their own, some without any panel).
  let q: Quote | undefined;
  for (const { id } of ((await list.json()) as { items: { id: number }[] }).items) {
    const found = ((await (await request.get(`/api/quote/quotes/${id}`, { headers })).json()) as { data: Quote }).data;
    if (Object.keys(found.items).length) {
      q = found;
      break;
    }
  }
  if (!q) throw new Error('no demo quote with lines');
  const items = Object.fromEntries(
    Object.values(q.items).map((i) => [
      String(i.panel_id),
      { repair_type: i.repair_type, category: i.category, scratch_repair_type: i.scratch?.repair_type ?? null },
    ]),
  );
  const scan = await request.put(`/api/scan/scans/${q.scan_id}`, { headers, data: { body_type: BODY_TYPE } });
  expect(scan.ok(), await scan.text()).toBe(true);
  const photo = await sharp({ create: { width: 480, height: 320, channels: 3, background: '#2d6cdf' } })
    .jpeg()
    .toBuffer();
  const res = await request.post('/api/quote/quotes', {
    headers,
    multipart: {
      scan_id: String(q.scan_id),
      client_id: String(q.client_id),
      type: q.type,
      items: JSON.stringify(items),
      products: JSON.stringify(q.products.map((p) => ({ value: p.value, price: p.price }))),
      parts: JSON.stringify(q.parts.map((p) => p.text)),
      metallic: String(q.metallic),
      pearl: String(q.pearl),
      aluminium: String(q.aluminium),
      vehicle_type: q.vehicle_type,
      assessor_comments: COMMENTS.join('\n'),
      vehicle_photo: { name: 'car.jpg', mimeType: 'image/jpeg', buffer: photo },
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: Quote }).data;
}

/** The screen's totals block as [label, amount] rows. */
const totalsOf = async (page: Page, name: string) =>
  page
    .getByRole('region', { name })
    .getByRole('row')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim() ?? '')));

test('the invoice shows the saved quote as its PDF does, prints without app chrome, and reads in Japanese and at 360 px', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const quote = await savedQuote(page.request);
  expect(quote.pdf).toMatch(/\.pdf\?expires=\d+&uid=\d+&sig=[\w-]{43}$/);
  expect(quote.vehicle_photo).toMatch(/\.jpg$/);
  await openSignedIn(page, 'admin@demo.test', `/quotes/${quote.id}/invoice`);
  await expect(page.getByRole('heading', { level: 1, name: `ESTIMATE # ${quote.id}` })).toBeVisible();
  // No sidebar, no app header.
  await expect(page.getByRole('navigation')).toHaveCount(0);
  await expect(page.getByRole('banner')).toHaveCount(0);

  // The totals are the record's, and the PDF prints the same rows.
  const totals = await totalsOf(page, 'Totals');
  expect(totals.at(-1)).toEqual(['Grand Total', money(quote.currency, quote.totals.grant_total)]);
  expect(totals.find((r) => r[0] === 'Sub Total')).toEqual(['Sub Total', money(quote.currency, quote.totals.sub_total)]);
  const pdf = await pdfLines(page.request, quote.pdf!);
  for (const [label, amount] of totals) expect(pdf, `${label} ${amount}`).toContain(`${label} ${amount}`);
  // The body type, the assessor's comments, the photo and the GST rate, on the screen and in the PDF.
  const vehicle = page.getByRole('region', { name: 'Vehicle', exact: true });
  await expect(vehicle.getByText('Body Type', { exact: true })).toBeVisible();
  await expect(vehicle.getByText(BODY_TYPE, { exact: true })).toBeVisible();
  const comments = page.getByRole('region', { name: 'Comments' });
  for (const line of COMMENTS) await expect(comments).toContainText(line);
  const photo = page.getByRole('region', { name: 'Vehicle Photo' }).getByRole('img', { name: 'Vehicle Photo' });
  await expect(photo).toBeVisible();
  await expect(photo).toHaveAttribute('src', quote.vehicle_photo!);
  expect(await photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
  const gst = `GST ${quote.gst_percent} %`;
  expect(totals.find((r) => r[0] === gst)).toEqual([gst, money(quote.currency, quote.totals.tax)]);
  expect(pdf.some((l) => l.includes(`Body Type ${BODY_TYPE}`))).toBe(true);
  for (const line of ['Comments', ...COMMENTS, 'Vehicle Photo', 'Totals']) expect(pdf).toContain(line);

  // Every line of every section is in the PDF too, figure for figure.
  const lineRows = await page
    .locator('table')
    .filter({ has: page.getByRole('columnheader', { name: 'Panel' }) })
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(1).map((c) => c.textContent?.trim() ?? '')));
  expect(lineRows.length).toBeGreaterThan(0);
  for (const cells of lineRows)
    expect(
      pdf.some((l) => l.includes(cells.join(' '))),
      cells.join(' | '),
    ).toBe(true);

  // Print: the browser's dialog is not opened in the test; the print stylesheet hides the toolbar.
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed++;
    };
  });
  await page.getByRole('button', { name: 'Print' }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: `ESTIMATE # ${quote.id}` })).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // 360 px: nothing scrolls the page sideways.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: `ESTIMATE # ${quote.id}` })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  // Japanese.
  await page.evaluate(() => localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify('ja')));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: `見積書 # ${quote.id}` })).toBeVisible();
  await expect(page.getByRole('button', { name: '印刷' })).toBeVisible();
  const jaTotals = await totalsOf(page, '合計');
  expect(jaTotals.at(-1)).toEqual(['総合計', money(quote.currency, quote.totals.grant_total)]);
  expect(jaTotals.find((r) => r[0] === `GST ${quote.gst_percent} %`)).toBeTruthy();
  await expect(page.getByRole('region', { name: 'コメント' })).toContainText(COMMENTS[0]);
  await expect(page.getByRole('region', { name: '車両写真' }).getByRole('img', { name: '車両写真' })).toBeVisible();
  await expect(page.getByRole('region', { name: '車両', exact: true }).getByText('ボディタイプ')).toBeVisible();
  await page.evaluate(() => localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify('en')));
});
