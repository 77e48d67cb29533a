import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import pg from 'pg';
import { panelApplies } from '../../src/domain/pricing';
import { unquotedDamagedPanels } from '../../src/domain/quote-rules';
import { toCurrentUser, type CurrentUser } from '../../src/session/currentUser';
import { STORAGE_KEYS } from '../../src/session/storage';
import { seriousViolations } from './axe';
import { e2eDatabaseUrl, e2eServerAt } from './server-env';

export const DEMO_PASSWORD = 'demo-password-1';

/**
 * Signs in through the form and lands on the dashboard; the terms dialog, when the login reply says the user has not
 * agreed yet (`consent` 0), is accepted.
 */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const reply = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/user/auth/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  const { data } = (await (await reply).json()) as { data?: { consent?: number } };
  await expect(page).toHaveURL(/\/$/);
  if (data?.consent === 0) await acceptTerms(page);
}

/**
 * Opens `url` as a user coming back to the app with a session: signed in through the API, the user stored where the
 * app keeps it, then the page loaded once. The sign-in form has tests of its own (`signIn` and shell.spec.ts); a test
 * of a screen then pays for one start of the app, not for the form's page, the dashboard and the screen's own load.
 */
export async function openSignedIn(page: Page, email: string, url: string, password = DEMO_PASSWORD) {
  let user = await apiSignIn(page.request, email, password);
  // The terms dialog shows on the dashboard only; agreeing through the API leaves the user as `signIn` leaves them.
  if (user.consent === 0) {
    const agreed = await page.request.post('/api/user/auth/consent', { headers: { authorization: `Bearer ${user.token}` } });
    expect(agreed.ok(), `the terms agreed for ${email}`).toBe(true);
    user = { ...user, consent: 1 };
  }
  // Any page of the origin gives its local storage; the icon loads no script.
  await page.goto('/favicon.svg');
  // What the app's own sign-in stores (src/authProvider): the user, and whose header selection the tab holds.
  await page.evaluate(
    ({ keys, user }) => {
      localStorage.setItem(keys.currentUser, JSON.stringify(user));
      localStorage.setItem(keys.selectionOwner, JSON.stringify(user.id));
    },
    { keys: STORAGE_KEYS, user },
  );
  await page.goto(url);
}

async function acceptTerms(page: Page) {
  const dialog = page.getByRole('dialog').filter({ hasText: 'I agree to the Terms and Conditions' });
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
}

export async function acceptTermsIfShown(page: Page) {
  const dialog = page.getByRole('dialog').filter({ hasText: 'I agree to the Terms and Conditions' });
  try {
    await dialog.waitFor({ timeout: 3000 });
  } catch {
    return;
  }
  await acceptTerms(page);
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'My Account' }).click();
  await page
    .getByRole('button', { name: 'Logout' })
    .or(page.getByRole('menuitem', { name: 'Logout' }))
    .first()
    .click();
  await expect(page).toHaveURL(/\/login$/);
}

export const nav = (page: Page) => page.getByRole('navigation');

/**
 * Clicks until `done` holds. On a busy machine a click can land while a list re-renders (a debounced search, a
 * refetch) and be lost with the element it hit; the user clicks again, and so does the test.
 */
export async function clickUntil(target: Locator, done: () => Promise<void>) {
  await expect(async () => {
    await target.click({ timeout: 5_000 });
    await done();
  }).toPass({ timeout: 30_000 });
}

/** The header that authorises an API call with a sign-in token or a device's API key. */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A sign-in token for API calls beside the browser (the demo password by default). */
export async function apiToken(request: APIRequestContext, email: string, password = DEMO_PASSWORD) {
  return (await apiSignIn(request, email, password)).token;
}

/** Signs in through the API: the user as the login call returns it and the app stores it. */
export async function apiSignIn(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<CurrentUser> {
  const reply = await request.post('/api/user/auth/login', { data: { email, password } });
  expect(reply.ok(), `sign-in of ${email}`).toBe(true);
  const user = toCurrentUser(((await reply.json()) as { data: unknown }).data);
  if (!user) throw new Error(`the sign-in reply of ${email} carries no user`);
  return user;
}

/**
 * What a device sends with, as the demo Agent user's API key (made by the admin), and its first device; `headers`
 * authorises a call with a token or the key.
 */
export async function demoDevice(request: APIRequestContext) {
  const admin = await apiToken(request, 'admin@demo.test');
  const agent = await apiSignIn(request, 'agent@demo.test');
  const headers = bearer;
  const key = (await (await request.get(`/api/user/users/${agent.id}/apikey`, { headers: headers(admin) })).json()).data.token as string;
  const [device] = (await (await request.get('/api/scan/ingest/devices', { headers: headers(key) })).json()).data as {
    id: number;
    agent_id: number;
  }[];
  expect(device, 'a device of the demo agent').toBeDefined();
  return { admin, key, device, headers };
}

/**
 * A scan the device announces through the ingestion API (docs/ingestion.md), authorised by the agent's API key: the
 * scan as the reply gives it (the scan list's row).
 */
export async function ingestScan<T extends { id: number } = { id: number }>(
  request: APIRequestContext,
  key: string,
  scan: { scan_id: string; device_id: number; type: 'arch' | 'chasis' | 'tire' } & Record<string, unknown>,
): Promise<T> {
  const created = await request.post('/api/scan/ingest/scans', { headers: bearer(key), data: scan });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { data: T }).data;
}

