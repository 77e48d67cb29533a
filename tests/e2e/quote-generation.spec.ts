import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { toEvaluation } from '../../src/custom/quote-generation/evaluation';
import { groupByView, initialForm, onePerCarPanel, splitByDamage, visiblePanels } from '../../src/custom/quote-generation/quoteForm';
import type { EvaluationReply } from '../../src/domain/records';
import { apiGet, apiToken, nav, openSignedIn, signIn } from './helpers';

/**
 * Quote Generation on a long scan: the damaged panels first and the rest folded, the Quote Summary with its save
 * button in view wherever the list is scrolled (a side column on a desktop, a bar at the bottom of a phone), and no
 * edit lost to a stray link.
 */

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 740 };

/**
 * A demo arch scan with dents, a client, undamaged panels and no quote yet; the last such scan, so the specs that take
 * the first unquoted one keep theirs. With the labels of its panels as the page should order them.
 */
async function scanToQuote(request: APIRequestContext, token: string) {
  const scans = await apiGet<{ id: number; client_id: number | null; dentCount: number; has_quote: boolean }[]>(
    request,
    token,
    '/api/scan/scans?type=arch&status=uploaded&per_page=100',
  );
  const groups = await apiGet<{ id: number; name: string; position: number | null }[]>(request, token, '/api/quote/panelGroups/positions');
  const candidates = scans.filter((s) => s.client_id !== null && s.dentCount > 0 && !s.has_quote).reverse();
  expect(candidates.length, 'two unquoted dented demo scans: one for this spec, one for the agent viewer').toBeGreaterThan(1);
  for (const scan of candidates) {
    const evaluation = toEvaluation(await apiGet<EvaluationReply>(request, token, `/api/scan/scans/${scan.id}/evaluate`));
    if (!evaluation) continue;
    const shown = onePerCarPanel(visiblePanels(evaluation.panels, 'D'));
    const split = splitByDamage(groupByView(shown, groups), evaluation.measures, initialForm(shown, evaluation.measures));
    const labels = (views: typeof split.damaged) => views.flatMap((v) => v.panels.map((p) => p.label));
    if (split.damaged.length > 0 && split.undamagedCount > 0)
      return { id: scan.id, damaged: labels(split.damaged), undamaged: labels(split.undamaged) };
  }
  throw new Error('no demo scan with damaged and undamaged panels');
}

/** The panel cards' titles the user can see, top to bottom. */
const panelTitles = (page: Page) => page.getByRole('heading', { level: 4 });

/** Quote Generation of a scan, loaded as a page; `as` first signs that user in (`openSignedIn`). */
async function openQuote(page: Page, scanId: number, as?: string) {
  if (as) await openSignedIn(page, as, `/quotes/${scanId}`);
  else await page.goto(`/quotes/${scanId}`);
  await expect(page.getByRole('heading', { name: 'Quote Generation' })).toBeVisible();
  await expect(page.getByTestId('quote-summary')).toBeVisible();
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** What the page's beforeunload handler says: true asks the browser to prompt before a reload or a closed tab. */
const promptsOnUnload = (page: Page) =>
  page.evaluate(() => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });

test.describe.configure({ mode: 'serial' });

let scan: Awaited<ReturnType<typeof scanToQuote>>;

test.beforeAll(async ({ request }) => {
  scan = await scanToQuote(request, await apiToken(request, 'admin@demo.test'));
});

test('damaged panels come first; the undamaged ones open behind their count, by mouse or keyboard', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await openQuote(page, scan.id, 'admin@demo.test');

  await expect(panelTitles(page)).toHaveText(scan.damaged);
  const show = page.getByRole('button', { name: `Show undamaged panels (${scan.undamaged.length})` });
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByText('No Damage Detected').filter({ visible: true })).toHaveCount(0);

  await show.click();
  const hide = page.getByRole('button', { name: 'Hide undamaged panels' });
  await expect(hide).toHaveAttribute('aria-expanded', 'true');
  await expect(panelTitles(page)).toHaveText([...scan.damaged, ...scan.undamaged]);
  await expect(page.getByText('No Damage Detected').filter({ visible: true })).toHaveCount(scan.undamaged.length);

  await hide.focus();
  await page.keyboard.press('Enter');
  await expect(show).toBeFocused();
  await expect(panelTitles(page)).toHaveText(scan.damaged);
  await page.keyboard.press('Space');
  await expect(panelTitles(page)).toHaveCount(scan.damaged.length + scan.undamaged.length);
});

