import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiGet, apiToken, bearer, openSignedIn } from './helpers';
import { seriousViolations } from './axe';

/** The image viewer over the damage modal, Detection Images and Saved Images, and the saved image's delete confirmation. */

interface Damage {
  id: number;
  src: string | null;
  carPanel: string;
  type: string;
  level: string;
  width_mm: number;
  height_mm: number;
}
interface Scan {
  id: number;
  damages: Damage[];
  measures: { dents: Record<string, Record<string, number>> };
  annotates: { id: number }[];
}
interface Arch {
  panel_groups: { panels: { carPanel: string; label: string; name: string }[] }[];
}

const scanApi = (path: string) => `/api/scan/${path}`;

/** A chasis demo scan with a panel showing at least two dent close-ups. */
async function scanWithDents(request: APIRequestContext, authToken: string) {
  for (let page = 1; page <= 10; page++) {
    const items = await apiGet<{ id: number }[]>(request, authToken, scanApi(`scans?type=chasis&status=uploaded&per_page=25&page=${page}`));
    for (const item of items) {
      const scan = await apiGet<Scan>(request, authToken, scanApi(`scans/${item.id}`));
      const panel = scan.damages.find(
        (d) => d.type === 'dents' && d.src && scan.damages.filter((x) => x.carPanel === d.carPanel && x.src).length >= 2,
      )?.carPanel;
      if (panel) return { scan, panel };
    }
  }
  throw new Error('no demo chasis scan with two close-ups on one panel');
}

async function labelsOf(request: APIRequestContext, authToken: string, scanId: number) {
  const arch = await apiGet<Arch>(request, authToken, scanApi(`archData/search?scan_id=${scanId}`));
  const labels = new Map<string, string>();
  for (const g of arch.panel_groups) for (const p of g.panels) if (!labels.has(p.carPanel)) labels.set(p.carPanel, p.label || p.name);
  return labels;
}

const mm = (n: number) => String(Math.round(n * 10) / 10);
/** The caption as a reader expects it: 'Right C Pillar — Heavy dent — 24 × 18 mm'. */
const captionOf = (d: Damage, labels: Map<string, string>) =>
  `${labels.get(d.carPanel)} — ${d.level[0].toUpperCase()}${d.level.slice(1).toLowerCase()} ${d.type === 'dents' ? 'dent' : 'scratch'} — ${mm(d.width_mm)} × ${mm(d.height_mm)} mm`;

const section = (page: Page, name: string) => page.getByRole('region', { name });
const viewer = (page: Page, caption: string) => page.getByRole('dialog', { name: caption, exact: true });

async function openScan(page: Page, id: number) {
  await openSignedIn(page, 'admin@demo.test', `/scans/${id}`);
  await expect(page.getByRole('heading', { name: 'Car Details' })).toBeVisible();
}

