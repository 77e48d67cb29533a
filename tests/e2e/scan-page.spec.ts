import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, bearer, openSignedIn } from './helpers';
import { startSecondInstance } from './second-instance';

/** The scan page's screens on the demo scans, through the real server. */

interface Scan {
  id: number;
  agent_id: number;
  type: string;
  licensePlate: string | null;
  make: string | null;
  valuation: number | null;
  dentCount: number;
  scratchCount: number;
  damages: { id: number; carPanel: string; type: string; data: { measure: string; width_mm: number; height_mm: number }[] }[];
  measures: { dents: Record<string, Record<string, number>>; scratchs: Record<string, Record<string, number>> };
  data: { row: number; label: string; direction: string; depths: number[] }[];
}

async function api<T>(request: APIRequestContext, authToken: string, path: string): Promise<T> {
  const reply = await request.get(`/api/scan/${path}`, { headers: bearer(authToken) });
  expect(reply.ok(), path).toBe(true);
  const body = (await reply.json()) as { data?: T; items?: T };
  return (body.data ?? body.items) as T;
}

/** The first uploaded demo scan of a type the caller's test needs (a body scan with dents, a tyre scan). */
async function findScan(request: APIRequestContext, authToken: string, type: string, ok: (s: Scan) => boolean): Promise<Scan> {
  for (let page = 1; page <= 10; page++) {
    const items = await api<{ id: number }[]>(request, authToken, `scans?type=${type}&status=uploaded&per_page=25&page=${page}`);
    for (const item of items) {
      const scan = await api<Scan>(request, authToken, `scans/${item.id}`);
      if (ok(scan)) return scan;
    }
  }
  throw new Error(`no demo ${type} scan fits`);
}

const section = (page: Page, name: string) => page.getByRole('region', { name });

/** Loads a scan's page (`suffix`: an agent viewer's `/{agentId}`), signed in as `as` first when given. */
async function openScan(page: Page, id: number, { suffix = '', as }: { suffix?: string; as?: string } = {}) {
  if (as) await openSignedIn(page, as, `/scans/${id}${suffix}`);
  else await page.goto(`/scans/${id}${suffix}`);
  await expect(page.getByRole('heading', { name: 'Car Details' })).toBeVisible();
}

