import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import type { ApiRoute } from '../../src/dataProvider/apiRoutes';
import { appRoutes, routeUrl, type AppRoute } from './appRoutes';
import { apiToken, bearer, goInApp, signIn } from './helpers';

/**
 * The screens fit the window: at 1280 px every list's row actions are in view and a click on a row opens its record,
 * in English and Japanese; at 360 px no route scrolls sideways and the lists show their rows as cards. The routes
 * come from the app's own definitions (appRoutes.ts), so a new list or page is checked without editing this file.
 */

const LANGUAGES = ['en', 'ja'] as const;

/** Every list: each described resource's (the lists of the records with an edit route), the scans' and the quotes'. */
const DESCRIBED_LISTS = appRoutes()
  .filter((r) => r.source === 'resource' && r.pattern.endsWith('/:id'))
  .map((r) => r.pattern.slice(0, -'/:id'.length));
const LISTS = [...DESCRIBED_LISTS, '/scans', '/quotes'];

/** Where a row click leads: the record's form, a scan's page, a quote's generation page (by its scan). */
const RECORD_URL = (list: string) => new RegExp(`${list}/(?!create$)[^/?]+$`);

/** Query strings a list or page needs to show records: the quotes list without its default date range; the reset link's token. */
const QUERIES: Record<string, string> = { '/quotes': `?filter=${encodeURIComponent('{}')}`, '/reset-password': '?token=x' };

async function settle(page: Page) {
  await page.waitForLoadState('load');
  await expect(page.locator('[role="progressbar"]')).toHaveCount(0);
  await expect(page.locator('#root:not(:empty), [role="dialog"]').first()).toBeAttached();
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

/** Stores the language and starts the app again, which reads it as it starts. */
async function useLanguage(page: Page, locale: string) {
  await page.evaluate((l) => localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify(l)), locale);
  await page.reload();
}

/** The list's first record row (the table's second row, after the headings), reached through the running app. */
async function firstRow(page: Page, list: string): Promise<Locator> {
  await goInApp(page, list + (QUERIES[list] ?? ''));
  // Not the skeleton table a list shows while its page loads (aria-busy).
  const row = page.getByRole('main').locator('table:not([aria-busy="true"])').first().getByRole('row').nth(1);
  await expect(row.getByRole('cell').nth(1), `${list}: a record row`).toBeVisible();
  return row;
}

/** The card lines (cells showing their column's name) that do not spread name left and value right. */
const namesNotLeft = (row: Locator) =>
  row.evaluate((tr) =>
    [...tr.querySelectorAll('td')]
      .filter((td) => !['none', 'normal'].includes(getComputedStyle(td, '::before').content))
      .filter((td) => getComputedStyle(td).justifyContent !== 'space-between')
      .map((td) => getComputedStyle(td, '::before').content),
  );