test('on a desktop the Quote Summary and its save button stay in view down to the last panel', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await openQuote(page, scan.id, 'admin@demo.test');
  await page.getByRole('button', { name: /^Show undamaged panels/ }).click();

  const last = panelTitles(page).last();
  await expect(last).toHaveText(scan.undamaged.at(-1)!);
  // What arrives after the first render may still move the page: scroll again then.
  await expect(async () => {
    await last.scrollIntoViewIfNeeded();
    await expect(last).toBeInViewport({ timeout: 1_000 });
  }).toPass();
  const summary = page.getByRole('region', { name: 'Quote Summary' });
  await expect(summary).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: 'Save and Generate Quote' })).toBeInViewport({ ratio: 1 });
  // Below the sticky header, not under it.
  const header = await page.getByRole('banner').boundingBox();
  expect((await summary.boundingBox())!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
  expect(await noSidewaysScroll(page)).toBe(true);
});

test('on a phone a bar at the bottom keeps the grand total and the save button, without covering the form', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await openQuote(page, scan.id, 'admin@demo.test');
  await page.getByRole('button', { name: /^Show undamaged panels/ }).click();

  const bar = page.getByRole('region', { name: 'Total and save' });
  await expect(bar.getByRole('button', { name: 'Save and Generate Quote' })).toBeVisible();
  const total = (
    (await page
      .getByTestId('quote-summary')
      .locator('div')
      .filter({ hasText: /^Total/ })
      .first()
      .textContent()) ?? ''
  )
    .replace(/^Total/, '')
    .trim();
  await expect(bar).toContainText(`Total${total}`);

  const last = panelTitles(page).last();
  await last.scrollIntoViewIfNeeded();
  await expect(bar).toBeInViewport({ ratio: 1 });
  expect((await bar.boundingBox())!.y + (await bar.boundingBox())!.height).toBeLessThanOrEqual(PHONE.height + 0.5);

  // At the end of the page the bar sits below the last field, not over it.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const check = await page.getByRole('checkbox', { name: 'Request quote check' }).boundingBox();
  expect(check!.y + check!.height).toBeLessThanOrEqual((await bar.boundingBox())!.y);
  expect(await noSidewaysScroll(page)).toBe(true);
});

/** Whether the focused control shows: the topmost element at its middle is the control or inside it. */
const focusUncovered = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: '', shown: true };
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? el.tagName;
    return { name, shown: top === null || el.contains(top) || top.contains(el) };
  });

test('tabbing forward and back on a phone, no focused control hides under the save bar or the header', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await openQuote(page, scan.id, 'admin@demo.test');
  await page.getByRole('button', { name: /^Show undamaged panels/ }).click();
  await page.getByRole('heading', { name: 'Quote Generation' }).click();
  const hidden: string[] = [];
  // Forward to the end, then back up: the header (two lines tall on a phone) must not cover a control reached upwards.
  for (const key of [...Array<string>(60).fill('Tab'), ...Array<string>(60).fill('Shift+Tab')]) {
    await page.keyboard.press(key);
    const focus = await focusUncovered(page);
    if (!focus.shown) hidden.push(`${key}: ${focus.name}`);
  }
  expect(hidden).toEqual([]);
});

test('leaving with unsaved changes asks first: Stay keeps the edit, Leave goes; after a save nothing asks', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page, 'admin@demo.test');
  // Reached from the scan page inside the app, so the back button is the app's to stop.
  await page.goto(`/scans/${scan.id}`);
  await page.getByRole('link', { name: 'Quote Evaluation' }).click();
  const quotePath = new RegExp(`/quotes/${scan.id}$`);
  await expect(page).toHaveURL(quotePath);
  await expect(page.getByTestId('quote-summary')).toBeVisible();
  const dashboard = nav(page).getByRole('link', { name: 'Dashboard' });
  const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
  const metallic = page.getByRole('switch', { name: 'Metallic' });

  // Untouched: the menu leaves at once, and a reload would not ask.
  expect(await promptsOnUnload(page)).toBe(false);
  await dashboard.click();
  await expect(page).toHaveURL(/\/$/);
  await page.goBack();
  await expect(page).toHaveURL(quotePath);
  await expect(page.getByTestId('quote-summary')).toBeVisible();

  await metallic.check();
  expect(await promptsOnUnload(page)).toBe(true);

  await dashboard.click();
  await expect(ask).toContainText('You have unsaved changes. Leave this page?');
  await ask.getByRole('button', { name: 'Stay' }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(quotePath);
  await expect(metallic).toBeChecked();

  // The back button asks too.
  await page.goBack();
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Stay' }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(quotePath);
  await expect(metallic).toBeChecked();

  await dashboard.click();
  await ask.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/$/);

  // Edited again and saved: the move to the invoice, and any move after it, asks nothing.
  await openQuote(page, scan.id);
  await expect(metallic).not.toBeChecked();
  await page.getByRole('switch', { name: 'Pearl' }).check();
  await page.getByRole('button', { name: 'Save and Generate Quote' }).click();
  await expect(page).toHaveURL(/\/quotes\/\d+\/invoice$/);
  await expect(page.getByText('Quote Generated')).toBeVisible();
  await expect(ask).toHaveCount(0);
  expect(await promptsOnUnload(page)).toBe(false);
});
