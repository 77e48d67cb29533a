import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  apiGet,
  apiSignIn,
  bearer,
  chooseLanguage,
  clickUntil,
  DEMO_PASSWORD,
  demoDevice,
  ingestScan,
  nav,
  openSignedIn,
  signIn,
  signOut,
} from './helpers';

/**
 * The dashboard: each demo user sees the real counts of their own scope, counted here independently from the
 * scan list; a range picked in the collapsed filter searches at once; a device's scan shows without a reload.
 */

interface ScanItem {
  agent_name: string;
  location_name: string | null;
  type: 'arch' | 'chasis' | 'tire';
}
type Counts = Record<string, { arch: number; chasis: number; tire: number }>;

const melbourneDate = (d = new Date()) => d.toLocaleDateString('en-CA', { timeZone: 'Australia/Melbourne' });

/** Scans per agent (or location) and type between two Melbourne days, from every page of the user's scan list. */
async function countFromScanList(request: APIRequestContext, token: string, ts: string, te: string, by: 'agent' | 'location') {
  const counts: Counts = {};
  for (let page = 1; ; page++) {
    const reply = await request.get(`/api/scan/scans?page=${page}&per_page=100&ts=${ts}&te=${te}`, { headers: bearer(token) });
    expect(reply.ok()).toBe(true);
    const { items } = (await reply.json()) as { items: ScanItem[] };
    for (const s of items) {
      const name = (by === 'agent' ? s.agent_name : s.location_name) ?? 'No location';
      counts[name] ??= { arch: 0, chasis: 0, tire: 0 };
      counts[name][s.type] += 1;
    }
    if (items.length < 100) return counts;
  }
}

/** A chart's figures as the page's table holds them (the same rows the bars draw). */
async function chartCounts(page: Page, id: 'agents' | 'locations'): Promise<Counts> {
  const chart = page.getByTestId(`dashboard-${id}-chart`);
  await expect(chart).toHaveAttribute('aria-busy', 'false');
  const rows = await chart
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map(
        (tr) => [tr.querySelector('th')?.textContent ?? '', ...[...tr.querySelectorAll('td')].map((td) => Number(td.textContent))] as const,
      ),
    );
  return Object.fromEntries(rows.map(([name, arch, chasis, tire]) => [name, { arch, chasis, tire }]));
}

const total = (c: Counts) => Object.values(c).reduce((n, r) => n + r.arch + r.chasis + r.tire, 0);