test.describe('scan page', () => {
  test('frame, cards and tabs; a chip opens the damage modal with its filter, images and measures', async ({ page, request }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const scan = await findScan(request, admin, 'chasis', (s) => s.dentCount > 0 && s.damages.some((d) => d.type === 'dents'));
    const dent = scan.damages.find((d) => d.type === 'dents')!;
    const panelDents = Object.values(scan.measures.dents[dent.carPanel]).reduce((a, b) => a + b, 0);

    await openScan(page, scan.id, { as: 'admin@demo.test' });
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('link', { name: 'Scans' })).toBeVisible();
    await expect(crumbs.getByText('Update Scan')).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Chasis' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab')).toHaveCount(1);
    for (const card of ['Car Details', 'Scan Details', 'Total Dents & Scratchs', 'Reports']) {
      await expect(page.getByRole('heading', { name: card })).toBeVisible();
    }
    await expect(section(page, 'Total Dents & Scratchs').getByLabel(`Dents: ${scan.dentCount}`)).toBeVisible();
    // Reports: the scan report and the customer portal's PDF (the spec's links), each a document that opens.
    const reports = section(page, 'Reports');
    for (const name of ['View Scan Report', 'Customer Portal PDF']) {
      const link = reports.getByRole('link', { name: new RegExp(`^${name}`) });
      await expect(link).toBeVisible();
      const pdf = await request.get((await link.getAttribute('href'))!);
      expect(pdf.headers()['content-type'], name).toBe('application/pdf');
    }
    // The sketch's panel-group drawings.
    for (const view of ['Front', 'Rear', 'Left', 'Right', 'Top'])
      await expect(page.getByRole('img', { name: view, exact: true })).toBeVisible();
    // No Quote Evaluation on a chasis tab.
    await expect(page.getByRole('link', { name: 'Quote Evaluation' })).toHaveCount(0);

    const chip = page.getByRole('button', { name: new RegExp(`: ${panelDents} dents?$`) }).first();
    await expect(chip).toHaveCSS('background-color', 'rgb(181, 64, 84)');
    await chip.click();
    const modal = page.getByRole('dialog');
    await expect(modal.getByRole('heading', { level: 3, name: 'Dent images' })).toBeVisible();
    const m = dent.data[0];
    await expect(modal.getByText(new RegExp(`${m.width_mm} × ${m.height_mm} mm`)).first()).toBeVisible();
    await expect(modal.getByRole('spinbutton', { name: 'Dents Light' })).toHaveValue(String(scan.measures.dents[dent.carPanel].light));
    await modal.getByRole('button', { name: 'Scratch', exact: true }).click();
    await expect(modal.getByRole('heading', { name: 'Dent images' })).toHaveCount(0);
    if (!scan.damages.some((d) => d.type === 'scratchs' && d.carPanel === dent.carPanel)) {
      await expect(modal.getByText('Damages Not Available!.')).toBeVisible();
    }
    await modal.getByRole('button', { name: 'Dent', exact: true }).click();
    await expect(modal.getByRole('heading', { name: 'Scratch images' })).toHaveCount(0);
    // A count that is not 0–999 is refused before it is sent.
    await modal.getByRole('spinbutton', { name: 'Dents Light' }).fill('1000');
    await expect(modal.getByText('A whole number from 0 to 999')).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Save counts' })).toBeDisabled();
    // An edit: the totals, the chip and the list follow, and it survives a reload.
    await modal.getByRole('spinbutton', { name: 'Dents Light' }).fill(String(scan.measures.dents[dent.carPanel].light + 2));
    const edit = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/scan/scans/arch/edit-damage-count'));
    await modal.getByRole('button', { name: 'Save counts' }).click();
    expect((await edit).postDataJSON()).toMatchObject({
      scan_id: scan.id,
      car_panel: dent.carPanel,
      dents: { light: scan.measures.dents[dent.carPanel].light + 2 },
    });
    await expect(page.getByText('Damage Count Updated')).toBeVisible();
    // A success closes the modal (a failure keeps it open).
    await expect(modal).toBeHidden();
    await expect(section(page, 'Total Dents & Scratchs').getByLabel(`Dents: ${scan.dentCount + 2}`)).toBeVisible();
    const edited = page.getByRole('button', { name: new RegExp(`: ${panelDents + 2} dents$`) }).first();
    await expect(edited).toBeVisible();
    // Opened again, it starts from the saved counts and saves again without a conflict with the first save.
    await edited.click();
    await expect(modal.getByRole('spinbutton', { name: 'Dents Light' })).toHaveValue(String(scan.measures.dents[dent.carPanel].light + 2));
    await modal.getByRole('spinbutton', { name: 'Dents Light' }).fill(String(scan.measures.dents[dent.carPanel].light + 3));
    await modal.getByRole('button', { name: 'Save counts' }).click();
    await expect(modal).toBeHidden();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(section(page, 'Total Dents & Scratchs').getByLabel(`Dents: ${scan.dentCount + 3}`)).toBeVisible();
    const row = (await api<{ id: number; dentCount: number }[]>(request, admin, 'scans?per_page=100')).find((r) => r.id === scan.id);
    expect(row?.dentCount).toBe(scan.dentCount + 3);
    await page.reload();
    await expect(section(page, 'Total Dents & Scratchs').getByLabel(`Dents: ${scan.dentCount + 3}`)).toBeVisible();
  });

  test('inline editing: pencil, save, close; valuation rounded to whole dollars before the save, a misread form refused; a failed save reverts and says why', async ({
    page,
    request,
  }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const scan = await findScan(request, admin, 'arch', (s) => !!s.licensePlate && !!s.make);
    await openScan(page, scan.id, { as: 'admin@demo.test' });
    const card = section(page, 'Car Details');

    // Close goes back to the saved value without a call.
    await card.getByRole('button', { name: 'Edit Make' }).click();
    await card.getByRole('textbox', { name: 'Make' }).fill('Nothing');
    await card.getByRole('button', { name: 'Close Make without saving' }).click();
    await expect(card.getByText(scan.make!, { exact: true })).toBeVisible();

    await card.getByRole('button', { name: 'Edit Make' }).click();
    await card.getByRole('textbox', { name: 'Make' }).fill('Holden');
    const put = page.waitForRequest((r) => r.method() === 'PUT' && new RegExp(`/api/scan/scans/${scan.id}$`).test(r.url()));
    await card.getByRole('button', { name: 'Save Make' }).click();
    expect((await put).postDataJSON()).toMatchObject({ make: 'Holden' });
    await expect(card.getByText('Holden', { exact: true })).toBeVisible();
    // Case matters: the spec's toast is 'Scan Updated'.
    await expect(page.getByRole('alert').filter({ hasText: /Scan Updated/ })).toBeVisible();
    expect((await api<Scan>(request, admin, `scans/${scan.id}`)).make).toBe('Holden');

    // Valuation: cents are rounded to whole dollars (half up) and shown before the save.
    await card.getByRole('button', { name: 'Edit Valuation' }).click();
    const valuation = card.getByRole('textbox', { name: 'Valuation' });
    await valuation.fill('15,900.50');
    await valuation.press('Tab');
    await expect(valuation).toHaveValue('15,901');
    const valuationPut = page.waitForRequest((r) => r.method() === 'PUT' && new RegExp(`/api/scan/scans/${scan.id}$`).test(r.url()));
    await card.getByRole('button', { name: 'Save Valuation' }).click();
    expect((await valuationPut).postDataJSON()).toMatchObject({ valuation: 15901 });
    await expect(card.getByText('$15,901', { exact: true })).toBeVisible();
    expect((await api<Scan>(request, admin, `scans/${scan.id}`)).valuation).toBe(15901);

    // A form that would read as another amount is refused with a message naming the field, and nothing is sent.
    let puts = 0;
    const countPuts = (r: { method(): string; url(): string }) => {
      if (r.method() === 'PUT' && r.url().includes('/api/scan/scans/')) puts++;
    };
    page.on('request', countPuts);
    await card.getByRole('button', { name: 'Edit Valuation' }).click();
    await valuation.fill('15.900,50');
    await valuation.press('Tab');
    await expect(valuation).toHaveValue('15.900,50');
    await card.getByRole('button', { name: 'Save Valuation' }).click();
    const refusal = card.getByText(/^Valuation must be a number of dollars/);
    await expect(refusal).toBeVisible();
    await expect(valuation).toHaveValue('15.900,50');
    await expect(valuation).toHaveAccessibleDescription(/^Valuation must be a number of dollars/);
    // Under the whole row, not squeezed under the input beside the label and the buttons.
    const [refusalBox, inputBox] = [await refusal.boundingBox(), await valuation.boundingBox()];
    expect(refusalBox!.width).toBeGreaterThan(inputBox!.width * 1.5);
    expect(refusalBox!.height).toBeLessThan(70);
    // Only digits, commas and a decimal point get in: a keystroke or paste of anything else is refused whole, with a note.
    await valuation.fill('15900');
    await valuation.press('a');
    await valuation.press('-');
    await expect(valuation).toHaveValue('15900');
    await expect(card.getByText('Only digits, commas and a decimal point can be typed here')).toBeVisible();
    await expect(valuation).toHaveAccessibleDescription('Only digits, commas and a decimal point can be typed here');
    await valuation.fill('$15k');
    await expect(valuation).toHaveValue('15900');
    await valuation.press('1');
    await expect(valuation).toHaveValue('159001');
    await expect(card.getByText('Only digits, commas and a decimal point can be typed here')).toHaveCount(0);
    page.off('request', countPuts);
    expect(puts).toBe(0);
    expect((await api<Scan>(request, admin, `scans/${scan.id}`)).valuation).toBe(15901);
    await card.getByRole('button', { name: 'Close Valuation without saving' }).click();
    await expect(card.getByText('$15,901', { exact: true })).toBeVisible();

    // A registration the server refuses (over 20 characters): the old one comes back and the message says why.
    await card.getByRole('button', { name: 'Edit Registration' }).click();
    await card.getByRole('combobox', { name: 'Registration' }).fill('X'.repeat(25));
    await card.getByRole('button', { name: 'Save Registration' }).click();
    await expect(page.getByText(/^Registration was not saved: /)).toBeVisible();
    await expect(card.getByText(scan.licensePlate!, { exact: true })).toBeVisible();
    expect((await api<Scan>(request, admin, `scans/${scan.id}`)).licensePlate).toBe(scan.licensePlate);

    // Reload: the saved values stay.
    await page.reload();
    await expect(card.getByText('Holden', { exact: true })).toBeVisible();
    await expect(card.getByText('$15,901', { exact: true })).toBeVisible();
  });

  test('Refresh asks the server, then loads the scan again', async ({ page, request }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const scan = await findScan(request, admin, 'arch', () => true);
    await openScan(page, scan.id, { as: 'admin@demo.test' });
    const refreshed = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith(`/api/scan/scans/${scan.id}/refresh`),
    );
    const reloaded = page.waitForResponse((r) => r.request().method() === 'GET' && r.url().endsWith(`/api/scan/scans/${scan.id}`));
    await page.getByRole('button', { name: 'Refresh' }).click();
    expect((await refreshed).status()).toBe(200);
    expect((await reloaded).status()).toBe(200);
    await expect(page.getByRole('alert').filter({ hasText: 'Scan refreshed' })).toBeVisible();
  });

  test("opened at its address, the page asks for the scan and the sketch's data before its code's files", async ({ page, request }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const scan = await findScan(request, admin, 'arch', () => true);
    // Signed in from a page without scripts: after a screen of the app, that screen's late chunk requests could land
    // in the list.
    await openSignedIn(page, 'admin@demo.test', '/favicon.svg');
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await openScan(page, scan.id);
    // Six connections to the server at a time: the data's requests come first, or they wait behind the code's.
    const data = asked.indexOf(`/api/scan/scans/${scan.id}`);
    const sketch = asked.indexOf('/api/scan/archData/search');
    const layout = asked.findIndex((p) => /\/assets\/layout-[\w-]+\.js$/.test(p));
    expect(data).toBeGreaterThanOrEqual(0);
    expect(sketch).toBeGreaterThanOrEqual(0);
    expect(layout).toBeGreaterThanOrEqual(0);
    expect(Math.max(data, sketch), asked.slice(0, 8).join(' ')).toBeLessThan(layout);
  });

  test('tire: a row per axle with its labels, the depth graph after a second; the agent viewer chooses repairs and sees no valuation', async ({
    page,
    request,
  }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const scan = await findScan(request, admin, 'tire', (s) => s.data.length >= 4);
    await openScan(page, scan.id, { as: 'admin@demo.test' });
    await expect(page.getByRole('tab', { name: 'Tire' })).toHaveAttribute('aria-selected', 'true');
    for (const label of ['FRONT LEFT', 'FRONT RIGHT', 'REAR LEFT', 'REAR RIGHT']) {
      await expect(page.getByRole('heading', { level: 3, name: label, exact: true })).toBeVisible();
    }
    await expect(page.getByText('Scan Image').first()).toBeVisible();
    // Each card gives its shallowest tread in mm and rates it against the settings' minimums (1.5 and 3 mm).
    const frontLeft = scan.data.filter((t) => t.row === 1 && t.direction === 'L').flatMap((t) => t.depths);
    const min = Math.min(...frontLeft);
    const card = page.getByRole('heading', { level: 3, name: 'FRONT LEFT', exact: true }).locator('..');
    const tread = card.getByTestId('tread-depth');
    await expect(tread).toContainText(`Minimum tread: ${min.toFixed(1)} mm`);
    const status = (legal: number, recommended: number) =>
      min < legal
        ? `Below the legal minimum (${legal.toFixed(1)} mm)`
        : min < recommended
          ? `Below the recommended minimum (${recommended.toFixed(1)} mm)`
          : `At or above the recommended minimum (${recommended.toFixed(1)} mm)`;
    await expect(tread).toContainText(status(1.5, 3));
    // A stricter recommended minimum from the settings turns a fine tyre into one due soon.
    const headers = bearer(admin);
    const options = (await (await request.get('/api/user/options?q=TYRE_RECOMMENDED&per_page=5', { headers })).json()) as {
      items: { id: number; option_value: string }[];
    };
    const setting = options.items[0];
    const stricter = Math.ceil(min + 1);
    const put = (value: string) =>
      request.put(`/api/user/options/${setting.id}`, { headers, data: { option_value: value, field_type: 'text' } });
    expect((await put(String(stricter))).ok()).toBe(true);
    try {
      await page.reload();
      await expect(tread).toContainText(status(1.5, stricter));
      await expect(tread).toHaveAttribute('data-status', min < 1.5 ? 'illegal' : 'replace_soon');
    } finally {
      expect((await put(setting.option_value)).ok()).toBe(true);
    }
    await page.getByRole('button', { name: 'Tyre Graph: FRONT LEFT' }).click();
    const graph = page.getByRole('dialog', { name: 'FRONT LEFT depth profile' });
    // The graph loads after 1 s.
    await expect(graph.getByRole('progressbar')).toBeVisible();
    await expect(graph.getByTestId('tyre-graph')).toBeVisible();
    await expect(graph.getByText('Inner')).toBeVisible();
    await expect(graph.getByText('Outer')).toBeVisible();
    await expect(graph.getByText('40', { exact: true })).toBeVisible();
    await graph.getByRole('button', { name: 'Close' }).click();
    await expect(section(page, 'Car Details').getByText('Valuation')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Saved Images' })).toBeVisible();

    // The agent viewer (an agent id in the route).
    await openScan(page, scan.id, { suffix: `/${scan.agent_id}` });
    await expect(
      page.getByRole('group', { name: 'Repair type for FRONT LEFT' }).getByRole('button', { name: 'Recheck Next Visit' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: /^Tyre Graph/ })).toHaveCount(0);
    await expect(section(page, 'Car Details').getByText('Valuation')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Saved Images' })).toHaveCount(0);
    // A repair choice is kept with the scan; another replaces it.
    const choices = page.getByRole('group', { name: 'Repair type for FRONT LEFT' });
    await choices.getByRole('button', { name: 'Replace' }).click();
    await expect(choices.getByRole('button', { name: 'Replace' })).toHaveAttribute('aria-pressed', 'true');
    await choices.getByRole('button', { name: 'Repair', exact: true }).click();
    await expect(choices.getByRole('button', { name: 'Repair', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(choices.getByRole('button', { name: 'Replace' })).toHaveAttribute('aria-pressed', 'false');
    const stored = (
      await api<{ tyre_repairs: { row: number; direction: string; repair_type: string }[] }>(request, admin, `scans/${scan.id}`)
    ).tyre_repairs;
    expect(stored).toEqual([expect.objectContaining({ row: 1, direction: 'L', repair_type: 'repair' })]);
    await page.reload();
    await expect(
      page.getByRole('group', { name: 'Repair type for FRONT LEFT' }).getByRole('button', { name: 'Repair', exact: true }),
    ).toHaveAttribute('aria-pressed', 'true');
    // The agent viewer's quote area (tests/e2e/scan-page-agent.spec.ts saves through it).
    await expect(section(page, 'Quote').getByRole('button', { name: 'Save and Generate Quote' })).toBeVisible();
    // The normal viewer has none.
    await openScan(page, scan.id);
    await expect(page.getByRole('button', { name: 'Save and Generate Quote' })).toHaveCount(0);
  });

  test("an Agent user opening another agent's scan sees Scan Not Found and goes back to the list", async ({ page, request }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const agent = await apiToken(request, 'agent@demo.test');
    const own = new Set((await api<{ id: number }[]>(request, agent, 'scans?per_page=100')).map((s) => s.id));
    const other = (await api<{ id: number }[]>(request, admin, 'scans?per_page=100')).find((s) => !own.has(s.id));
    expect(other, "a scan of another agent's").toBeTruthy();
    await openSignedIn(page, 'agent@demo.test', `/scans/${other!.id}`);
    await expect(page.getByText('Scan Not Found')).toBeVisible();
    await expect(page).toHaveURL(/\/scans$/);
  });

  test('scan video: frame capture once the video plays; a capture can be removed before saving', async ({ page, request }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const scan = await findScan(request, admin, 'arch', (s) => (s as Scan & { videos: unknown[] }).videos.length > 0);
    await openScan(page, scan.id, { as: 'admin@demo.test' });
    const video = section(page, 'Scan Video');
    const capture = video.getByRole('button', { name: 'Capture frame' });
    await expect(capture).toBeDisabled();
    await video.locator('video').evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    await expect(capture).toBeEnabled();
    await capture.click();
    const frames = video.getByRole('list', { name: 'Captured frames' });
    await expect(frames.getByRole('img', { name: 'Captured frame 1' })).toBeVisible();
    await frames.getByRole('button', { name: 'Remove Captured frame 1' }).click();
    await expect(frames).toHaveCount(0);
  });

  test('scan video: a captured frame is saved once into Saved Images, then marked saved', async ({ page, request }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const scan = await findScan(request, admin, 'arch', (s) => (s as Scan & { videos: unknown[] }).videos.length > 0);
    const before = (await api<{ annotates: { id: number }[] }>(request, admin, `scans/${scan.id}`)).annotates.length;
    await openScan(page, scan.id, { as: 'admin@demo.test' });
    const video = section(page, 'Scan Video');
    await video.locator('video').evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play();
    });
    await video.getByRole('button', { name: 'Capture frame' }).click();
    const frames = video.getByRole('list', { name: 'Captured frames' });
    await expect(frames.getByRole('img', { name: 'Captured frame 1' })).toBeVisible();
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/api/scan/scans/${scan.id}/annotates`)) posts.push(r.url());
    });
    const saved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/scan/scans/${scan.id}/annotates`));
    await frames.getByRole('button', { name: 'Save', exact: true }).click();
    const reply = await saved;
    expect(reply.status()).toBe(201);
    // Stored as the JPEG the browser captured.
    expect(((await reply.json()) as { data: { path: string } }).data.path).toMatch(/\.jpg$/);
    // Marked saved: no second save, no removal.
    await expect(frames.getByRole('button', { name: 'Saved', exact: true })).toBeDisabled();
    await expect(frames.getByRole('button', { name: 'Remove Captured frame 1' })).toHaveCount(0);
    await expect(section(page, 'Saved Images').getByRole('list', { name: 'Saved Images' }).getByRole('listitem')).toHaveCount(before + 1);
    await frames.getByRole('button', { name: 'Saved', exact: true }).click({ force: true });
    expect(posts).toHaveLength(1);
    expect((await api<{ annotates: unknown[] }>(request, admin, `scans/${scan.id}`)).annotates).toHaveLength(before + 1);
  });

  test('the Quote Evaluation link shows on the arch tab only with dents and opens Quote Generation for that scan', async ({
    page,
    request,
  }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const scan = await findScan(request, admin, 'arch', (s) => s.dentCount > 0 && !!s.licensePlate);
    await openScan(page, scan.id, { as: 'admin@demo.test' });
    await expect(page.getByRole('tab', { name: 'Arch' })).toHaveAttribute('aria-selected', 'true');
    const link = page.getByRole('link', { name: 'Quote Evaluation' });
    await expect(link).toHaveAttribute('href', `/quotes/${scan.id}`);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/quotes/${scan.id}$`));
    await expect(page.getByRole('heading', { name: 'Quote Generation' })).toBeVisible();
    await expect(page.getByTestId('quote-summary')).toBeVisible();
    await expect(page.getByText(scan.licensePlate!, { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'VIEW FULL SCAN DATA' })).toHaveAttribute('href', `/scans/${scan.id}`);

    // An arch scan without dents has no link.
    const rows = await api<{ id: number; dentCount: number }[]>(request, admin, 'scans?type=arch&status=uploaded&per_page=100');
    const clean = rows.find((r) => r.dentCount === 0);
    if (clean) {
      await openScan(page, clean.id);
      await expect(page.getByRole('tab', { name: 'Arch' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Quote Evaluation' })).toHaveCount(0);
    }
  });

  test('saved images: a crop and an annotation appear in the strip at once; selected with a detection image and the report, they are mailed', async ({
    page,
    request,
  }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const scan = await findScan(request, admin, 'chasis', (s) => s.damages.some((d) => d.type === 'dents'));
    const before = (await api<{ annotates: { id: number }[] }>(request, admin, `scans/${scan.id}`)).annotates.length;
    await openScan(page, scan.id, { as: 'admin@demo.test' });
    const saved = section(page, 'Saved Images');
    // A frame from the video would do; the simplest image the scan has is a saved one: add one through the API first when none.
    if (before === 0) {
      const png = await (
        await request.get((await api<{ damages: { src: string }[] }>(request, admin, `scans/${scan.id}`)).damages[0].src)
      ).body();
      const added = await request.post(`/api/scan/scans/${scan.id}/annotates`, {
        headers: bearer(admin),
        multipart: { file: { name: 'seed.png', mimeType: 'image/png', buffer: png } },
      });
      expect(added.status()).toBe(201);
      await page.reload();
    } else {
      await expect(saved.getByText('No Data Available!.')).toHaveCount(0);
    }
    const strip = saved.getByRole('list', { name: 'Saved Images' });
    const count = (await api<{ annotates: unknown[] }>(request, admin, `scans/${scan.id}`)).annotates.length;
    await expect(strip.getByRole('listitem')).toHaveCount(count);

    // Crop: JPEG through POST annotates, in the strip at once.
    await saved.getByRole('button', { name: 'Actions for image 1' }).click();
    await page.getByRole('menuitem', { name: 'Crop' }).click();
    const crop = page.getByRole('dialog', { name: 'Crop image' });
    const cropped = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith(`/api/scan/scans/${scan.id}/annotates`),
    );
    await crop.getByRole('button', { name: 'Save' }).click();
    const cropReply = await cropped;
    expect(cropReply.status()).toBe(201);
    // Stored as the JPEG the browser made (the server names files by their checked type).
    expect(((await cropReply.json()) as { data: { path: string } }).data.path).toMatch(/\.jpg$/);
    await expect(crop).toBeHidden();
    await expect(strip.getByRole('listitem')).toHaveCount(count + 1);

    // Annotation: marker.js's popup, rendered as a JPEG.
    await saved.getByRole('button', { name: 'Actions for image 1' }).click();
    await page.getByRole('menuitem', { name: 'Annotation' }).click();
    const annotated = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith(`/api/scan/scans/${scan.id}/annotates`),
    );
    await page.getByTitle('Frame marker', { exact: true }).click();
    // The picture in its own proportions, not in the thumbnail's square tile.
    const proportions = await page.getByRole('dialog', { name: 'Annotation' }).evaluate((popup) => {
      const img = Array.from(popup.querySelectorAll('img')).sort((a, b) => b.clientWidth - a.clientWidth)[0];
      const box = img.getBoundingClientRect();
      return { shown: box.width / box.height, natural: img.naturalWidth / img.naturalHeight };
    });
    expect(proportions.shown).toBeCloseTo(proportions.natural, 1);
    // A frame drawn across the middle of the picture.
    const viewport = page.viewportSize()!;
    await page.mouse.move(viewport.width / 2 - 40, viewport.height / 2 - 40);
    await page.mouse.down();
    await page.mouse.move(viewport.width / 2 + 40, viewport.height / 2 + 30, { steps: 5 });
    await page.mouse.up();
    await page.getByTitle('Save and close').click();
    const annotateReply = await annotated;
    expect(annotateReply.status()).toBe(201);
    const annotatedImage = ((await annotateReply.json()) as { data: { path: string; src: string } }).data;
    expect(annotatedImage.path).toMatch(/\.jpg$/);
    await expect(strip.getByRole('listitem')).toHaveCount(count + 2);
    // Drawn on the original, not on the thumbnail's small copy.
    const widthOf = (url: string) =>
      page.evaluate(async (src) => {
        const img = new Image();
        img.src = src;
        await img.decode();
        return img.naturalWidth;
      }, url);
    const originalUrl = await strip.getByRole('img').first().getAttribute('src');
    expect(await widthOf(annotatedImage.src)).toBe(await widthOf(originalUrl!));

    // Select mode: the two new images, a detection image and the report, mailed.
    await saved.getByRole('button', { name: 'Select' }).click();
    await saved.getByRole('checkbox', { name: `Select Saved image ${count + 1} for mailing` }).check();
    await saved.getByRole('checkbox', { name: `Select Saved image ${count + 2} for mailing` }).check();
    const detections = section(page, 'Detection Images');
    await detections.getByRole('button', { name: 'Select' }).click();
    await detections.getByRole('checkbox').first().check();
    await section(page, 'Reports').getByRole('checkbox', { name: 'Attach View Scan Report' }).check();
    const mail = section(page, 'Communication');
    // Its form mounts as it nears the screen, as a user scrolls to it.
    await mail.scrollIntoViewIfNeeded();
    await expect(mail.getByTestId('mail-attachments').getByRole('listitem')).toHaveCount(4);
    // The form's button previews the mail; the preview dialog's Send sends it.
    await mail.getByRole('button', { name: 'Preview' }).click();
    await expect(mail.getByText('Recipients is required')).toBeVisible();
    // The messages under the fields say it all: no toast besides them.
    await expect(page.getByText('The form is not valid. Please check for errors')).toHaveCount(0);
    await mail.getByRole('textbox', { name: 'Recipients' }).fill('Owner@Example.com, nope');
    await mail.getByRole('textbox', { name: 'Subject' }).fill('Your scan');
    await mail.getByRole('textbox', { name: 'Message' }).fill('Here are the pictures.');
    await mail.getByRole('button', { name: 'Preview' }).click();
    await expect(mail.getByText('Not a valid e-mail address: nope')).toBeVisible();
    await mail.getByRole('textbox', { name: 'Recipients' }).fill('Owner@Example.com, fleet@example.com');
    await mail.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('dialog', { name: 'Mail Preview' });
    await expect(preview.getByTestId('mail-preview-attachments').getByRole('listitem')).toHaveCount(4);
    const sent = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/email/emails'));
    await preview.getByRole('button', { name: 'Send' }).click();
    const reply = await sent;
    expect(reply.status()).toBe(201);
    const body = reply.request().postDataJSON() as { recipients: string[]; attachments: string[] };
    expect(body.recipients).toEqual(['owner@example.com', 'fleet@example.com']);
    expect(body.attachments).toHaveLength(4);
    const recorded = ((await reply.json()) as { data: { attachments: { content_type: string }[] } }).data.attachments;
    expect(recorded.map((a) => a.content_type).sort()).toEqual(['application/pdf', 'image/jpeg', 'image/jpeg', 'image/png']);
    // The form starts again empty, and 'Mail Send' shows (after the toasts of the saved images before it).
    await expect(mail.getByText('Select images or reports to attach them')).toBeVisible();
    await expect(mail.getByRole('textbox', { name: 'Recipients' })).toHaveValue('');
    await expect(page.getByText('Mail Send')).toBeVisible({ timeout: 30_000 });
  });

  test('annotation popup by keyboard: a focused dialog, toolbar buttons, Escape closes without saving, Ctrl+Enter saves', async ({
    page,
    request,
  }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const scan = await findScan(request, admin, 'arch', (s) => s.damages.length > 0);
    const headers = bearer(admin);
    const png = await (await request.get((scan.damages[0] as unknown as { src: string }).src)).body();
    const added = await request.post(`/api/scan/scans/${scan.id}/annotates`, {
      headers,
      multipart: { file: { name: 'seed.png', mimeType: 'image/png', buffer: png } },
    });
    expect(added.status()).toBe(201);
    const count = (await api<{ annotates: unknown[] }>(request, admin, `scans/${scan.id}`)).annotates.length;
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/api/scan/scans/${scan.id}/annotates`)) posts.push(r.url());
    });
    await openScan(page, scan.id, { as: 'admin@demo.test' });
    const saved = section(page, 'Saved Images');
    const actions = saved.getByRole('button', { name: 'Actions for image 1' });
    const openPopup = async () => {
      await actions.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('menuitem', { name: 'Annotation' })).toBeVisible();
      await page.getByRole('menuitem', { name: 'Annotation' }).focus();
      await page.keyboard.press('Enter');
      const popup = page.getByRole('dialog', { name: 'Annotation' });
      await expect(popup).toBeVisible();
      return popup;
    };

    const popup = await openPopup();
    // Outlined marks only: nothing offered paints over the damage it marks.
    for (const outline of ['Frame marker', 'Ellipse frame marker', 'Arrow marker'])
      await expect(popup.getByRole('button', { name: outline, exact: true })).toHaveCount(1);
    for (const filled of ['Cover marker', 'Highlight marker', 'Ellipse marker'])
      await expect(popup.getByRole('button', { name: filled, exact: true })).toHaveCount(0);
    // The focus is in the popup, on its first button; Tab goes from button to button and stays inside.
    await expect(popup.getByRole('button', { name: 'Select mode' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(popup.getByRole('button', { name: 'Delete marker' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(popup.getByRole('button', { name: 'Select mode' })).toBeFocused();
    // Before the first, the last: the focus never leaves the popup.
    await page.keyboard.press('Shift+Tab');
    await expect(popup.locator(':focus')).toHaveCount(1);
    await expect(popup.getByRole('button', { name: 'Select mode' })).not.toBeFocused();
    // Enter presses a toolbar button: the frame marker becomes the active tool.
    const frame = popup.getByRole('button', { name: 'Frame marker', exact: true });
    await frame.focus();
    await page.keyboard.press('Enter');
    await expect(frame).toHaveClass(/active/);
    // Escape: closed, nothing saved, focus back on the image's actions button.
    await page.keyboard.press('Escape');
    await expect(popup).toHaveCount(0);
    await expect(actions).toBeFocused();
    expect(posts).toEqual([]);

    await openPopup();
    const annotated = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith(`/api/scan/scans/${scan.id}/annotates`),
    );
    await page.keyboard.press('Control+Enter');
    expect((await annotated).status()).toBe(201);
    await expect(page.getByRole('dialog', { name: 'Annotation' })).toHaveCount(0);
    await expect(saved.getByRole('list', { name: 'Saved Images' }).getByRole('listitem')).toHaveCount(count + 1);
    expect(posts).toHaveLength(1);
  });

  test('registration: the autocomplete offers registered plates after typing; the fetch button fills the vehicle from the built-in registry', async ({
    page,
    request,
  }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const scan = await findScan(request, admin, 'arch', (s) => !!s.licensePlate && !!s.make);
    const headers = bearer(admin);
    const lookup = (await (await request.get(`/api/scan/license-plates/fetch/${scan.licensePlate}`, { headers })).json()) as {
      data: { ag_response: { make: string; model: string; colour: string } };
    };
    // Something the fetch will put back.
    expect((await request.put(`/api/scan/scans/${scan.id}`, { headers, data: { make: 'Placeholder', model: 'Placeholder' } })).ok()).toBe(
      true,
    );

    await openScan(page, scan.id, { as: 'admin@demo.test' });
    const card = section(page, 'Car Details');
    await expect(card.getByText('Placeholder', { exact: true })).toHaveCount(2);
    const fetched = page.waitForResponse((r) => r.url().includes(`/api/scan/license-plates/fetch/${scan.licensePlate}`));
    await card.getByRole('button', { name: 'Fetch vehicle details' }).click();
    expect((await fetched).status()).toBe(200);
    // Nothing changes before the review is applied.
    await page
      .getByRole('dialog', { name: `Vehicle details for ${scan.licensePlate}` })
      .getByRole('button', { name: 'Apply changes' })
      .click();
    await expect(page.getByText('Vehicle details filled from the registration')).toBeVisible();
    await expect(card.getByText(lookup.data.ag_response.make, { exact: true })).toBeVisible();
    await expect(card.getByText(lookup.data.ag_response.model, { exact: true })).toBeVisible();
    expect((await api<Scan>(request, admin, `scans/${scan.id}`)).make).toBe(lookup.data.ag_response.make);

    // The autocomplete asks only with text, once typing has paused.
    await card.getByRole('button', { name: 'Edit Registration' }).click();
    const input = card.getByRole('combobox', { name: 'Registration' });
    const searches: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/scan/license-plates/search')) searches.push(r.postData() ?? '');
    });
    await input.fill('');
    await input.pressSequentially(scan.licensePlate!.slice(0, 3), { delay: 50 });
    await expect(page.getByRole('option', { name: scan.licensePlate!, exact: true })).toBeVisible();
    expect(searches).toEqual([JSON.stringify({ number: scan.licensePlate!.slice(0, 3) })]);
    await card.getByRole('button', { name: 'Close Registration without saving' }).click();
  });

  test('registration: with an HTTP provider that does not answer, the fetch says so clearly and changes nothing', async ({
    browser,
    request,
  }) => {
    test.setTimeout(180_000);
    // A provider that takes the connection and never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const provider = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    // PLATE_LOOKUP_URL is read once at start: a second instance of the app on the same database has it.
    const instance = await startSecondInstance(test.info().project.use.baseURL!, {
      PLATE_LOOKUP_URL: provider,
      PLATE_LOOKUP_TIMEOUT_MS: '2000',
    });
    const context = await browser.newContext({ baseURL: instance.baseURL, locale: 'en-AU', timezoneId: 'Australia/Melbourne' });
    try {
      const admin = await apiToken(request, 'admin@demo.test');
      const scan = await findScan(request, admin, 'arch', (s) => !!s.licensePlate && !!s.make);
      const page = await context.newPage();
      const writes: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PUT') writes.push(r.url());
      });
      await openScan(page, scan.id, { as: 'admin@demo.test' });
      const card = section(page, 'Car Details');
      const button = card.getByRole('button', { name: 'Fetch vehicle details' });
      const fetched = page.waitForResponse((r) => r.url().includes(`/api/scan/license-plates/fetch/`));
      await button.click();
      // Disabled while it waits.
      await expect(button).toBeDisabled();
      const reply = await fetched;
      expect(reply.status()).toBe(504);
      await expect(page.getByText('The registration lookup service did not answer in time: nothing was changed')).toBeVisible();
      expect(((await reply.json()) as { error: string }).error).toBe('The registration lookup service did not answer within 2 seconds');
      await expect(button).toBeEnabled();
      await expect(card.getByText(scan.make!, { exact: true })).toBeVisible();
      expect(writes).toEqual([]);
      const after = await api<Scan>(request, admin, `scans/${scan.id}`);
      expect({ make: after.make, valuation: after.valuation, licensePlate: after.licensePlate }).toEqual({
        make: scan.make,
        valuation: scan.valuation,
        licensePlate: scan.licensePlate,
      });
    } finally {
      await context.close();
      await instance.stop();
      silent.closeAllConnections();
      silent.close();
    }
  });

  test('a live update refreshes the fields not being edited and leaves the one being typed in', async ({ page, request }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const scan = await findScan(request, admin, 'arch', (s) => !!s.make);
    const headers = bearer(admin);
    await openScan(page, scan.id, { as: 'admin@demo.test' });
    const card = section(page, 'Car Details');
    await card.getByRole('button', { name: 'Edit Make' }).click();
    await card.getByRole('textbox', { name: 'Make' }).fill('Typing');
    expect((await request.put(`/api/scan/scans/${scan.id}`, { headers, data: { make: 'Server Make', model: 'Server Model' } })).ok()).toBe(
      true,
    );
    await expect(card.getByText('Server Model', { exact: true })).toBeVisible();
    await expect(card.getByRole('textbox', { name: 'Make' })).toHaveValue('Typing');
    await card.getByRole('button', { name: 'Close Make without saving' }).click();
  });
});
