import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { bearer, apiSignIn, defaultQuoteItems, demoDevice, signIn, untilStill, ingestScan } from './helpers';
import { seriousViolations } from './axe';

/**
 * The customer portal signed out (docs/portal.md): the cards and their live moves,
 * Create Scan, the read-only scan page, Go to Admin's Code Validation with its throttle, the agent's branding, a
 * disabled agent, English and Japanese, 360 px, and axe on every state.
 */

const PIN = '246810';
const SCAN_TIME = /^Scan Time: \d{2}-\d{2}-\d{4} \d{2}:\d{2} (AM|PM)$/;

/** A scan sent by the device through the ingestion API (docs/ingestion.md). */
async function ingest(request: APIRequestContext, key: string, deviceId: number, plate: string) {
  const scan = await ingestScan(request, key, {
    scan_id: `portal-${plate.toLowerCase()}-${Date.now()}`,
    device_id: deviceId,
    type: 'arch',
    licensePlate: plate,
    make: 'Subaru',
    model: 'Outback',
  });
  return scan.id;
}

/** A fresh agent of our own (the pincode throttle counts per agent and address: the demo agents stay untouched). */
async function freshAgent(request: APIRequestContext, admin: string, over: Record<string, unknown> = {}) {
  const clients = (await (await request.get('/api/quote/clients?page=1&per_page=1', { headers: bearer(admin) })).json()) as {
    items: { id: number }[];
  };
  const res = await request.post('/api/agent/agents', {
    headers: bearer(admin),
    data: {
      name: `Portal E2E ${Date.now()}`,
      phone: '0390001111',
      email: 'portal-e2e@agent.test',
      address: '1 Kiosk St',
      portal_email_address: 'portal-e2e@agent.test',
      abn: '51824753556',
      default_client_id: clients.items[0].id,
      language: 'en',
      pincode: PIN,
      portal_mode: 'open',
      ...over,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { data: { id: number; name: string } }).data;
}

/** Enrols this browser context as the agent's kiosk through the API, as the pincode dialog would. */
async function enrol(page: Page, request: APIRequestContext, agentId: number) {
  const res = await request.post(`/api/agent/agents/${agentId}/portal/enrol`, { data: { pincode: PIN } });
  expect(res.status()).toBe(200);
  const { kiosk_token, expires_at } = ((await res.json()) as { data: { kiosk_token: string; expires_at: string } }).data;
  await page.addInitScript(([id, kiosk]) => localStorage.setItem(`kioskToken.${id}`, kiosk), [
    String(agentId),
    JSON.stringify({ token: kiosk_token, expires_at }),
  ] as const);
}

/** The interface language, as the header's selector stores it (react-admin's store). */
async function useLanguage(page: Page, locale: 'en' | 'ja') {
  await page.addInitScript((l) => {
    localStorage.setItem('RaStoreScanQuote.version', '1');
    localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify(l));
  }, locale);
}

async function expectNoSeriousAxe(page: Page, screen: string) {
  await untilStill(page);
  const serious = await seriousViolations(page);
  expect(serious.map((v) => `${screen}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function expectNoHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(await page.evaluate(() => window.innerWidth));
}

/** No app bar, no menu: the only navigation landmark is the breadcrumb. */
async function expectKiosk(page: Page) {
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toBeVisible();
  await expect(page.getByRole('navigation')).toHaveCount(1);
  await expect(page.getByRole('banner')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Scans' })).toHaveCount(0);
}

/**
 * Holds back the replies to `url` (only its `method` calls when given) until the returned function is called: for
 * what the page shows, or asks for, meanwhile.
 */
async function holdBack(page: Page, url: string, method?: string) {
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route(url, async (route) => {
    if (!method || route.request().method() === method) await held;
    await route.continue();
  });
  return release;
}

const section = (page: Page, name: string) => page.getByRole('region', { name });
const cards = (page: Page, name: string) => section(page, name).getByRole('list').getByRole('listitem');

test.describe('customer portal, signed out', () => {
  test('cards load with skeletons, a device scan and an update arrive live, View Scan opens the read-only scan page', async ({
    page,
    request,
  }) => {
    const { admin, key, device } = await demoDevice(request);
    const agentId = device.agent_id;
    await enrol(page, request, agentId);
    const firstPlate = `PA${String(Date.now()).slice(-5)}`;
    const first = await ingest(request, key, device.id, firstPlate);

    // The list call held back: five skeleton cards in each section meanwhile.
    const release = await holdBack(page, `**/api/scan/portal/${agentId}/scans`);
    const sockets: import('@playwright/test').WebSocket[] = [];
    page.on('websocket', (ws) => sockets.push(ws));
    const listed = page.waitForResponse((r) => r.url().endsWith(`/api/scan/portal/${agentId}/scans`) && r.request().method() === 'GET');
    await page.goto(`/customer-portal/${agentId}`);
    await expect(page.getByRole('heading', { name: 'NEW SCANS' })).toBeVisible();
    await expect(section(page, 'NEW SCANS').getByTestId('portal-skeleton')).toHaveCount(5);
    await expect(section(page, 'COMPLETED SCANS').getByTestId('portal-skeleton')).toHaveCount(5);
    release();

    // No sidebar and no header icons: a kiosk (the one navigation is the breadcrumb).
    await expectKiosk(page);

    const newScans = cards(page, 'NEW SCANS');
    await expect(newScans.first()).toContainText('Car Details');
    await expect(newScans.first()).toContainText(`Registration: ${firstPlate}`);
    await expect(newScans.first().getByText(/^Scan Time:/)).toHaveText(SCAN_TIME);
    // COMPLETED SCANS holds the scans with a quote (the demo data quotes some), else says it has none.
    const { items } = (await (await listed).json()) as { items: { has_quote: boolean }[] };
    const completed = items.filter((i) => i.has_quote).length;
    if (completed) await expect(cards(page, 'COMPLETED SCANS')).toHaveCount(completed);
    else await expect(section(page, 'COMPLETED SCANS').getByText('Completed Scans Not Available!.')).toBeVisible();
    await expect(cards(page, 'NEW SCANS')).toHaveCount(items.length - completed);
    // The grid scrolls within 400 px.
    expect(
      await section(page, 'NEW SCANS')
        .getByRole('list')
        .evaluate((el) => getComputedStyle(el).maxHeight),
    ).toBe('400px');

    // Live: a scan the device sends now goes on top of NEW SCANS, no reload.
    await page.waitForTimeout(1500);
    const plate = `PB${String(Date.now()).slice(-5)}`;
    const second = await ingest(request, key, device.id, plate);
    await expect(newScans.first()).toContainText(`Registration: ${plate}`);
    // An update of the older scan moves its card back on top (once).
    const renamed = `PC${String(Date.now()).slice(-5)}`;
    const put = await request.put(`/api/scan/scans/${first}`, { headers: bearer(admin), data: { licensePlate: renamed } });
    expect(put.ok()).toBe(true);
    await expect(newScans.first()).toContainText(`Registration: ${renamed}`);
    await expect(newScans.filter({ hasText: renamed })).toHaveCount(1);
    await expect(newScans.nth(1)).toContainText(`Registration: ${plate}`);
    expect(second).toBeGreaterThan(first);
    await expectNoSeriousAxe(page, 'portal list');

    // A quote saved for the newer scan moves its card from NEW SCANS to the top of COMPLETED SCANS, no reload.
    const scan = (await (await request.get(`/api/scan/scans/${second}`, { headers: bearer(admin) })).json()) as {
      data: { client_id: number };
    };
    const quote = await request.post('/api/quote/quotes', {
      headers: bearer(admin),
      data: { scan_id: second, client_id: scan.data.client_id, items: await defaultQuoteItems(request, admin, second) },
    });
    expect(quote.status(), await quote.text()).toBe(201);
    await expect(cards(page, 'COMPLETED SCANS').first()).toContainText(`Registration: ${plate}`);
    await expect(newScans.filter({ hasText: `Registration: ${plate}` })).toHaveCount(0);

    // View Scan: the scan page under the portal, read-only, with the customer's vehicle only.
    await newScans
      .first()
      .getByRole('link', { name: `View Scan ${renamed}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/customer-portal/${agentId}/${first}$`));
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs).toContainText('Customer Portal');
    await expect(crumbs).toContainText('Scan Detail');
    const car = page.locator('.MuiCard-root').filter({ hasText: 'Car Details' });
    await expect(car).toContainText(renamed);
    await expect(car).toContainText('Subaru');
    await expect(car).toContainText('Outback');
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create Scan' })).toHaveCount(0);
    // Nothing staff-side: no client, agent or location, no valuation, no reports.
    await expect(page.getByText(/Client|Location|Valuation|View PDF|Scan Report/)).toHaveCount(0);
    // A live update of this scan shows without Refresh.
    const again = `PD${String(Date.now()).slice(-5)}`;
    expect((await request.put(`/api/scan/scans/${first}`, { headers: bearer(admin), data: { licensePlate: again } })).ok()).toBe(true);
    await expect(car).toContainText(again);
    await expectNoSeriousAxe(page, 'portal scan page');

    // The breadcrumb goes back; leaving the portal for the sign-in leaves the live channel (its socket closes).
    await crumbs.getByRole('link', { name: 'Customer Portal' }).click();
    await expect(page).toHaveURL(new RegExp(`/customer-portal/${agentId}$`));
    // Reloaded from the server: the quoted scan among the completed ones, the renamed one among the new.
    await expect(cards(page, 'COMPLETED SCANS').first()).toContainText(`Registration: ${plate}`);
    await expect(newScans.filter({ hasText: `Registration: ${again}` })).toHaveCount(1);
    const live = sockets.filter((ws) => ws.url().includes('/app/') && !ws.isClosed());
    expect(live.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Go to Admin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Code Validation' });
    await dialog.getByLabel('Pincode').fill(PIN);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    // /scans still needs a sign-in.
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => live.every((ws) => ws.isClosed())).toBe(true);
  });

  test('the agent and the scan lists are asked for together; the page shows them once both are there', async ({ page, request }) => {
    const { admin } = await demoDevice(request);
    const agent = await freshAgent(request, admin);
    await enrol(page, request, agent.id);
    // The agent's reply held back until the lists have been asked for: asked after it, they never would be.
    const release = await holdBack(page, `**/api/agent/agents/${agent.id}/portal`);
    const lists = page.waitForRequest((r) => r.url().endsWith(`/api/scan/portal/${agent.id}/scans`));
    await page.goto(`/customer-portal/${agent.id}`);
    await lists;
    release();
    for (const name of ['NEW SCANS', 'COMPLETED SCANS']) {
      await expect(section(page, name)).toBeVisible();
      await expect(section(page, name).getByTestId('portal-skeleton')).toHaveCount(0);
    }
  });

  test('Create Scan makes a manual tire scan and opens its page; Refresh reloads it', async ({ page, request }) => {
    const admin = (await apiSignIn(request, 'admin@demo.test')).token;
    const agent = await freshAgent(request, admin);
    await page.goto(`/customer-portal/${agent.id}`);
    await expect(section(page, 'NEW SCANS').getByText('New Scans Not Available!.')).toBeVisible();
    await expect(section(page, 'COMPLETED SCANS').getByText('Completed Scans Not Available!.')).toBeVisible();

    // Held, so 'Creating...' shows.
    const release = await holdBack(page, `**/api/scan/portal/${agent.id}/scans`, 'POST');
    const create = page.getByRole('button', { name: 'Create Scan' });
    await create.hover();
    await expect(page.getByRole('tooltip')).toHaveText('Create manual scan');
    await create.click();
    await expect(page.getByRole('button', { name: 'Creating...' })).toBeDisabled();
    release();
    await expect(page).toHaveURL(new RegExp(`/customer-portal/${agent.id}/\\d+$`));
    const scanId = /\/(\d+)$/.exec(page.url())![1];
    const details = page.locator('.MuiCard-root').filter({ hasText: 'Scan Details' });
    await expect(details).toContainText('Tire');
    await expect(details).toContainText('Uploaded');
    await expect(page.locator('.MuiCard-root').filter({ hasText: 'Car Details' })).toContainText('Registration');
    await expect(page.getByText('No Damage Detected!.')).toBeVisible();
    const reload = page.waitForResponse((r) => r.url().endsWith(`/api/scan/portal/${agent.id}/scans/${scanId}`) && r.status() === 200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await reload;

    // Back on the portal it is a new scan.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Customer Portal' }).click();
    await expect(cards(page, 'NEW SCANS')).toHaveCount(1);
    await expect(cards(page, 'NEW SCANS').first()).toContainText('Registration: Nil');
  });

  test("Go to Admin's Code Validation: required, a wrong pin clears the field, the throttle says when to retry", async ({
    page,
    request,
  }) => {
    const admin = (await apiSignIn(request, 'admin@demo.test')).token;
    const agent = await freshAgent(request, admin);
    await page.goto(`/customer-portal/${agent.id}`);
    const go = page.getByRole('button', { name: 'Go to Admin' });
    await go.hover();
    await expect(page.getByRole('tooltip')).toHaveText('Back to scan page');
    await go.click();
    const dialog = page.getByRole('dialog', { name: 'Code Validation' });
    const pincode = dialog.getByLabel('Pincode');
    const submit = dialog.getByRole('button', { name: 'Submit' });
    await submit.click();
    await expect(dialog.getByText('Pincode is required')).toBeVisible();
    for (let i = 0; i < 5; i++) {
      await pincode.fill('000000');
      await submit.click();
      await expect(dialog.getByText('Enter Valid Pincode!.')).toBeVisible();
      await expect(pincode).toHaveValue('');
    }
    await expectNoSeriousAxe(page, 'code validation');
    // The sixth try is refused even with the right pin, and the dialog says when to try again.
    await pincode.fill(PIN);
    await submit.click();
    await expect(dialog.getByText(/^Too many attempts\. Try again in 1[45] min \(at \d{2}:\d{2} (AM|PM)\)\.$/)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/customer-portal/${agent.id}$`));
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });

  test("the agent's branding: logo, colours on the buttons, the blurb; defaults stay readable", async ({ page, request }) => {
    const admin = (await apiSignIn(request, 'admin@demo.test')).token;
    const branded = await freshAgent(request, admin, {
      primary_color: '#1b5e20',
      text_color: '#ffffff',
      blurb: '<p>Drive in, <strong>get a quote</strong>.</p><script>alert(1)</script>',
    });
    await page.goto(`/customer-portal/${branded.id}`);
    await expect(page.getByRole('heading', { name: branded.name })).toBeVisible();
    const about = page.getByRole('region', { name: `About ${branded.name}` });
    await expect(about).toHaveText('Drive in, get a quote.');
    await expect(about.locator('strong')).toHaveText('get a quote');
    const button = page.getByRole('button', { name: 'Create Scan' });
    await expect(button).toHaveCSS('background-color', 'rgb(27, 94, 32)');
    await expect(button).toHaveCSS('color', 'rgb(255, 255, 255)');

    // Defaults: #0C1839, and the label #000000 unless it would not read (then white).
    const plain = await freshAgent(request, admin, { primary_color: '', text_color: '' });
    await page.goto(`/customer-portal/${plain.id}`);
    await expect(page.getByRole('button', { name: 'Go to Admin' })).toHaveCSS('background-color', 'rgb(12, 24, 57)');
    await expect(page.getByRole('button', { name: 'Go to Admin' })).toHaveCSS('color', 'rgb(255, 255, 255)');

    // A demo agent's logo.
    const { device } = await demoDevice(request);
    await enrol(page, request, device.agent_id);
    await page.goto(`/customer-portal/${device.agent_id}`);
    const logo = page.locator('main img').first();
    await expect(logo).toBeVisible();
    // Shown (its box is reserved) before its file has arrived and decoded.
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  });

  test('a signed-in admin sees the same kiosk: no sidebar, no header', async ({ page, request }) => {
    const admin = (await apiSignIn(request, 'admin@demo.test')).token;
    const agent = await freshAgent(request, admin);
    await signIn(page, 'admin@demo.test');
    await expect(page.getByRole('banner')).toHaveCount(1);
    await page.goto(`/customer-portal/${agent.id}`);
    await expect(page.getByRole('heading', { name: 'NEW SCANS' })).toBeVisible();
    await expectKiosk(page);
  });

  test("a disabled agent's portal is refused, and the page says so", async ({ page, request }) => {
    const admin = (await apiSignIn(request, 'admin@demo.test')).token;
    const agent = await freshAgent(request, admin, { is_enabled: 0 });
    const reply = page.waitForResponse((r) => r.url().endsWith(`/api/agent/agents/${agent.id}/portal`));
    await page.goto(`/customer-portal/${agent.id}`);
    expect((await reply).status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'This customer portal is not available' })).toBeVisible();
    await expect(page.getByText('NEW SCANS')).toHaveCount(0);
    await expectNoSeriousAxe(page, 'disabled portal');
  });

  test('in Japanese at 360 px: no horizontal scroll, the texts translated, axe clean', async ({ page, request }) => {
    const admin = (await apiSignIn(request, 'admin@demo.test')).token;
    const agent = await freshAgent(request, admin, { blurb: '<p>ようこそ。</p>' });
    await useLanguage(page, 'ja');
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/customer-portal/${agent.id}`);
    await expect(page.getByRole('heading', { name: '新しいスキャン' })).toBeVisible();
    await expect(page.getByText('新しいスキャンはありません。')).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expectNoSeriousAxe(page, 'ja 360 list');
    await page.getByRole('button', { name: 'スキャン作成' }).click();
    await expect(page).toHaveURL(new RegExp(`/customer-portal/${agent.id}/\\d+$`));
    await expect(page.getByRole('navigation', { name: 'パンくずリスト' })).toContainText('スキャン詳細');
    await expect(page.getByText('損傷は検出されませんでした。')).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expectNoSeriousAxe(page, 'ja 360 scan page');
    await page.getByRole('button', { name: '管理画面へ' }).click();
    const dialog = page.getByRole('dialog', { name: 'コードの確認' });
    await dialog.getByLabel('PINコード').fill('000000');
    await dialog.getByRole('button', { name: '送信' }).click();
    await expect(dialog.getByText('正しいPINコードを入力してください。')).toBeVisible();
    await expectNoSeriousAxe(page, 'ja 360 code validation');
  });

  test('English at 360 px with cards: no horizontal scroll', async ({ page, request }) => {
    const { key, device } = await demoDevice(request);
    await enrol(page, request, device.agent_id);
    await ingest(request, key, device.id, `PE${String(Date.now()).slice(-5)}`);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/customer-portal/${device.agent_id}`);
    await expect(cards(page, 'NEW SCANS').first()).toContainText('Car Details');
    await expectNoHorizontalScroll(page);
    await cards(page, 'NEW SCANS').first().getByRole('link').click();
    // The scan's own page, not the list still on screen (its cards say Car Details too).
    await expect(page).toHaveURL(new RegExp(`/customer-portal/${device.agent_id}/[^/]+$`));
    await expect(cards(page, 'NEW SCANS')).toHaveCount(0);
    await expect(page.locator('.MuiCard-root').filter({ hasText: 'Car Details' })).toBeVisible();
    await expectNoHorizontalScroll(page);
  });
});
