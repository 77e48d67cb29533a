import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { bearer, apiGet, openSignedIn, ingestScan, demoDevice } from './helpers';

/** A vehicle's scans compared at ingestion, through the device API and the real server. */

test.describe('vehicles', () => {
  test('a second scan of a registration with more dents shows "New since" and the sketch\'s mark without a reload, the vehicle page both scans, and a webhook receiver gets scan.new_damage', async ({
    page,
    request,
  }) => {
    const { admin, key, device } = await demoDevice(request);
    const plate = `VH${String(Date.now()).slice(-5)}`;
    const ingest = async (n: number, at: Date) =>
      (
        await ingestScan(request, key, {
          scan_id: `e2e-vehicle-${plate}-${n}`,
          device_id: device.id,
          type: 'arch',
          licensePlate: plate,
          timestamp: at.toISOString(),
        })
      ).id;
    const results = async (id: number, medium: number) => {
      const res = await request.put(`/api/scan/ingest/scans/${id}/results`, {
        headers: bearer(key),
        data: { measures: { dents: { left_front_door: { medium } }, scratchs: {} } },
      });
      expect(res.status()).toBe(200);
    };

    const earlier = new Date(Date.UTC(2026, 0, 10, 1));
    const first = await ingest(1, earlier);
    await results(first, 1);
    const second = await ingest(2, new Date(Date.UTC(2026, 0, 20, 1)));

    // A webhook receiver on this machine, subscribed to scan.new_damage for the scans' agent.
    const received: { type: string; data: { scan: { id: number }; summary: string; previous_scan_id: number } }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(JSON.parse(body) as (typeof received)[number]);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { agent_id: agentId } = await apiGet<{ agent_id: number }>(request, admin, `/api/scan/scans/${second}`);
    const hook = await request.post('/api/agent/webhooks', {
      headers: bearer(admin),
      data: {
        agent_id: agentId,
        endpoint: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        events: ['scan.new_damage'],
      },
    });
    expect(hook.status(), await hook.text()).toBe(201);

    await openSignedIn(page, 'admin@demo.test', `/scans/${second}`);
    await expect(page.getByRole('heading', { name: 'Car Details' })).toBeVisible();
    // The sketch's legend names the colour "New since the last scan"; the line itself is a status.
    await expect(page.getByRole('status').filter({ hasText: /New since/ })).toHaveCount(0);
    // Let the live connection subscribe before the device sends.
    await page.waitForTimeout(1500);
    const navigations: string[] = [];
    page.on('framenavigated', (f) => navigations.push(f.url()));
    await results(second, 3);
    // Live, without a reload; how soon is measured by `npm run bench` (section live).
    await expect(page.getByRole('status').filter({ hasText: 'New since 10-01-2026: Left Front Door +2 medium dents' })).toBeVisible();
    expect(navigations).toEqual([]);
    // The sketch marks the panel in its own colour, named by the legend.
    await expect(page.getByRole('button', { name: 'Left Front Door: 2 new since the last scan' })).toBeVisible();
    await expect(page.getByText('New since the last scan', { exact: true })).toBeVisible();

    // The registration leads to the vehicle page, which lists both scans.
    await page.getByRole('region', { name: 'Car Details' }).getByRole('link', { name: plate }).click();
    await expect(page.getByRole('heading', { name: `Vehicle ${plate}` })).toBeVisible();
    const timeline = page.getByRole('list', { name: 'Scans and quotes' });
    await expect(timeline.getByRole('link', { name: /Arch scan$/ })).toHaveCount(2);
    expect(
      await timeline.getByRole('link', { name: /Arch scan$/ }).evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ).toEqual([`/scans/${second}`, `/scans/${first}`]);
    await expect(page.getByRole('table', { name: 'Damage per panel' }).getByRole('row', { name: /Left Front Door/ })).toContainText(
      'Dents: 3 Medium',
    );

    // The receiver gets scan.new_damage with the differences.
    await expect.poll(() => received.map((m) => m.type), { timeout: 20_000 }).toEqual(['scan.new_damage']);
    expect(received[0].data).toMatchObject({ scan: { id: second }, previous_scan_id: first, summary: 'Left Front Door +2 medium dents' });
    receiver.close();

    // Both scans belong to one vehicle.
    const vehicles = await apiGet<{ id: number; registration: string }[]>(request, admin, `/api/scan/vehicles?q=${plate}`);
    expect(vehicles.map((v) => v.registration)).toEqual([plate]);
    const vehicle = await apiGet<{ scans: { id: number }[] }>(request, admin, `/api/scan/vehicles/${vehicles[0].id}`);
    expect(vehicle.scans.map((s) => s.id)).toEqual([first, second]);
  });

  test('Export saves every vehicle of the list in its order, under its headings, with the dates as the list shows them', async ({
    page,
  }) => {
    await openSignedIn(page, 'admin@demo.test', '/vehicles');
    const first = page.getByRole('row').nth(1);
    await expect(first.getByRole('cell').nth(1)).toBeVisible();
    const total = Number((await page.getByText(/^\d+[–-]\d+ of \d+$/).textContent())?.split(' of ')[1]);
    expect(total).toBeGreaterThan(10);
    // Sorted by registration: the file follows the list's order, not the default.
    await page.getByRole('columnheader', { name: 'Registration' }).getByRole('button').click();
    await expect(page).toHaveURL(/sort=registration/);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    const headings = await page.getByRole('columnheader').allTextContents();
    const call = page.waitForRequest((r) => r.url().includes('/api/scan/vehicles/export-vehicle-report'));
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const params = new URL((await call).url()).searchParams;
    expect([params.get('sort'), params.get('order'), params.get('lang')]).toEqual(['registration', 'asc', 'en']);
    expect((await download).suggestedFilename()).toMatch(/^vehicles-\d{8}-\d{4}\.csv$/);
    const lines = (await readFile(await (await download).path(), 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines).toHaveLength(total + 1);
    expect(lines[0]).toBe(headings.map((h) => h.trim()).join(','));
    // The list's first row as shown, once the sorted page has replaced the default one (it may still be rendering).
    await expect.poll(() => first.getByRole('cell').allTextContents()).toEqual(lines[1].split(','));
  });
});
