import { readFile } from 'node:fs/promises';
import { expect, test, type Page, type WebSocketRoute } from '@playwright/test';
import { bearer, apiSignIn, chooseLanguage, openSignedIn, ingestScan, demoDevice } from './helpers';

interface ScanItem {
  id: number;
  licensePlate: string | null;
  type: string;
  status: string;
}

/** The scan list as the demo admin opens it: signed in through the API, the list loaded once. */
async function openScanList(page: Page) {
  await openSignedIn(page, 'admin@demo.test', '/scans');
  await expect(page).toHaveURL(/\/scans$/);
}

/** The data rows of the scan table (not the header, skeleton or empty row). */
const dataRows = (page: Page) =>
  page
    .getByRole('table', { name: 'Scans' })
    .locator('tbody tr')
    .filter({ has: page.getByRole('link', { name: 'Edit' }) });

test.describe('scan list', () => {
  test('lists the demo scans; search narrows; a filter applies and Reset clears it', async ({ page, request }) => {
    const admin = await apiSignIn(request, 'admin@demo.test');
    const first = (await (await request.get('/api/scan/scans?page=1&per_page=1', { headers: bearer(admin.token) })).json()) as {
      items: ScanItem[];
      total: number;
    };
    expect(first.total).toBeGreaterThan(10);
    const plate = first.items[0].licensePlate!;

    await openScanList(page);
    await expect(page.getByRole('heading', { name: 'Scans' })).toBeVisible();
    await expect(dataRows(page)).toHaveCount(10);
    for (const column of ['Location', 'Type', 'Date/Time', 'Registration', 'Car Color', 'Client', 'Agent', 'Status', 'Action']) {
      await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
    }
    await expect(page.getByText(new RegExp(`^1-10 of ${first.total.toLocaleString('en')}$`))).toBeVisible();
    // DD-MM-YYYY hh:mm A
    await expect(dataRows(page).first().getByRole('cell').nth(2)).toHaveText(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2} (AM|PM)$/);

    await page.getByPlaceholder('Search Scan').fill(`  ${plate.toLowerCase()}  `);
    await expect(dataRows(page).filter({ hasText: plate }).first()).toBeVisible();
    await expect(async () => {
      const texts = await dataRows(page).getByRole('cell').nth(3).allTextContents();
      expect(texts.length).toBeGreaterThan(0);
      for (const row of await dataRows(page).all()) await expect(row.getByRole('cell').nth(3)).toHaveText(new RegExp(`^${plate}`));
    }).toPass();
    await page.getByPlaceholder('Search Scan').fill('');
    await expect(dataRows(page)).toHaveCount(10);

    await page.getByRole('button', { name: 'Expand to Filter' }).click();
    await expect(page.getByText('Advance Filter')).toBeVisible();
    const search = page.getByRole('button', { name: 'Search', exact: true });
    await expect(search).toBeDisabled();
    await page.getByLabel('Type', { exact: true }).click();
    await page.getByRole('option', { name: 'Tire' }).click();
    await expect(search).toBeEnabled();
    await search.click();
    await expect(page.getByText('1 filter applied')).toBeVisible();
    await expect(async () => {
      const types = await dataRows(page).getByRole('cell').nth(1).allTextContents();
      expect(types.length).toBeGreaterThan(0);
      expect(new Set(types)).toEqual(new Set(['Tire']));
    }).toPass();

    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(page.getByText('1 filter applied')).toBeHidden();
    await expect(page.getByText(new RegExp(`^1-10 of ${first.total.toLocaleString('en')}$`))).toBeVisible();
    await expect(search).toBeDisabled();
  });

  test('sorts the page by a column and opens a scan from its pencil', async ({ page }) => {
    await openScanList(page);
    await expect(dataRows(page)).toHaveCount(10);
    await page.getByRole('button', { name: 'Registration' }).click();
    const plates = await dataRows(page).getByRole('cell').nth(3).allTextContents();
    expect(plates).toEqual([...plates].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true })));

    const plate = plates[0];
    await dataRows(page).first().getByRole('link', { name: 'Edit' }).click();
    await expect(page).toHaveURL(/\/scans\/\d+$/);
    await expect(page.getByText('Update Scan')).toBeVisible();
    await expect(page.getByText('Car Details')).toBeVisible();
    await expect(page.getByText(plate, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Scan refreshed' })).toBeVisible();
  });

  test('an unknown scan shows Scan Not Found and returns to the list', async ({ page }) => {
    await openSignedIn(page, 'admin@demo.test', '/scans/999999999');
    await expect(page.getByText('Scan Not Found')).toBeVisible();
    await expect(page).toHaveURL(/\/scans$/);
  });

  test('Export downloads a CSV of the filtered scans', async ({ page }) => {
    await openScanList(page);
    await expect(dataRows(page)).toHaveCount(10);
    await page.getByRole('button', { name: 'Expand to Filter' }).click();
    await page.getByLabel('Status', { exact: true }).click();
    await page.getByRole('option', { name: 'Uploaded' }).click();
    // This month so far, in the app's range calendar (the dashboard's), written DD-MM-YYYY whatever the browser's language.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Melbourne' }).format(new Date());
    const [y, m, d] = today.split('-');
    await page.getByRole('button', { name: 'Date range: Select a date range' }).click();
    const calendar = page.getByRole('dialog', { name: 'Date range' });
    await calendar.getByRole('gridcell', { name: '1', exact: true }).click();
    await calendar.getByRole('gridcell', { name: String(Number(d)), exact: true }).click();
    await expect(calendar).toBeHidden();
    const label = d === '01' ? `01-${m}-${y}` : `01-${m}-${y} – ${d}-${m}-${y}`;
    await expect(page.getByRole('button', { name: `Date range: ${label}` })).toBeVisible();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText('2 filters applied')).toBeVisible();

    const exportCall = page.waitForRequest((r) => r.url().includes('/api/scan/scans/export-scan-report'));
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const params = new URL((await exportCall).url()).searchParams;
    expect(params.get('status')).toBe('uploaded');
    expect([params.get('ts'), params.get('te')]).toEqual([`${y}-${m}-01`, today]);
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^scans-\d{8}-\d{4}\.csv$/);
    const csv = await readFile(await file.path(), 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[0]).toMatch(/^\uFEFF?ID,Scan ID,Date\/Time,Registration,/);
    expect(lines.slice(1).every((line) => /uploaded/i.test(line))).toBe(true);

    // The arrow beside Export offers Excel: the same filters, an .xlsx file (a zip: it starts with PK).
    await page.getByRole('button', { name: 'Export formats' }).click();
    const xlsxCall = page.waitForRequest((r) => r.url().includes('/api/scan/scans/export-scan-report'));
    const xlsxDownload = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Excel (.xlsx)' }).click();
    const xlsxParams = new URL((await xlsxCall).url()).searchParams;
    expect([xlsxParams.get('format'), xlsxParams.get('status')]).toEqual(['xlsx', 'uploaded']);
    const xlsx = await xlsxDownload;
    expect(xlsx.suggestedFilename()).toMatch(/^scans-\d{8}-\d{4}\.xlsx$/);
    expect((await readFile(await xlsx.path())).subarray(0, 2).toString('latin1')).toBe('PK');

    // In Japanese the file is written in Japanese, as the list shows it.
    await chooseLanguage(page, '日本語');
    const jaCall = page.waitForRequest((r) => r.url().includes('/api/scan/scans/export-scan-report'));
    const jaDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'エクスポート', exact: true }).click();
    expect(new URL((await jaCall).url()).searchParams.get('lang')).toBe('ja');
    const jaLines = (await readFile(await (await jaDownload).path(), 'utf8')).trim().split(/\r?\n/);
    expect(jaLines[0]).toMatch(/^\uFEFF?ID,スキャンID,日時,登録番号,/);
    expect(jaLines.slice(1).every((line) => line.includes(',アップロード済み,'))).toBe(true);
    // Its dates as the Japanese list writes them: year first, 午前/午後 before the time.
    expect(jaLines.slice(1).every((line) => /^\d+,[^,]+,\d{4}-\d{2}-\d{2} 午[前後] \d{2}:\d{2},/.test(line))).toBe(true);
  });

  test('a scan sent by a device appears in the list without a reload, and its status updates live', async ({ page, request }) => {
    const { key, device } = await demoDevice(request);

    await openScanList(page);
    await expect(dataRows(page)).toHaveCount(10);
    const before = await page.getByText(/^1-10 of [\d,]+$/).textContent();
    const total = Number(before!.replace(/^1-10 of /, '').replace(/,/g, ''));
    // Let the live connection subscribe before the device sends.
    await page.waitForTimeout(1500);

    const plate = `E2E${String(Date.now()).slice(-5)}`;
    const scan = await ingestScan<ScanItem>(request, key, {
      scan_id: `e2e-${Date.now()}`,
      device_id: device.id,
      type: 'arch',
      licensePlate: plate,
      make: 'Toyota',
      model: 'Corolla',
      carColor: 'Teal',
      body_type: 'Sedan',
    });

    const row = dataRows(page).first();
    await expect(row).toContainText(plate);
    await expect(row).toContainText('Metadata');
    await expect(dataRows(page)).toHaveCount(10);
    await expect(page.getByText(`1-10 of ${(total + 1).toLocaleString('en')}`)).toBeVisible();

    const ready = await request.post(`/api/scan/ingest/scans/${scan.id}/status`, { headers: bearer(key), data: { status: 'ready' } });
    expect(ready.ok()).toBe(true);
    await expect(dataRows(page).filter({ hasText: plate })).toContainText('Ready');
  });
  test('a scan sent while the live connection is down is shown once it is back', async ({ page, request }) => {
    const { key, device } = await demoDevice(request);

    // The page's WebSocket to the embedded Pusher endpoint goes through the test, which can cut it like a failing network.
    let down = false;
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/app\//, (ws) => {
      // While down, every reconnection attempt is cut at once (4100: pusher-js tries again after a back-off).
      if (down) return void ws.close({ code: 4100, reason: 'down' });
      sockets.push(ws);
      ws.connectToServer();
    });

    await openScanList(page);
    await expect(dataRows(page)).toHaveCount(10);
    await expect.poll(() => sockets.length).toBeGreaterThan(0);
    await page.waitForTimeout(1000);

    down = true;
    for (const ws of sockets) await ws.close({ code: 4100, reason: 'down' });
    const plate = `OFF${String(Date.now()).slice(-5)}`;
    await ingestScan(request, key, {
      scan_id: `e2e-off-${Date.now()}`,
      device_id: device.id,
      type: 'arch',
      licensePlate: plate,
      make: 'Mazda',
      model: 'CX-5',
      carColor: 'Red',
      body_type: 'SUV',
    });
    await page.waitForTimeout(1500);
    // The event was sent while nobody listened.
    await expect(dataRows(page).filter({ hasText: plate })).toHaveCount(0);

    // The connection comes back: the list fetches what it missed, without a reload.
    down = false;
    await expect(dataRows(page).first()).toContainText(plate, { timeout: 30_000 });
  });
});
