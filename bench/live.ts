import { chromium, type Browser, type Page } from '@playwright/test';
import { loadAverage, type BenchCheck } from './report';
import { CHROMIUM, CHROMIUM_FLAGS, type RunningServer } from './server';
import { signedIn } from './web';

/** Two editors of one quote each see that the other is editing it within 2 s of both having it open. */
export const PRESENCE_TARGET_MS = 2000;
/** A device's results with new damage show on a scan page already open within 1 s of the device's reply. */
export const NEW_DAMAGE_TARGET_MS = 1000;
const RUNS = 3;

type User = Record<string, unknown> & { token: string };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function api<T>(server: RunningServer, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  // A record or a list's page: `{data}` or `{items, total}`.
  const reply = (await res.json()) as { data?: T; items?: T };
  return (reply.data ?? reply.items) as T;
}

/** A page of `user` at `path`, signed in as the app stores it, on a desktop screen. */
async function open(browser: Browser, server: RunningServer, user: User, path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1350, height: 940 }, locale: 'en-AU', timezoneId: 'Australia/Melbourne' });
  await context.addInitScript((entries) => entries.forEach(([k, v]) => localStorage.setItem(k, v)), Object.entries(signedIn(user)));
  const page = await context.newPage();
  await page.goto(`${server.url}${path}`);
  return page;
}

/**
 * Presence: the admin and the agent open Quote Generation of the same scan (a different scan each run, so no editor
 * of an earlier run is still counted); from the moment both show the quote's summary, the time until each says the
 * other is also editing it. A run's figure is the later of the two.
 */
async function presenceMs(browser: Browser, server: RunningServer, admin: User, agent: User, scanId: number) {
  const path = `/quotes/${scanId}`;
  const [ada, alex] = await Promise.all([open(browser, server, admin, path), open(browser, server, agent, path)]);
  try {
    await Promise.all([ada.getByTestId('quote-summary').waitFor(), alex.getByTestId('quote-summary').waitFor()]);
    const both = Date.now();
    const told = (page: Page) =>
      page
        .getByRole('status')
        .filter({ hasText: 'is also editing this quote' })
        .waitFor({ timeout: 30_000 })
        .then(() => Date.now() - both);
    return Math.max(...(await Promise.all([told(ada), told(alex)])));
  } finally {
    await Promise.all([ada.context().close(), alex.context().close()]);
  }
}

/**
 * New damage: a device sends a vehicle's first scan with one dent, then a second scan; the admin opens the second
 * scan's page; once its live connection has had time to subscribe, the device sends the second scan's results with
 * two more dents. The figure is the time from the device's reply until the page says what is new.
 */
async function newDamageMs(browser: Browser, server: RunningServer, admin: User, key: string, deviceId: number, run: number) {
  const plate = `BN${String(Date.now()).slice(-4)}${run}`;
  const ingest = async (n: number, at: Date) =>
    (
      await api<{ id: number }>(server, key, 'POST', 'scan/ingest/scans', {
        scan_id: `bench-live-${plate}-${n}`,
        device_id: deviceId,
        type: 'arch',
        licensePlate: plate,
        timestamp: at.toISOString(),
      })
    ).id;
  const results = (id: number, medium: number) =>
    api(server, key, 'PUT', `scan/ingest/scans/${id}/results`, { measures: { dents: { left_front_door: { medium } }, scratchs: {} } });
  const first = await ingest(1, new Date(Date.UTC(2026, 0, 10, 1)));
  await results(first, 1);
  const second = await ingest(2, new Date(Date.UTC(2026, 0, 20, 1)));
  const page = await open(browser, server, admin, `/scans/${second}`);
  try {
    await page.getByRole('heading', { name: 'Car Details' }).waitFor();
    await page.waitForTimeout(1500);
    await results(second, 3);
    const answered = Date.now();
    await page.getByRole('status').filter({ hasText: 'New since' }).waitFor({ timeout: 30_000 });
    return Date.now() - answered;
  } finally {
    await page.context().close();
  }
}

/** What a user sees arrive live, in Chromium on the running server: presence on a quote and a scan's new damage. */
export async function benchLive(server: RunningServer, admin: User, agent: User, log: (s: string) => void): Promise<BenchCheck[]> {
  log(`  (${loadAverage()}; a desktop screen, no throttling, median of ${RUNS})`);
  // The terms dialog is not what these figures are about: both users have agreed.
  await Promise.all([admin, agent].map((u) => api(server, u.token, 'POST', 'user/auth/consent', {})));
  const listed = await api<{ id: number; dentCount: number; client_id: number | null }[]>(
    server,
    agent.token,
    'GET',
    'scan/scans?page=1&per_page=50&type=arch',
  );
  const quotable = listed.filter((s) => s.dentCount > 0 && s.client_id !== null).slice(0, RUNS);
  if (quotable.length < RUNS) throw new Error(`live: ${RUNS} demo arch scans of the agent's with dents and a client are needed`);
  const key = (await api<{ token: string }>(server, admin.token, 'GET', `user/users/${Number(agent.id)}/apikey`)).token;
  const [device] = await api<{ id: number }[]>(server, key, 'GET', 'scan/ingest/devices');

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const presence: number[] = [];
    for (const scan of quotable) presence.push(await presenceMs(browser, server, admin, agent, scan.id));
    const newDamage: number[] = [];
    for (let run = 0; run < RUNS; run++) newDamage.push(await newDamageMs(browser, server, admin, key, device.id, run));
    const rows = [
      { name: 'presence on a quote, each editor told of the other', runs: presence, target: PRESENCE_TARGET_MS },
      { name: "a scan's new damage shown after the device's results", runs: newDamage, target: NEW_DAMAGE_TARGET_MS },
    ];
    return rows.map(({ name, runs, target }) => {
      const value = median(runs);
      const met = value <= target;
      log(
        `  ${name.padEnd(54)} ${String(value).padStart(5)} ms (target <= ${target} ms)  runs ${runs.join(', ')}  ${met ? 'met' : 'NOT MET'}`,
      );
      return { name, value: `${value} ms`, target: `<= ${target} ms`, met };
    });
  } finally {
    await browser.close();
  }
}
