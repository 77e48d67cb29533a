import { expect, test, type Page } from '@playwright/test';
import type { ApiRoute } from '../../src/dataProvider/apiRoutes';
import { appRoutes, routeUrl, type AppRoute } from './appRoutes';
import { apiToken, bearer, DEMO_PASSWORD, goInApp, untilStill } from './helpers';
import { seriousViolations } from './axe';

/**
 * Axe finds no serious or critical violation on any screen of the app, in English and in
 * Japanese. The routes come from the app's own definitions (appRoutes.ts), so screens later issues add
 * are checked without touching this file. One browser context per language, signed in once.
 */

const LANGUAGES = [
  { locale: 'en', option: 'English' },
  { locale: 'ja', option: '日本語' },
] as const;

/** Query strings a route needs to show its real content rather than redirect (the reset link's token). */
const QUERIES: Record<string, string> = { '/reset-password': '?token=x' };

interface Finding {
  screen: string;
  rule: string;
  impact: string;
  targets: string[];
}

/** Until the screen has stopped loading and moving (a fade-in would skew contrast). */
async function settle(page: Page) {
  await page.waitForLoadState('load');
  await expect(page.locator('[role="progressbar"]')).toHaveCount(0);
  // A screen still loading its data shows skeletons; its content fades in once they go.
  await expect(page.locator('.MuiSkeleton-root')).toHaveCount(0);
  // Something rendered: the app, or a dialog alone (the customer portal's PIN prompt leaves #root empty).
  await expect(page.locator('#root:not(:empty), [role="dialog"]').first()).toBeAttached();
  await untilStill(page);
}