test.describe('dashboard', () => {
  for (const email of ['admin@demo.test', 'agent@demo.test', 'client@demo.test']) {
    test(`${email}: today's counts and a month's, each of the user's own scope only`, async ({ page, request }) => {
      const user = await apiSignIn(request, email);
      const today = melbourneDate();
      const monthStart = `${today.slice(0, 8)}01`;
      await signIn(page, email);
      await expect(page.getByRole('heading', { level: 1, name: 'Scan Analytics' })).toBeVisible();
      await expect(page.getByRole('heading', { name: "Today's Scans" })).toBeVisible();
      // The chart boxes hold their place from the start (no layout shift when the charts come).
      const box = await page.getByTestId('dashboard-agents-chart').boundingBox();
      expect(box?.height).toBe(360);

      for (const id of ['agents', 'locations'] as const) {
        const expected = await countFromScanList(request, user.token, today, today, id === 'agents' ? 'agent' : 'location');
        if (total(expected) === 0) await expect(page.getByTestId(`dashboard-${id}-chart`)).toContainText('Data Not Available!.');
        else expect(await chartCounts(page, id)).toEqual(expected);
      }

      // This month so far, picked in the collapsed filter: it searches at once.
      await page.getByRole('button', { name: /^Date range:/ }).click();
      const calendar = page.getByRole('dialog', { name: 'Date range' });
      await expect(calendar.getByText('M', { exact: true }).first()).toBeVisible();
      const weekdays = await calendar.locator('.MuiDayCalendar-weekDayLabel').allTextContents();
      expect(weekdays).toEqual(['M', 'T', 'W', 'T', 'F', 'S', 'S']);
      await calendar.getByRole('gridcell', { name: '1', exact: true }).click();
      await expect(calendar.getByText('1 selected')).toBeVisible();
      if (today !== monthStart) await calendar.getByRole('gridcell', { name: String(Number(today.slice(8))), exact: true }).click();
      else await calendar.getByRole('gridcell', { name: '1', exact: true }).click();
      await expect(calendar).toBeHidden();
      const [y, m, d] = today.split('-');
      const label = today === monthStart ? `01-${m}-${y}` : `01-${m}-${y} – ${d}-${m}-${y}`;
      await expect(page.getByRole('heading', { name: `${label} Scans` })).toBeVisible();
      await expect(page.getByText(`${Number(d)} selected`)).toBeVisible();
      const expectedAgents = await countFromScanList(request, user.token, monthStart, today, 'agent');
      const expectedLocations = await countFromScanList(request, user.token, monthStart, today, 'location');
      await expect.poll(() => chartCounts(page, 'agents')).toEqual(expectedAgents);
      expect(await chartCounts(page, 'locations')).toEqual(expectedLocations);

      // Only the user's own agents: names from their (scoped) agents list.
      const agents = (await (await request.get('/api/agent/agents/lists', { headers: bearer(user.token) })).json()) as { text: string }[];
      for (const name of Object.keys(expectedAgents)) expect(agents.map((a) => a.text)).toContain(name);
      // The admin's scope spans several agents (the month so far may hold one agent's scans: on its first day, hardly any).
      if (email === 'admin@demo.test') expect(agents.length).toBeGreaterThan(1);
    });
  }

  test('a scoped user sees less than the admin; the advance filter narrows and Reset goes back to today', async ({ page, request }) => {
    const admin = await apiSignIn(request, 'admin@demo.test');
    const agent = await apiSignIn(request, 'agent@demo.test');
    const since = melbourneDate(new Date(Date.now() - 90 * 86_400_000));
    const today = melbourneDate();
    const all = await countFromScanList(request, admin.token, since, today, 'agent');
    const mine = await countFromScanList(request, agent.token, since, today, 'agent');
    expect(total(mine)).toBeGreaterThan(0);
    expect(total(mine)).toBeLessThan(total(all));

    await openSignedIn(page, 'admin@demo.test', '/');
    await page.getByRole('button', { name: 'Expand to Filter' }).click();
    await expect(page.getByRole('heading', { name: 'Advance Filter' })).toBeVisible();
    const search = page.getByRole('button', { name: 'Search' });
    await expect(search).toBeDisabled();
    const agentName = Object.keys(mine)[0];
    await clickUntil(page.locator('#dashboard-advance-filter').getByRole('combobox', { name: 'Agent' }), () =>
      expect(page.getByRole('option', { name: '---Select Agent---' })).toBeVisible({ timeout: 3_000 }),
    );
    await page.getByRole('option', { name: agentName }).click();
    await expect(search).toBeEnabled();
    // The Location list holds that agent's sites only.
    const get = async (path: string) => (await request.get(`/api/agent/${path}`, { headers: bearer(admin.token) })).json();
    const agentId = (await get('agents/lists')).find((o: { text: string }) => o.text === agentName).value;
    const sites = (await get('locations?per_page=100')).items
      .filter((l: { agent_id: number | null }) => l.agent_id === agentId)
      .map((l: { name: string }) => l.name)
      .sort();
    expect(sites.length).toBeGreaterThan(0);
    await clickUntil(page.locator('#dashboard-advance-filter').getByRole('combobox', { name: 'Location' }), () =>
      expect(page.getByRole('option', { name: '---Select Location---' })).toBeVisible({ timeout: 3_000 }),
    );
    await expect.poll(async () => (await page.getByRole('option').allTextContents()).slice(1).sort()).toEqual(sites);
    await page.keyboard.press('Escape');
    await search.click();
    await expect
      .poll(async () => Object.keys(await chartCounts(page, 'agents')))
      .toEqual((await countFromScanList(request, admin.token, today, today, 'agent'))[agentName] ? [agentName] : []);
    await page.getByRole('button', { name: 'Collapse the filter' }).click();
    await expect(page.getByTestId('dashboard-filter-summary')).toContainText(`Agent:${agentName}`);
    await expect(page.getByTestId('dashboard-filter-summary')).toContainText('Client:Not set');
    await page.getByRole('button', { name: 'Expand to Filter' }).click();
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(page.getByRole('heading', { name: "Today's Scans" })).toBeVisible();
    await expect
      .poll(async () => chartCounts(page, 'agents').then(total))
      .toBe(total(await countFromScanList(request, admin.token, today, today, 'agent')));
  });

  test('a scan sent by a device appears in the charts without a reload', async ({ page, request }) => {
    const { key, device } = await demoDevice(request);

    await openSignedIn(page, 'agent@demo.test', '/');
    const chart = page.getByTestId('dashboard-agents-chart');
    await expect(chart).toHaveAttribute('aria-busy', 'false');
    const before = total(await chartCounts(page, 'agents').catch(() => ({})));
    // Let the live connection subscribe before the device sends.
    await page.waitForTimeout(1500);
    const navigations: string[] = [];
    page.on('framenavigated', (f) => navigations.push(f.url()));

    await ingestScan(request, key, {
      scan_id: `e2e-dash-${Date.now()}`,
      device_id: device.id,
      type: 'tire',
      licensePlate: `DSH${String(Date.now()).slice(-4)}`,
    });
    await expect.poll(async () => total(await chartCounts(page, 'agents')), { timeout: 15_000 }).toBe(before + 1);
    await expect.poll(async () => total(await chartCounts(page, 'locations'))).toBe(before + 1);
    expect(navigations).toEqual([]);
  });

  test("a header agent choice goes to the dashboard and reloads it with that agent's scans only", async ({ page, request }) => {
    const admin = await apiSignIn(request, 'admin@demo.test');
    const today = melbourneDate();
    const todays = await countFromScanList(request, admin.token, today, today, 'agent');
    const agents = (await (await request.get('/api/agent/agents/lists', { headers: bearer(admin.token) })).json()) as { text: string }[];
    const agentName = Object.keys(todays)[0] ?? agents[0].text;
    await openSignedIn(page, 'admin@demo.test', '/');
    expect(await chartCounts(page, 'agents')).toEqual(todays);

    await nav(page).getByRole('link', { name: 'Scans', exact: true }).click();
    await expect(page).toHaveURL(/\/scans$/);
    await page.locator('header').getByRole('combobox', { name: 'Agent' }).click();
    await page.getByRole('option', { name: agentName }).click();
    await expect(page).toHaveURL(/\/$/);
    const expected = todays[agentName] ? { [agentName]: todays[agentName] } : {};
    await expect.poll(() => chartCounts(page, 'agents')).toEqual(expected);
  });

  test("another user signing in on the same browser starts without the last user's header choice", async ({ page, request }) => {
    const admin = await apiSignIn(request, 'admin@demo.test');
    const agents = (await (await request.get('/api/agent/agents/lists', { headers: bearer(admin.token) })).json()) as { text: string }[];
    const email = `header.${Date.now()}@demo.test`;
    const created = await request.post('/api/user/users', {
      headers: bearer(admin.token),
      data: { first_name: 'Hana', last_name: 'Header', email, roles: ['Super Admin'], password: DEMO_PASSWORD },
    });
    expect(created.status()).toBe(201);
    const agentChoice = page.locator('header').getByRole('combobox', { name: 'Agent' });

    await signIn(page, 'admin@demo.test');
    await agentChoice.click();
    await page.getByRole('option', { name: agents[0].text }).click();
    await expect(agentChoice).toHaveText(agents[0].text);
    await signOut(page);
    await signIn(page, 'admin@demo.test');
    await expect(agentChoice).toHaveText(agents[0].text);
    await signOut(page);

    await signIn(page, email);
    await expect(agentChoice).toBeVisible();
    await expect(agentChoice).not.toHaveText(agents[0].text);
    expect(await page.evaluate(() => [localStorage.getItem('selectedAgent'), localStorage.getItem('selectedAgentDetails')])).toEqual([
      null,
      null,
    ]);
  });

  test('the first draw asks only for what it shows: no filter list while collapsed, no tick of an undrawn grid line', async ({ page }) => {
    // Every text recharts measures goes through one hidden span (a forced layout each, which adds blocking time).
    await page.addInitScript(() => {
      const measured: string[] = [];
      (window as unknown as { measured: string[] }).measured = measured;
      const textContent = Object.getOwnPropertyDescriptor(Node.prototype, 'textContent')!;
      Object.defineProperty(Node.prototype, 'textContent', {
        ...textContent,
        set(this: Node, value: string | null) {
          if (this instanceof HTMLElement && this.id === 'recharts_measurement_span') measured.push(String(value));
          textContent.set!.call(this, value);
        },
      });
    });
    const lists: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/agent\/locations\/lists/.test(r.url())) lists.push(r.url());
    });
    await openSignedIn(page, 'admin@demo.test', '/');
    await expect(page.getByTestId('dashboard-locations-chart')).toHaveAttribute('aria-busy', 'false');
    expect(Object.keys(await chartCounts(page, 'locations')).length).toBeGreaterThan(0);
    const measured = await page.evaluate(() => (window as unknown as { measured: string[] }).measured);
    // The Y labels' words are measured to wrap them; the counts' axis has whole numbers only. Fractions such as 0.75
    // came from the grid working out horizontal lines it does not draw.
    expect(measured).toContain('0');
    expect(measured.filter((t) => /^\d+\.\d+$/.test(t))).toEqual([]);
    // Collapsed with nothing applied, the filter says 'Not set' without asking for the locations list.
    await expect(page.getByTestId('dashboard-filter-summary')).toContainText('Location:Not set');
    expect(lists).toEqual([]);
    await page.getByRole('button', { name: 'Expand to Filter' }).click();
    await expect.poll(() => lists.length).toBeGreaterThan(0);
  });

  test('on a phone the chart below the first screen is drawn once scrolled to', async ({ page }) => {
    await page.setViewportSize({ width: 412, height: 823 });
    await openSignedIn(page, 'admin@demo.test', '/');
    await expect(page.getByTestId('dashboard-agents-chart')).toHaveAttribute('aria-busy', 'false');
    const locations = page.getByTestId('dashboard-locations-chart');
    // Both charts' data is there and the first is drawn: only being off screen keeps the second waiting.
    await page.waitForTimeout(1500);
    await expect(locations).toHaveAttribute('aria-busy', 'true');
    await locations.scrollIntoViewIfNeeded();
    await expect(locations).toHaveAttribute('aria-busy', 'false');
  });

  test('Japanese at 360 px: translated, no horizontal scroll', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await signIn(page, 'client@demo.test');
    await page.evaluate(() => localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify('ja')));
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'スキャン分析' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '本日のスキャン' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '展開して絞り込む' })).toBeVisible();
    await expect(page.getByTestId('dashboard-agents-chart')).toHaveAttribute('aria-busy', 'false');
    await page.getByRole('button', { name: /^期間:/ }).click();
    await expect(page.getByRole('dialog', { name: '期間' }).locator('.MuiDayCalendar-weekDayLabel')).toHaveText([
      '月',
      '火',
      '水',
      '木',
      '金',
      '土',
      '日',
    ]);
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});

