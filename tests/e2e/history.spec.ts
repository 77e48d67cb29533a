import fs from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { panelLabelOf } from '../../src/domain/scan-view';
import { apiToken, bearer, defaultQuoteItems, openSignedIn } from './helpers';

/** The history of a scan (scan page) and of a quote (Quote Generation of a saved quote), through the real server. */

interface Scan {
  id: number;
  client_id: number | null;
  valuation: number | null;
  dentCount: number;
  damages: { carPanel: string; type: string }[];
  measures: { dents: Record<string, Record<string, number>> };
}

async function api<T>(request: APIRequestContext, authToken: string, path: string): Promise<T> {
  const reply = await request.get(`/api/${path}`, { headers: bearer(authToken) });
  expect(reply.ok(), path).toBe(true);
  const body = (await reply.json()) as { data?: T; items?: T };
  return (body.data ?? body.items) as T;
}

/** An uploaded demo scan of `type` that `ok` accepts. */
async function findScan(request: APIRequestContext, authToken: string, type: string, ok: (s: Scan) => boolean): Promise<Scan> {
  for (let page = 1; page <= 10; page++) {
    const items = await api<{ id: number }[]>(request, authToken, `scan/scans?type=${type}&status=uploaded&per_page=25&page=${page}`);
    for (const item of items) {
      const scan = await api<Scan>(request, authToken, `scan/scans/${item.id}`);
      if (ok(scan)) return scan;
    }
  }
  throw new Error(`no demo ${type} scan fits`);
}

test.describe('history', () => {
  test('a damage count and the valuation changed on the scan page show with before → after and the user, and download as CSV', async ({
    page,
    request,
  }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const me = await api<{ first_name: string; last_name: string }>(request, admin, 'user/auth/user');
    const name = `${me.first_name} ${me.last_name}`.trim();
    const scan = await findScan(request, admin, 'chasis', (s) => s.dentCount > 0 && s.damages.some((d) => d.type === 'dents'));
    const panel = scan.damages.find((d) => d.type === 'dents')!.carPanel;
    const light = scan.measures.dents[panel].light;
    const valuation = (scan.valuation ?? 0) + 1234;

    await openSignedIn(page, 'admin@demo.test', `/scans/${scan.id}`);
    const history = page.getByRole('region', { name: 'History' });
    await expect(history).toBeVisible();

    // A damage count, through the sketch's chip and its modal.
    const panelDents = Object.values(scan.measures.dents[panel]).reduce((a, b) => a + b, 0);
    await page
      .getByRole('button', { name: new RegExp(`: ${panelDents} dents?$`) })
      .first()
      .click();
    const modal = page.getByRole('dialog');
    await modal.getByRole('spinbutton', { name: 'Dents Light' }).fill(String(light + 2));
    await modal.getByRole('button', { name: 'Save counts' }).click();
    await expect(page.getByText('Damage Count Updated')).toBeVisible();
    await expect(modal).toBeHidden();

    // The valuation, inline in Car Details.
    const card = page.getByRole('region', { name: 'Car Details' });
    await card.getByRole('button', { name: 'Edit Valuation' }).click();
    await card.getByRole('textbox', { name: 'Valuation' }).fill(String(valuation));
    await card.getByRole('button', { name: 'Save Valuation' }).click();

    const counts = history.getByRole('listitem').filter({ hasText: 'Damage counts changed' }).last();
    await expect(counts).toContainText(name);
    await expect(counts).toContainText(`${panelLabelOf(panel)} · Dents (Light): ${light} → ${light + 2}`);
    await expect(counts).toContainText(`Dents (total): ${scan.dentCount} → ${scan.dentCount + 2}`);
    const details = history.getByRole('listitem').filter({ hasText: 'Vehicle details changed' }).last();
    await expect(details).toContainText(name);
    await expect(details).toContainText(`Valuation: ${scan.valuation ?? '—'} → ${valuation}`);
    // Dates in Melbourne time, in the English format.
    await expect(details.locator('time')).toHaveText(/^\d\d-\d\d-\d{4} \d\d:\d\d [AP]M$/);

    const download = page.waitForEvent('download');
    await history.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^scan-${scan.id}-history-\\d{8}-\\d{4}\\.csv$`));
    const csv = fs.readFileSync(await file.path(), 'utf8');
    expect(csv).toContain(`,${name},,scan.counts_changed,${panel}.dents.light,${light},${light + 2}`);
    expect(csv).toContain(`,${name},,scan.updated,valuation,${scan.valuation ?? ''},${valuation}`);
  });

  test("a quote's save shows in the quote's history", async ({ page, request }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const me = await api<{ first_name: string; last_name: string }>(request, admin, 'user/auth/user');
    const name = `${me.first_name} ${me.last_name}`.trim();
    const scan = await findScan(request, admin, 'arch', (s) => s.client_id !== null && s.dentCount > 0);
    const save = await request.post('/api/quote/quotes', {
      headers: bearer(admin),
      data: {
        scan_id: scan.id,
        client_id: scan.client_id,
        items: await defaultQuoteItems(request, admin, scan.id),
        assessor_comments: 'History check',
      },
    });
    expect(save.ok(), await save.text()).toBe(true);

    await openSignedIn(page, 'admin@demo.test', `/quotes/${scan.id}`);
    const history = page.getByRole('region', { name: 'History' });
    const saved = history
      .getByRole('listitem')
      .filter({ hasText: /Quote (created|re-saved)/ })
      .last();
    await expect(saved).toContainText(name);
    await expect(saved).toContainText('Assessor comments');
    await expect(saved).toContainText('History check');

    // A finish turned on and a panel's repair changed: each named, the repair as Quote Generation names it.
    const damaged = scan.damages.find((d) => d.type === 'dents')!.carPanel;
    const panels = await api<{ id: number; carPanel: string | null }[]>(request, admin, 'quote/panels?per_page=100');
    const panel = panels.find((p) => p.carPanel === damaged)!.id;
    // The other damaged panels as saved; the damaged car panel by this panel alone (a car panel is quoted once).
    const others = Object.fromEntries(
      Object.entries(await defaultQuoteItems(request, admin, scan.id)).filter(
        ([id]) => panels.find((p) => String(p.id) === id)?.carPanel !== damaged,
      ),
    );
    const resave = async (body: object) => {
      const res = await request.post('/api/quote/quotes', {
        headers: bearer(admin),
        data: { scan_id: scan.id, client_id: scan.client_id, ...body },
      });
      expect(res.ok(), await res.text()).toBe(true);
    };
    await resave({ pearl: 0, items: { ...others, [panel]: { repair_type: 'pdr' } } });
    await resave({ pearl: 1, items: { ...others, [panel]: { repair_type: 'conventional' } } });
    await page.reload();
    const resaved = history.getByRole('listitem').filter({ hasText: 'Quote re-saved' }).last();
    await expect(resaved).toContainText('Pearl: No → Yes');
    await expect(resaved).toContainText('Dent repair: PDR → Conventional');
    // A pdr line's level is a choice too; it goes with the pdr repair.
    await expect(resaved).toContainText(/Dent level: (Light|Medium|Heavy|Severe|Oversize) → —/);
    // Amounts in the quote's currency, with their cents.
    await expect(resaved).toContainText(/Total: [$¥€£][\d,]+\.\d{2} → [$¥€£][\d,]+\.\d{2}/);
  });
});