async function audit(page: Page, screen: string, findings: Finding[]) {
  await settle(page);
  for (const v of await seriousViolations(page))
    findings.push({
      screen,
      rule: v.id,
      impact: v.impact ?? '',
      // The element as well as its selector: a selector such as '.MuiButton-sizeSmall' alone does not say which one.
      targets: v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)} ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`),
    });
}

/** By rule: the screens it fails on, then the first few elements it names. */
function report(findings: Finding[]) {
  const rules = new Map<string, { impact: string; screens: string[]; targets: Set<string> }>();
  for (const f of findings) {
    const r = rules.get(f.rule) ?? { impact: f.impact, screens: [], targets: new Set<string>() };
    r.screens.push(f.screen);
    f.targets.forEach((t) => r.targets.add(t));
    rules.set(f.rule, r);
  }
  return [...rules]
    .map(
      ([rule, r]) =>
        `${rule} (${r.impact}) on ${r.screens.length}: ${r.screens.join(', ')}\n    ${[...r.targets].slice(0, 6).join('\n    ')}`,
    )
    .join('\n');
}

/** Signs in through the real form; the terms dialog is audited before it is accepted. */
async function signInAudited(page: Page, findings: Finding[], screen: (name: string) => string) {
  await page.goto('/login');
  await page.locator('input[name="email"]').fill('admin@demo.test');
  await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
  await page.locator('button[type="submit"]').click();
  // Signing in returns to the last page the signed-out visit asked for (a deep link); the audit goes on from /.
  await expect(page).not.toHaveURL(/\/login$/);
  if (new URL(page.url()).pathname !== '/') await page.goto('/');
  await settle(page);
  const dialog = page.getByRole('dialog');
  if (await dialog.count()) {
    await audit(page, screen('/ (terms dialog)'), findings);
    await dialog.getByRole('checkbox').check();
    // Submit, after the link that opens the full text.
    await dialog.getByRole('button').last().click();
    await expect(dialog).toBeHidden();
  }
}

/** Every route in one language, in its own browser context; returns what axe found and the screens audited. */
async function auditLanguage(page: Page, locale: string, option: string) {
  const findings: Finding[] = [];
  const routes = appRoutes();
  const visited: string[] = [];
  const screen = (name: string) => `[${locale}] ${name}`;

  // Signed out first (the sign-in page, then every page that shows without a sign-in)...
  if (locale !== 'en') {
    // The language switch lives in the signed-in header; the choice outlives the sign-out.
    await signInAudited(page, [], screen);
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: option }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await page.evaluate(() => localStorage.removeItem('currentUser'));
  }
  // Ids of demo records for routes with parameters, through the API (the browser's own sign-in comes later).
  const token = await apiToken(page.request, 'admin@demo.test');
  const ids = new Map<string, string>();
  const idOf = async ({ service, path }: ApiRoute) => {
    const known = ids.get(`${service}/${path}`);
    if (known) return known;
    const res = await page.request.get(`/api/${service}/${path}?page=1&per_page=1`, { headers: bearer(token) });
    expect(res.ok(), `GET ${path}`).toBe(true);
    const id = String(((await res.json()) as { items: { id: number }[] }).items[0]?.id ?? '');
    expect(id, `a demo record of ${service}/${path}`).not.toBe('');
    ids.set(`${service}/${path}`, id);
    return id;
  };
  const urlOf = async (route: AppRoute) => (await routeUrl(route, idOf)) + (QUERIES[route.pattern] ?? '');

  const signedIn: AppRoute[] = [];
  for (const route of [...routes.filter((r) => r.pattern === '/login'), ...routes.filter((r) => r.pattern !== '/login')]) {
    if (route.source !== 'page') {
      signedIn.push(route);
      continue;
    }
    const url = await urlOf(route);
    await page.goto(url);
    await settle(page);
    if (route.pattern !== '/login' && new URL(page.url()).pathname === '/login') {
      signedIn.push(route);
      continue;
    }
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await audit(page, screen(`${url} (signed out)`), findings);
    visited.push(url);
  }

  // ...then signed in as the demo Super Admin, every other route.
  await signInAudited(page, findings, screen);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  for (const route of signedIn) {
    const url = await urlOf(route);
    await goInApp(page, url);
    await audit(page, screen(url), findings);
    visited.push(url);
  }

  // A form after an invalid submit: messages under the inputs, the first invalid one focused.
  await page.goto('/locations/create');
  await settle(page);
  await page.locator('form button[type="submit"]').click();
  await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
  await audit(page, screen('/locations/create (invalid submit)'), findings);

  // The account drawer (Update Profile, Logout).
  await page.goto('/');
  await settle(page);
  await page.locator('header .MuiChip-root').click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await audit(page, screen('/ (account drawer)'), findings);

  // The dashboard with its charts, then its advance filter open, then the range calendar.
  await page.goto('/');
  await settle(page);
  await expect(page.getByTestId('dashboard-agents-chart')).toHaveAttribute('aria-busy', 'false');
  await audit(page, screen('/ (charts)'), findings);
  await page.locator('[aria-controls="dashboard-advance-filter"]').click();
  await expect(page.locator('#dashboard-advance-filter form')).toBeVisible();
  await audit(page, screen('/ (advance filter open)'), findings);
  await page.locator('#dashboard-advance-filter button[aria-haspopup="dialog"]').click();
  await expect(page.getByRole('dialog').getByRole('grid')).toBeVisible();
  await audit(page, screen('/ (date range calendar)'), findings);
  await page.keyboard.press('Escape');

  // A phone: the menu as a temporary drawer over the page.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/');
  await settle(page);
  await page.locator('header button').first().click();
  await expect(page.getByRole('dialog').getByRole('navigation')).toBeVisible();
  await audit(page, screen('/ (360 px, menu open)'), findings);

  expect(visited.length, `${locale}: every route visited`).toBeGreaterThanOrEqual(routes.length);
  return { findings, visited };
}

test('no serious or critical axe violation on any route, in English and Japanese', async ({ browser, baseURL }) => {
  // About 50 routes twice: 3–4 minutes alone on two cores, far more beside other work.
  test.setTimeout(900_000);
  // The two languages side by side, each in its own context (axe is CPU-bound: two renderers use two cores).
  const results = await Promise.all(
    LANGUAGES.map(async ({ locale, option }) => {
      // Axe reads colours as painted: with motion reduced the page's fade-in is off, so a screen whose page mounts after
      // the wait for animations is not read half-transparent.
      const context = await browser.newContext({ baseURL, locale: 'en-AU', timezoneId: 'Australia/Melbourne', reducedMotion: 'reduce' });
      try {
        return await auditLanguage(await context.newPage(), locale, option);
      } finally {
        await context.close();
      }
    }),
  );
  for (const [i, { visited }] of results.entries()) console.log(`${LANGUAGES[i].locale}: ${visited.length} routes: ${visited.join(' ')}`);
  const findings = results.flatMap((r) => r.findings);
  expect(findings, report(findings)).toEqual([]);
});

/** A demo scan of a type with what the audit needs open (damage to open a modal on, tyres to draw). */
async function demoScan(page: Page, token: string, type: string, ok: (s: { dentCount: number; data: unknown[] }) => boolean) {
  const headers = bearer(token);
  const list = (await (await page.request.get(`/api/scan/scans?type=${type}&status=uploaded&per_page=50`, { headers })).json()) as {
    items: { id: number; agent_id: number; dentCount: number }[];
  };
  for (const item of list.items) {
    const scan = (
      (await (await page.request.get(`/api/scan/scans/${item.id}`, { headers })).json()) as { data: { dentCount: number; data: unknown[] } }
    ).data;
    if (ok(scan)) return item;
  }
  throw new Error(`no demo ${type} scan fits`);
}

test('the scan page: sketch, damage modal, tyres and graph, the agent viewer; at 360 px no sideways scrolling; English and Japanese', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const results = await Promise.all(
    LANGUAGES.map(async ({ locale, option }) => {
      // Axe reads colours as painted: with motion reduced the page's fade-in is off, so a screen whose page mounts after
      // the wait for animations is not read half-transparent.
      const context = await browser.newContext({ baseURL, locale: 'en-AU', timezoneId: 'Australia/Melbourne', reducedMotion: 'reduce' });
      const page = await context.newPage();
      const findings: Finding[] = [];
      const widths: string[] = [];
      const screen = (name: string) => `[${locale}] ${name}`;
      try {
        await signInAudited(page, [], screen);
        if (locale !== 'en') {
          await page.getByRole('combobox', { name: 'Language' }).click();
          await page.getByRole('option', { name: option }).click();
          await expect(page.locator('html')).toHaveAttribute('lang', locale);
        }
        const token = await apiToken(page.request, 'admin@demo.test');
        const body = await demoScan(page, token, 'arch', (s) => s.dentCount > 0);
        const tyres = await demoScan(page, token, 'tire', (s) => s.data.length > 0);
        for (const width of [1280, 360]) {
          await page.setViewportSize({ width, height: 800 });
          const noSidewaysScroll = async (name: string) => {
            const [scroll, client] = await page.evaluate(() => [
              document.documentElement.scrollWidth,
              document.documentElement.clientWidth,
            ]);
            if (scroll > client) widths.push(`${screen(name)} at ${width} px: ${scroll} > ${client}`);
          };
          await page.goto(`/scans/${body.id}`);
          await expect(page.locator('[data-field="licensePlate"]')).toBeVisible();
          await audit(page, screen(`/scans/${body.id} (${width} px)`), findings);
          await noSidewaysScroll(`/scans/${body.id}`);
          // A chip of the sketch: the damage modal.
          await page.locator('button[aria-label*=": "]').filter({ hasText: /^\d+$/ }).first().click();
          await expect(page.getByRole('dialog')).toBeVisible();
          await audit(page, screen(`/scans/${body.id} (damage modal, ${width} px)`), findings);
          await page.keyboard.press('Escape');
          await expect(page.getByRole('dialog')).toBeHidden();

          await page.goto(`/scans/${tyres.id}`);
          await expect(page.locator('[data-field="licensePlate"]')).toBeVisible();
          await audit(page, screen(`/scans/${tyres.id} (${width} px)`), findings);
          await noSidewaysScroll(`/scans/${tyres.id}`);
          await page.getByRole('tabpanel').getByRole('button').first().click();
          await expect(page.getByRole('dialog')).toBeVisible();
          await audit(page, screen(`/scans/${tyres.id} (tyre graph, ${width} px)`), findings);
          await page.keyboard.press('Escape');

          // The agent viewer: the repair choices instead of the graph.
          await page.goto(`/scans/${tyres.id}/${tyres.agent_id}`);
          await expect(page.locator('[data-field="licensePlate"]')).toBeVisible();
          await audit(page, screen(`/scans/${tyres.id}/${tyres.agent_id} (agent viewer, ${width} px)`), findings);
          await noSidewaysScroll(`/scans/${tyres.id}/${tyres.agent_id}`);
        }
        return { findings, widths };
      } finally {
        await context.close();
      }
    }),
  );
  const findings = results.flatMap((r) => r.findings);
  expect(findings, report(findings)).toEqual([]);
  expect(results.flatMap((r) => r.widths)).toEqual([]);
});