/** Every button and link of the row's last cell (the Action column), each lying within the window's width. */
async function expectActionsInView(page: Page, row: Locator, list: string) {
  const width = await page.evaluate(() => window.innerWidth);
  const actions = row.getByRole('cell').last().locator('a, button');
  // The Action column comes once the user's rights are known, which may be a moment after the rows.
  await expect(actions.first(), `${list}: row actions`).toBeVisible();
  const count = await actions.count();
  expect(count, `${list}: row actions`).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const box = await actions.nth(i).boundingBox();
    expect(box, `${list}: action ${i} rendered`).not.toBeNull();
    expect(box!.x, `${list}: action ${i} left edge`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${list}: action ${i} right edge`).toBeLessThanOrEqual(width);
  }
}

for (const locale of LANGUAGES) {
  test.describe(`at 1280 × 800 in ${locale}`, () => {
    test.use({ viewport: { width: 1280, height: 800 } });

    test('every list keeps its row actions in view and a row click opens the record', async ({ page }) => {
      test.setTimeout(180_000);
      await signIn(page, 'admin@demo.test');
      await useLanguage(page, locale);
      const paged: string[] = [];
      for (const list of LISTS) {
        const row = await firstRow(page, list);
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        // The page arrows (a list of one page has none on a desktop) are named in the screen's language.
        const arrows = await page
          .getByRole('main')
          .locator('.MuiTablePagination-actions button')
          .evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
        if (arrows.length) paged.push(list);
        for (const name of arrows)
          expect(name, `${list}: page arrow`).toMatch(
            locale === 'ja' ? /^(.+ページへ移動|\d+ページ)$/ : /^(Go to (\w+ )?page( \d+)?|Page \d+)$/,
          );
        await expectActionsInView(page, row, list);
        await row.getByRole('cell').first().click();
        await expect(page, `${list}: a row click opens the record`).toHaveURL(RECORD_URL(list));
      }
      // The demo data fills more than a page on these at least.
      expect(paged).toEqual(expect.arrayContaining(['/panels', '/scans', '/quotes']));
    });

    test("the quotes list keeps each row's Grand Total in view beside its actions", async ({ page }) => {
      await signIn(page, 'admin@demo.test');
      await useLanguage(page, locale);
      const row = await firstRow(page, '/quotes');
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      const heads = await page.getByRole('main').getByRole('columnheader').allTextContents();
      const cells = row.getByRole('cell');
      const totalCell = cells.nth(heads.findIndex((h) => /Grand Total|総合計/.test(h)));
      const total = (await totalCell.boundingBox())!;
      const actions = (await cells.last().boundingBox())!;
      // Wholly on screen, and not under the sticky Action column.
      expect(total.x).toBeGreaterThanOrEqual(0);
      expect(total.x + total.width).toBeLessThanOrEqual(actions.x + 1);
      await expect(totalCell).toContainText(/\d\.\d\d/);
    });
  });
}

test.describe('at 1280 × 800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the columns passing under the sticky ones are shadowed while the table scrolls further right', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    // The scans list's Action column alone; the quotes list's Grand Total beside its Action column.
    for (const [list, edge] of [
      ['/scans', /^Action$/],
      ['/quotes', /^Grand Total$/],
    ] as const) {
      const row = await firstRow(page, list);
      const heads = await page.getByRole('main').getByRole('columnheader').allTextContents();
      const cells = row.getByRole('cell');
      const edgeCell = cells.nth(heads.findIndex((h) => edge.test(h.trim())));
      const shadow = () => edgeCell.evaluate((el) => getComputedStyle(el).boxShadow);
      await expect.poll(shadow, `${list}: shadowed while more is to the right`).not.toBe('none');
      if (list === '/quotes') expect(await cells.last().evaluate((el) => getComputedStyle(el).boxShadow)).toBe('none');
      await page
        .getByRole('main')
        .locator('.RaList-content')
        .evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await expect.poll(shadow, `${list}: no shadow once scrolled to the end`).toBe('none');
    }
  });
});

/** The routes, signed in and then signed out, that scroll sideways at 360 px. */
async function overflowingRoutes(browser: Browser, locale: string): Promise<string[]> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  const token = await apiToken(page.request, 'admin@demo.test');
  const ids = new Map<string, string>();
  const idOf = async ({ service, path }: ApiRoute) => {
    const key = `${service}/${path}`;
    if (!ids.has(key)) {
      const res = await page.request.get(`/api/${key}?page=1&per_page=1`, { headers: bearer(token) });
      ids.set(key, String(((await res.json()) as { items: { id: number }[] }).items[0]?.id ?? ''));
    }
    return ids.get(key)!;
  };
  const urlOf = async (route: AppRoute) => (await routeUrl(route, idOf)) + (QUERIES[route.pattern] ?? '');
  const wide: string[] = [];
  const check = async (url: string) => {
    await settle(page);
    const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    if (scroll > inner) wide.push(`[${locale}] ${url}: ${scroll} > ${inner}`);
  };
  try {
    // Signed in (the sign-in form is filled in English), then the language, then every route...
    await signIn(page, 'admin@demo.test');
    await useLanguage(page, locale);
    for (const route of appRoutes()) {
      const url = await urlOf(route);
      // A page outside the signed-in app (sign-in, the portal) may send a signed-in user elsewhere: loaded as a link would.
      if (route.source === 'page') await page.goto(url);
      else await goInApp(page, url);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await check(url);
    }
    // ...then signed out, the pages that show without a sign-in (the sign-in page, the portal, the password pages).
    await page.evaluate(() => localStorage.removeItem('currentUser'));
    for (const route of appRoutes().filter((r) => r.source === 'page')) {
      const url = await urlOf(route);
      await page.goto(url);
      await check(`${url} (signed out)`);
    }
  } finally {
    await context.close();
  }
  return wide;
}

for (const locale of LANGUAGES) {
  test(`at 360 × 740 in ${locale} no route scrolls sideways`, async ({ browser }) => {
    test.setTimeout(300_000);
    expect(await overflowingRoutes(browser, locale)).toEqual([]);
  });
}

test.describe('at 360 × 740', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('every list shows its rows as cards, each with its fields one under another and its actions in view', async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, 'admin@demo.test');
    for (const list of LISTS) {
      const row = await firstRow(page, list);
      const box = (await row.boundingBox())!;
      expect(box.x, `${list}: the card's left edge`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${list}: the card's right edge`).toBeLessThanOrEqual(360);
      // A card: the record's fields one under another, not side by side as in a table row.
      const [first, second] = [await row.getByRole('cell').nth(0).boundingBox(), await row.getByRole('cell').nth(1).boundingBox()];
      expect(second!.y, `${list}: the second field under the first`).toBeGreaterThanOrEqual(first!.y + first!.height - 1);
      // Each line reads name then value, the right-aligned (money) columns' too.
      const reversed = await row.evaluate(
        (tr) => [...tr.querySelectorAll('td')].filter((td) => getComputedStyle(td).flexDirection !== 'row').length,
      );
      expect(reversed, `${list}: card lines with the value before the name`).toBe(0);
      expect(await namesNotLeft(row), `${list}: card lines whose name is not at the left`).toEqual([]);
      await expectActionsInView(page, row, list);
      // The floating Create button leaves the page arrows free to tap.
      const next = page.getByRole('main').locator('.MuiTablePagination-actions button').last();
      await next.scrollIntoViewIfNeeded();
      const covered = await next.evaluate((b) => {
        const r = b.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        // A disabled arrow lets the point through to its own row of arrows.
        return !!hit && !b.closest('.MuiTablePagination-actions')!.contains(hit);
      });
      expect(covered, `${list}: the next-page arrow under another element`).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${list} scrolls sideways`).toBe(true);
    }
    // A list without actions (the vehicles') keeps its last line's name at the left too.
    expect(await namesNotLeft(await firstRow(page, '/vehicles')), '/vehicles: card lines whose name is not at the left').toEqual([]);
  });

  test('in Japanese every described list names its page arrows and its sort menu as its headings, in Japanese', async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, 'admin@demo.test');
    await useLanguage(page, 'ja');
    expect(DESCRIBED_LISTS.length).toBeGreaterThan(10);
    for (const list of DESCRIBED_LISTS) {
      await firstRow(page, list);
      await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
      // The pagination may come a moment after the first row.
      const arrowButtons = page.getByRole('main').locator('.MuiTablePagination-actions button');
      await expect(arrowButtons.first(), `${list}: page arrows`).toBeAttached();
      const arrows = await arrowButtons.evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
      for (const name of arrows) expect(name, `${list}: page arrow`).toMatch(/ページへ移動$/);
      // The headings the cards hide: the menu offers the sortable ones by the same names.
      const headings = (await page.getByRole('main').getByRole('columnheader').allTextContents()).map((h) => h.trim()).filter(Boolean);
      // The toolbar's menu button, not the hidden headings' own sort buttons.
      const sort = page.getByRole('main').locator('button[aria-haspopup="menu"]:not(th *)');
      if (!(await sort.count())) continue;
      await expect(sort, `${list}: the sort button's name`).toHaveAccessibleName(/^(並べ替え|.+で(昇順|降順)に並べ替え)$/);
      await sort.click();
      const items = await page.getByRole('menuitem').allTextContents();
      expect(items.length, `${list}: sort entries`).toBeGreaterThan(0);
      for (const item of items) {
        const name = item.replace(/ (昇順|降順)$/, '');
        expect(name, `${list}: a sort entry named as a heading`).not.toBe(item);
        expect(headings, `${list}: a sort entry named as a heading`).toContain(name);
      }
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toHaveCount(0);
    }
  });

  test('the scans and the quotes sort their page from a menu too, by the headings the cards hide', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    for (const list of ['/scans', '/quotes']) {
      const first = await firstRow(page, list);
      await expect(first).toBeVisible();
      const sort = page.getByRole('main').locator('button[aria-haspopup="menu"][aria-label^="Sort"]:not(th *)');
      await expect(sort, list).toHaveAccessibleName('Sort');
      await sort.click();
      await page.getByRole('menuitem', { name: 'Registration ascending' }).click();
      await expect(sort, list).toHaveAccessibleName('Sort by Registration ascending');
      const plates = (await page.getByRole('main').locator('table tbody td.column-licensePlate').allTextContents())
        .map((p) => p.trim())
        .filter(Boolean);
      expect(plates.length, list).toBeGreaterThan(1);
      // As the lists order text: numbers within it by their value ('7NV8LU' before '712JD9').
      expect(plates, list).toEqual([...plates].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true })));
    }
  });

  test('a described list sorts from a menu, as its headings are hidden behind the cards', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    await firstRow(page, '/parts');
    // The list's toolbar, not the hidden headings' own buttons.
    const sort = page.getByRole('main').locator('[aria-label^="Sort"]:not(th *)');
    await expect(sort).toBeVisible();
    await sort.click();
    await page.getByRole('menuitem', { name: 'Type' }).click();
    await expect(page).toHaveURL(/sort=type/);
    await expect(sort).toHaveAccessibleName('Sort by Type ascending');

    // A reference column sorts by the name it shows; a list in the server's own order says just 'Sort'.
    await firstRow(page, '/panels');
    await expect(sort).toHaveAccessibleName('Sort');
    await sort.click();
    await page.getByRole('menuitem', { name: 'Panel Group ascending' }).click();
    await expect(page).toHaveURL(/sort=panel_group_name/);
    await expect(page).toHaveURL(/order=ASC/);
    await sort.click();
    await page.getByRole('menuitem', { name: 'Panel Group descending' }).click();
    await expect(page).toHaveURL(/order=DESC/);
  });
});

test('on a desktop a reference column sorts by the name it shows', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await firstRow(page, '/panels');
  await page.getByRole('columnheader', { name: 'Panel Group' }).getByRole('button').click();
  await expect(page).toHaveURL(/sort=panel_group_name/);
  await expect(page.getByRole('columnheader', { name: 'Panel Group' })).toHaveAttribute('aria-sort', 'ascending');
});
