import { expect, test } from '@playwright/test';
import { toEvaluation } from '../../src/custom/quote-generation/evaluation';
import { onePerCarPanel, visiblePanels } from '../../src/custom/quote-generation/quoteForm';
import { formatMoney, toCents } from '../../src/domain/money';
import { newDamageMeasures } from '../../src/domain/new-damage';
import { clientCategoryMethod, initialDentChoice, initialScratchRepair, panelCategory, priceQuote } from '../../src/domain/pricing';
import type { EvaluationReply } from '../../src/domain/records';
import type { ScanComparison } from '../../src/domain/vehicles';
import { apiGet, demoDevice, openSignedIn, ingestScan } from './helpers';

/** "Price only the new damage": two scans of one registration through the device API, the second quoted on its gains. */

test('the switch prices the differences: the total is the engine’s figure for them, and the estimate says so', async ({
  page,
  request,
}) => {
  const { admin, key, device, headers } = await demoDevice(request);
  const plate = `ND${String(Date.now()).slice(-5)}`;
  const scan = async (n: number, at: Date, measures: object) => {
    const { id } = await ingestScan(request, key, {
      scan_id: `e2e-new-damage-${plate}-${n}`,
      device_id: device.id,
      type: 'arch',
      licensePlate: plate,
      timestamp: at.toISOString(),
    });
    const res = await request.put(`/api/scan/ingest/scans/${id}/results`, { headers: headers(key), data: { measures } });
    expect(res.status()).toBe(200);
    return id;
  };
  await scan(1, new Date(Date.UTC(2026, 0, 10, 1)), { dents: { bonnet: { light: 2 }, left_front_door: { medium: 1 } }, scratchs: {} });
  const second = await scan(2, new Date(Date.UTC(2026, 0, 20, 1)), {
    dents: { bonnet: { light: 2 }, left_front_door: { medium: 3, heavy: 1 } },
    scratchs: { roof: { light: 1 } },
  });

  // The engine's figure for the differences, from the stored comparison and the client's prices, at the default choices.
  const reply = await apiGet<EvaluationReply>(request, admin, `/api/scan/scans/${second}/evaluate`);
  const evaluation = toEvaluation(reply)!;
  const comparison = await apiGet<ScanComparison>(request, admin, `/api/scan/scans/${second}/comparison`);
  const gains = newDamageMeasures(comparison.differences);
  const method = clientCategoryMethod(reply.client!);
  const engine = priceQuote({
    client: evaluation.client,
    panels: onePerCarPanel(visiblePanels(evaluation.panels, 'D')).map((p) => {
      const dents = p.carPanel ? gains.dents[p.carPanel] : undefined;
      return {
        panel_id: p.id,
        part_id: p.part_id,
        type: p.type,
        hasLargeVariant: p.hasLargeVariant,
        dent: initialDentChoice(dents && method ? panelCategory(dents, method) : null),
        scratch: initialScratchRepair(p.carPanel ? (gains.damage_count.scratchs[p.carPanel] ?? 0) : 0),
      };
    }),
    tyres: evaluation.tyres,
    metallic: 0,
    pearl: 0,
    aluminium: 0,
    vehicle_type: 'D',
    products: [],
    gst_percent: reply.gst_percent,
  });
  const total = formatMoney(engine.totals.grand_total, evaluation.client.currency, 'en');

  await openSignedIn(page, 'admin@demo.test', `/quotes/${second}`);
  const summary = page.getByTestId('quote-summary');
  await expect(summary).toBeVisible();
  const newDamageOnly = page.getByRole('switch', { name: 'Price only the new damage' });
  await expect(newDamageOnly).not.toBeChecked();
  await newDamageOnly.check();
  await expect(page.getByRole('switch', { name: 'Price only the new damage' })).toBeChecked();
  await expect(page.getByRole('status').filter({ hasText: 'New damage only (compared with the scan of 10-01-2026)' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Pre-existing, not priced .*: Bonnet/ })).toBeVisible();
  // The left front door gained dents and had one: priced for the gain, and said to have had the rest before.
  await expect(
    page.getByRole('status').filter({ hasText: /Priced for their new damage only, the rest there before: Left Front Door/ }),
  ).toBeVisible();
  await expect(
    summary
      .locator('div')
      .filter({ hasText: /^Total/ })
      .first(),
  ).toContainText(total);

  const saved = page.waitForResponse((r) => r.url().endsWith('/api/quote/quotes') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Save and Generate Quote' }).first().click();
  const stored = ((await (await saved).json()) as { data: { id: number; grant_total: number; new_damage_only: number } }).data;
  expect(toCents(stored.grant_total)).toBe(engine.totals.grand_total);
  expect(stored.new_damage_only).toBe(1);
  await expect(page).toHaveURL(new RegExp(`/quotes/${stored.id}/invoice$`));
  await expect(page.getByRole('heading', { name: 'New damage only (compared with the scan of 10-01-2026)' })).toBeVisible();
  const preExisting = page.getByRole('table', { name: 'Pre-existing damage (not priced)' });
  await expect(preExisting.getByRole('row')).toHaveText([
    /^Pre-existing damage/,
    /^Bonnet\$0\.00$/,
    /^Left Front DoorOnly its new damage is priced$/,
  ]);

  // The agent's scan page saves the quote again on the same basis: the new damage alone, at the same figures, each
  // save from the version it was made from (a second save without a reload is not a conflict with the first).
  await openSignedIn(page, 'agent@demo.test', `/scans/${second}`);
  const area = page.getByRole('region', { name: 'Quote', exact: true });
  await expect(area.getByTestId('scan-quote-preview')).toContainText(total);
  for (const round of [1, 2]) {
    const resaved = page.waitForResponse((r) => r.url().endsWith('/api/quote/quotes') && r.request().method() === 'POST');
    await area.getByRole('button', { name: 'Save and Generate Quote' }).click();
    const again = await resaved;
    expect(again.status(), `save ${round}: ${await again.text()}`).toBe(200);
    const body = again.request().postDataJSON() as { new_damage_only: number; version: number };
    expect(body.new_damage_only).toBe(1);
    expect(body.version).toBeGreaterThan(0);
    const data = ((await again.json()) as { data: { id: number; grant_total: number; new_damage_only: number } }).data;
    expect(data).toMatchObject({ id: stored.id, new_damage_only: 1 });
    expect(toCents(data.grant_total)).toBe(engine.totals.grand_total);
    await expect(area.getByRole('status')).toContainText(`Saved quote #${stored.id}`);
    await expect(area.getByRole('button', { name: 'Save and Generate Quote' })).toBeEnabled();
  }
});