/** GET as the token's user: a record's `data` or a page's `items`. */
export async function apiGet<T>(request: APIRequestContext, token: string, url: string): Promise<T> {
  const reply = await request.get(url, { headers: bearer(token) });
  expect(reply.ok(), url).toBe(true);
  const body = (await reply.json()) as { data?: T; items?: T };
  return (body.data ?? body.items) as T;
}

/**
 * The items of a quote that prices every damaged car panel of the scan at its default (pdr at its category, a scratch
 * line at spot), as Quote Generation first shows them in a D vehicle: the body a save needs (it refuses a damaged panel
 * left out).
 */
export async function defaultQuoteItems(request: APIRequestContext, token: string, scanId: number) {
  type Evaluated = {
    panels: { id: number; car_panel: string | null; type: 'D' | 'L' | 'XL'; hasLargeVariant: boolean }[];
    measures: { damage_count: { dents: Record<string, number>; scratchs: Record<string, number> } };
  };
  const { panels, measures } = await apiGet<Evaluated>(request, token, `/api/scan/scans/${scanId}/evaluate`);
  const shown = panels.map((p) => ({ id: p.id, carPanel: p.car_panel, label: '', applies: panelApplies(p, 'D') }));
  const { dents } = measures.damage_count;
  return Object.fromEntries(
    unquotedDamagedPanels(shown, measures.damage_count, new Set()).map((p) => [
      String(p.id),
      (dents[p.carPanel!] ?? 0) > 0 ? { repair_type: 'pdr' } : {},
    ]),
  );
}

/** A PDF's text lines as a reader sees them (poppler's pdftotext -layout keeps a row on one line), spaces collapsed. */
export async function pdfLines(request: APIRequestContext, url: string, token?: string) {
  const res = await request.get(url, token ? { headers: bearer(token) } : undefined);
  expect(res.ok(), url).toBe(true);
  expect(res.headers()['content-type']).toBe('application/pdf');
  const dir = mkdtempSync(path.join(tmpdir(), 'e2e-pdf-'));
  try {
    writeFileSync(path.join(dir, 'doc.pdf'), await res.body());
    return execFileSync('pdftotext', ['-layout', path.join(dir, 'doc.pdf'), '-'], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().replace(/\s+/g, ' '))
      .filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Chooses the interface language with the header's switch (named 'Language', or '言語' in Japanese). */
export async function chooseLanguage(page: Page, option: '日本語' | 'English') {
  const languageSwitch = /^(Language|言語)$/;
  await page.getByRole('button', { name: languageSwitch }).or(page.getByLabel(languageSwitch)).first().click();
  await page
    .getByRole('option', { name: option })
    .or(page.getByRole('menuitem', { name: option }))
    .first()
    .click();
}

/** The approval link of the latest mail the outbox holds for `to`, read from the server's database. */
export async function linkMailedTo(baseURL: string, to: string) {
  const db = new pg.Client({ connectionString: e2eDatabaseUrl(e2eServerAt(baseURL)) });
  await db.connect();
  try {
    const r = await db.query<{ html: string }>('select html from mail_outbox where $1 = any(recipients) order by id desc limit 1', [to]);
    return /\/approve\/[A-Za-z0-9_-]{43}/.exec(r.rows[0]?.html ?? '')?.[0] ?? null;
  } finally {
    await db.end();
  }
}

/**
 * Until nothing on the page has loaded or moved for a quarter of a second: no spinner, no skeleton, no running
 * animation or transition. A screen can sit between two loads for a frame (its code arrived, its record not yet asked
 * for), and a check at that instant sees content that then fades in again: axe would measure the contrast of
 * half-faded text.
 */
/**
 * Moves the running app to `url` as its own links do (the router's history, no page load): a sweep of every screen
 * then pays for each screen's render, not for loading and starting the app again.
 */
export async function goInApp(page: Page, url: string) {
  const target = new URL(url, page.url());
  const now = new URL(page.url());
  if (target.pathname === now.pathname && target.search === now.search) return;
  const before = await page.evaluate(() => document.getElementById('root')?.innerHTML ?? '');
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, url);
  await page.waitForURL((now) => now.pathname === target.pathname);
  // The router may keep the last screen up while the next one loads (a transition): not done until the page changed.
  await page.waitForFunction((old) => (document.getElementById('root')?.innerHTML ?? '') !== old, before);
}

export async function untilStill(page: Page) {
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const still = () =>
          !document.querySelector('[role="progressbar"], .MuiSkeleton-root') &&
          document.getAnimations().every((a) => a.playState !== 'running');
        let since = performance.now();
        const check = () => {
          if (!still()) since = performance.now();
          if (performance.now() - since >= 250) resolve(true);
          else setTimeout(check, 50);
        };
        check();
      }),
  );
}

/** Draws a stroke on the approval page's signature pad, as a customer signs with a finger or a mouse. */
export async function drawSignature(page: Page) {
  const pad = page.getByRole('img', { name: 'Signature' });
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 20);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + 60, { steps: 5 });
  await page.mouse.move(box.x + 200, box.y + 30, { steps: 5 });
  await page.mouse.up();
}

/** axe finds no serious or critical violation on the page, and the page does not scroll sideways. */
export async function expectAccessibleAndFitting(page: Page) {
  const serious = (await seriousViolations(page)).map((v) => `${v.id}: ${v.nodes[0]?.html}`);
  expect(serious).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}