test.describe('image viewer', () => {
  test("from a damage chip's modal: caption, zoom, arrow keys through the panel's close-ups, Escape gives the focus back", async ({
    page,
    request,
  }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const { scan, panel } = await scanWithDents(request, admin);
    const labels = await labelsOf(request, admin, scan.id);
    const onPanel = scan.damages.filter((d) => d.carPanel === panel && d.src);
    // The modal's order: dents, then scratches.
    const shown = [...onPanel.filter((d) => d.type === 'dents'), ...onPanel.filter((d) => d.type === 'scratchs')];
    const dents = Object.values(scan.measures.dents[panel]).reduce((a, b) => a + b, 0);

    await openScan(page, scan.id);
    await page
      .getByRole('button', { name: `${labels.get(panel)}: ${dents} dent${dents === 1 ? '' : 's'}`, exact: true })
      .first()
      .click();
    const modal = page.getByRole('dialog', { name: labels.get(panel), exact: true });
    const first = captionOf(shown[0], labels);
    const opener = modal.getByRole('button', { name: `View ${first}`, exact: true });
    await expect(opener.locator('img')).toHaveAttribute('alt', first);
    await opener.click();

    const view = viewer(page, first);
    await expect(view).toBeVisible();
    await expect(view.getByText(`1 of ${shown.length}`)).toBeVisible();
    // Zoom by the keyboard and the buttons.
    await expect(view.getByRole('status', { name: 'Zoom 100%' })).toBeVisible();
    await expect(view.getByRole('button', { name: 'Zoom out' })).toBeDisabled();
    await page.keyboard.press('+');
    await expect(view.getByRole('status', { name: 'Zoom 150%' })).toBeVisible();
    await view.getByRole('button', { name: 'Zoom in' }).click();
    await expect(view.getByRole('status', { name: 'Zoom 225%' })).toBeVisible();
    await expect(view.getByRole('img', { name: first })).toHaveCSS('transform', /matrix\(2\.25, 0, 0, 2\.25/);
    await page.keyboard.press('-');
    await expect(view.getByRole('status', { name: 'Zoom 150%' })).toBeVisible();
    await view.getByRole('button', { name: 'Zoom out' }).click();
    await expect(view.getByRole('status', { name: 'Zoom 100%' })).toBeVisible();

    // Next and previous: the caption follows.
    await page.keyboard.press('ArrowRight');
    const second = captionOf(shown[1], labels);
    await expect(viewer(page, second)).toBeVisible();
    await expect(viewer(page, second).getByText(`2 of ${shown.length}`)).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await expect(viewer(page, first)).toBeVisible();

    // Escape closes the viewer only; the focus is back on the close-up.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: first })).toHaveCount(0);
    await expect(modal).toBeVisible();
    await expect(opener).toBeFocused();
  });

  test('from Detection Images by Enter; Select mode still selects; clean for axe, and usable at 360 px', async ({ page, request }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const { scan } = await scanWithDents(request, admin);
    const labels = await labelsOf(request, admin, scan.id);
    const images = scan.damages.filter((d) => d.src);

    await openScan(page, scan.id);
    const detections = section(page, 'Detection Images');
    const first = captionOf(images[0], labels);
    const opener = detections.getByRole('button', { name: `View ${first}`, exact: true });
    await opener.focus();
    await page.keyboard.press('Enter');
    await expect(viewer(page, first)).toBeVisible();
    await expect(viewer(page, first).getByText(`1 of ${images.length}`)).toBeVisible();
    expect((await seriousViolations(page, '[role="dialog"]')).map((v) => v.id)).toEqual([]);
    await page.getByRole('button', { name: 'Next image' }).click();
    await expect(viewer(page, captionOf(images[1], labels))).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(opener).toBeFocused();

    // Select mode: a click picks the image for the mail, no viewer.
    await detections.getByRole('button', { name: 'Select' }).click();
    await detections.locator(`img[alt="${first}"]`).click();
    await expect(detections.getByRole('checkbox', { name: `Select ${first} for mailing` })).toBeChecked();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await detections.getByRole('button', { name: 'Done' }).click();

    // At 360 px the viewer fills the screen with its buttons in view.
    await page.setViewportSize({ width: 360, height: 740 });
    await detections.getByRole('button', { name: `View ${first}`, exact: true }).click();
    const view = viewer(page, first);
    for (const name of ['Previous image', 'Next image', 'Zoom in', 'Zoom out', 'Close'])
      await expect(view.getByRole('button', { name })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await view.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test("from Saved Images; deleting a saved image asks 'are you sure ?' first", async ({ page, request }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const { scan } = await scanWithDents(request, admin);
    // Two saved images of this test's own.
    const png = await (await request.get(scan.damages.find((d) => d.src)!.src!)).body();
    for (let i = 0; i < 2; i++) {
      const added = await request.post(scanApi(`scans/${scan.id}/annotates`), {
        headers: bearer(admin),
        multipart: { file: { name: 'seed.png', mimeType: 'image/png', buffer: png } },
      });
      expect(added.status()).toBe(201);
    }
    const count = (await apiGet<Scan>(request, admin, scanApi(`scans/${scan.id}`))).annotates.length;

    await openScan(page, scan.id);
    const saved = section(page, 'Saved Images');
    const strip = saved.getByRole('list', { name: 'Saved Images' });
    await expect(strip.getByRole('listitem')).toHaveCount(count);

    // A thumbnail opens the viewer; the arrow keys walk the strip.
    const opener = saved.getByRole('button', { name: `View Saved image ${count - 1}`, exact: true });
    await opener.click();
    await expect(viewer(page, `Saved image ${count - 1}`)).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(viewer(page, `Saved image ${count}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next image' })).toBeDisabled();
    await page.keyboard.press('Escape');
    await expect(opener).toBeFocused();
    // View in the image's menu opens the same viewer; the focus goes back to the menu's button.
    const actions = saved.getByRole('button', { name: `Actions for image ${count}` });
    await actions.click();
    await page.getByRole('menuitem', { name: 'View' }).click();
    await expect(viewer(page, `Saved image ${count}`)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(actions).toBeFocused();

    // Delete asks first: 'No, cancel!' keeps the image.
    const deletes: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'DELETE' && r.url().includes(`/api/scan/scans/${scan.id}/annotates/`)) deletes.push(r.url());
    });
    await saved.getByRole('button', { name: `Delete image ${count}` }).click();
    const confirm = page.getByRole('dialog', { name: 'are you sure ?' });
    await expect(confirm.getByText(`Saved image ${count}`)).toBeVisible();
    await confirm.getByRole('button', { name: 'No, cancel!' }).click();
    await expect(confirm).toBeHidden();
    expect(deletes).toEqual([]);
    await expect(strip.getByRole('listitem')).toHaveCount(count);
    // 'Yes, delete it!' deletes it.
    await saved.getByRole('button', { name: `Delete image ${count}` }).click();
    const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes(`/annotates/`));
    await page.getByRole('dialog', { name: 'are you sure ?' }).getByRole('button', { name: 'Yes, delete it!' }).click();
    expect((await deleted).ok()).toBe(true);
    await expect(page.getByRole('dialog', { name: 'are you sure ?' })).toBeHidden();
    await expect(strip.getByRole('listitem')).toHaveCount(count - 1);
    expect((await apiGet<Scan>(request, admin, scanApi(`scans/${scan.id}`))).annotates).toHaveLength(count - 1);
  });
});
