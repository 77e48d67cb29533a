import { expect, test } from '@playwright/test';
import { demoDevice, openSignedIn, chooseLanguage, ingestScan } from './helpers';

/** The tyre tab's wear projection: three tyre scans of one registration through the device API, the last one opened. */

test('the tyre tab prints each wheel’s projected day at the legal minimum as an estimate, with its readings', async ({ page, request }) => {
  const { key, device, headers } = await demoDevice(request);
  const plate = `TW${String(Date.now()).slice(-5)}`;
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();
  let last = 0;
  for (const [n, depth] of [
    [100, 8],
    [130, 7],
    [160, 6],
  ] as const) {
    last = (
      await ingestScan(request, key, {
        scan_id: `e2e-wear-${plate}-${n}`,
        device_id: device.id,
        type: 'tire',
        licensePlate: plate,
        timestamp: day(n),
      })
    ).id;
    const res = await request.put(`/api/scan/ingest/scans/${last}/results`, {
      headers: headers(key),
      data: {
        tyres: [
          { row: 1, direction: 'L', position: 'O', depths: [depth + 1, depth, depth + 0.5], eatenTire: 'NONE', pressureTire: 'NONE' },
        ],
      },
    });
    expect(res.status()).toBe(200);
  }

  await openSignedIn(page, 'admin@demo.test', `/scans/${last}`);
  const wear = page.getByRole('region', { name: 'Tyre wear (estimate; legal minimum 1.5 mm)' });
  // Named as the tyre card above names the wheel.
  const wheel = wear.getByRole('group', { name: 'FRONT LEFT' });
  // 1 mm per 30 days from 6 mm on 10-06-2026: 1.5 mm 135 days later.
  await expect(wheel).toContainText('Estimated to reach 1.5 mm around 23-10-2026');
  await expect(wheel).toContainText('Wear 1 mm per 30 days');
  await expect(wheel).toContainText('Readings: 11-04-2026 8 mm, 11-05-2026 7 mm, 10-06-2026 6 mm');

  // In Japanese the wheels are named in Japanese, on the tyre cards and in the wear card alike.
  await chooseLanguage(page, '日本語');
  await expect(page.getByRole('heading', { name: '左前輪' })).toBeVisible();
  await expect(page.getByRole('group', { name: '左前輪' })).toBeVisible();
  await expect(page.getByText('FRONT LEFT')).toHaveCount(0);
  // Nor in the pictures' and the graph's names.
  await expect(page.locator('[alt*="FRONT LEFT"], [aria-label*="FRONT LEFT"]')).toHaveCount(0);
  await chooseLanguage(page, 'English');
});
