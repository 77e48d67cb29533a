import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, bearer, signIn } from './helpers';
import { cumulativeShift, recordLayoutShifts, SHIFT_SCREENS } from './layout-shift';

/** The scan page on a phone: sized copies of its images, lazily, in boxes kept from the start; the video waits for play. */

const STORED_IMAGE = /\/api\/user\/files\/[0-9a-f]{32}\.(png|jpg|webp)/;

const adminToken = (request: APIRequestContext) => apiToken(request, 'admin@demo.test');

/** An uploaded demo body scan whose reply names detection images and a video. */
async function scanWithImages(request: APIRequestContext, token: string) {
  const get = async (path: string) =>
    (await (await request.get(`/api/scan/${path}`, { headers: bearer(token) })).json()) as {
      data?: { videos?: unknown[] };
      items?: { id: number }[];
    };
  for (const type of ['chasis', 'arch']) {
    const { items } = await get(`scans?type=${type}&status=uploaded&per_page=25`);
    for (const { id } of items ?? []) {
      const { data } = await get(`scans/${id}`);
      const images = JSON.stringify(data).match(new RegExp(STORED_IMAGE, 'g')) ?? [];
      if (images.length > 3 && data?.videos?.length) return id;
    }
  }
  throw new Error('no demo scan with images and a video');
}

/** The layout-shift screens (full motion, as most users see the page load), the phone at twice its pixels. */
const SCREENS = { phone: { ...SHIFT_SCREENS.phone, deviceScaleFactor: 2 }, desktop: SHIFT_SCREENS.desktop };

for (const [screen, device] of Object.entries(SCREENS))
  test.describe(screen, () => {
    test.use(device);

    test('the scan page asks for small copies of its images, lazily, without moving anything, and loads no video before play', async ({
      page,
      request,
    }) => {
      // It scrolls the whole page in steps and waits for the network each time: on a busy 2-core host that alone has
      // taken most of a minute.
      test.setTimeout(120_000);
      const id = await scanWithImages(request, await adminToken(request));
      await signIn(page, 'admin@demo.test');
      await recordLayoutShifts(page);
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      await page.goto(`/scans/${id}`);
      await expect(page.getByRole('heading', { name: 'Car Details' })).toBeVisible();
      await page.waitForLoadState('networkidle');

      const stored = page.locator('img[src*="/api/user/files/"]');
      expect(await stored.count()).toBeGreaterThan(0);
      const images = await stored.evaluateAll((els) =>
        (els as HTMLImageElement[]).map((img) => ({
          src: img.getAttribute('src'),
          srcset: img.getAttribute('srcset'),
          loading: img.loading,
          decoding: img.decoding,
          top: img.getBoundingClientRect().top + window.scrollY,
        })),
      );
      for (const img of images.filter((i) => STORED_IMAGE.test(i.src ?? ''))) {
        expect(img.srcset, img.src!).toContain('?w=320 320w');
        expect(img.decoding, img.src!).toBe('async');
      }
      // Below the first screen, nothing loads until it is scrolled to.
      for (const img of images.filter((i) => i.top > 2 * device.viewport.height)) expect(img.loading, img.src!).toBe('lazy');

      // Scroll the whole page so that every lazy image loads; nothing may move.
      for (let y = 0; y < (await page.evaluate(() => document.body.scrollHeight)); y += 400) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        await page.waitForTimeout(100);
      }
      await page.waitForLoadState('networkidle');
      const loaded = await stored.evaluateAll((els) =>
        (els as HTMLImageElement[]).filter((img) => img.complete && img.currentSrc).map((img) => img.currentSrc),
      );
      expect(loaded.length).toBeGreaterThan(0);
      // The detection grid's tiles (about 140 px at 2x) take the 320 px copy; no stored raster image came whole.
      const detections = page.getByRole('region', { name: 'Detection Images' }).locator('img');
      if ((await detections.count()) > 0)
        expect(await detections.first().evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\?w=320$/);
      const whole = requested.filter((u) => STORED_IMAGE.test(u) && !/\?w=\d+$/.test(u));
      expect(whole).toEqual([]);
      expect(await cumulativeShift(page)).toBeLessThan(0.05);

      const video = page.getByRole('region', { name: 'Scan Video' }).locator('video');
      await expect(video).toHaveAttribute('preload', 'none');
      await expect(video).toHaveAttribute('poster', /\?w=1280$/);
      expect(requested.filter((u) => /\/api\/user\/files\/[0-9a-f]{32}\.(webm|mp4)/.test(u))).toEqual([]);

      // The viewer shows the 1280 px copy on a standard screen and the original on a denser one.
      if ((await detections.count()) > 0) {
        await page
          .getByRole('region', { name: 'Detection Images' })
          .getByRole('button', { name: /^View / })
          .first()
          .click();
        const full = page.getByRole('dialog').locator('img');
        const dense = 'deviceScaleFactor' in device;
        await expect
          .poll(() => full.evaluate((img: HTMLImageElement) => (img.complete ? img.currentSrc : '')))
          .toMatch(dense ? new RegExp(`${STORED_IMAGE.source}$`) : /\?w=1280$/);
      }
    });
  });