test("the approval figures show the server's counts for the dashboard's range, in English and Japanese", async ({ page, request }) => {
  const { token } = await apiSignIn(request, 'admin@demo.test');
  const today = melbourneDate();
  const reply = await request.get(`/api/quote/quotes/approval-statistics?ts=${today}&td=${today}`, { headers: bearer(token) });
  expect(reply.ok()).toBe(true);
  const figures = (await reply.json()).data as { sent: number; approved: number; declined: number };
  await openSignedIn(page, 'admin@demo.test', '/');
  const card = page.getByRole('region', { name: 'Approvals' });
  await expect(card).toBeVisible();
  for (const [label, n] of [
    ['Sent for approval', figures.sent],
    ['Approved', figures.approved],
    ['Declined', figures.declined],
  ] as const)
    await expect(
      card
        .getByRole('term')
        .filter({ hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::dd[1]'),
    ).toHaveText(String(n));
  await expect(card.getByText('From scan to approval')).toBeVisible();
  await chooseLanguage(page, '日本語');
  await expect(page.getByRole('region', { name: '承認' }).getByText('送信から承認まで')).toBeVisible();
});

test('the approval figures follow a link sent elsewhere, without a reload', async ({ page, request }) => {
  const { token } = await apiSignIn(request, 'admin@demo.test');
  const quotes = await apiGet<{ id: number; status: string; grant_total: number }[]>(request, token, '/api/quote/quotes?per_page=50');
  const draft = quotes.find((q) => q.status === 'draft' && q.grant_total > 0);
  expect(draft, 'a demo draft quote').toBeTruthy();
  await openSignedIn(page, 'admin@demo.test', '/');
  const sent = page
    .getByRole('region', { name: 'Approvals' })
    .getByRole('term')
    .filter({ hasText: /^Sent for approval$/ })
    .locator('xpath=following-sibling::dd[1]');
  await expect(sent).toHaveText(/^\d+$/);
  const before = Number(await sent.textContent());
  const reply = await request.post(`/api/quote/quotes/${draft!.id}/approval`, {
    headers: bearer(token),
    data: { recipient: `live.${Date.now()}@example.test` },
  });
  expect(reply.ok()).toBe(true);
  await expect(sent).toHaveText(String(before + 1), { timeout: 10_000 });
});
