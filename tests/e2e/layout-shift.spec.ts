import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, bearer } from './helpers';
import { cumulativeShift, recordLayoutShifts, SHIFT_SCREENS, slowApi } from './layout-shift';

/**
 * The main screens hold still while they load (Lighthouse's CLS below 0.05): every part that arrives later, a list's
 * rows, an agent's logo and blurb, the invoice's images, lands in a box kept for it. The API answers late, so each
 * part arrives after the first paint, as on a phone's network.
 */

/** The API answers late on purpose, so a screen on a busy host may take longer than the default 10 s to settle. */
const settled = expect.configure({ timeout: 30_000 });

/** The demo admin as the app stores it, with the terms accepted, and the newest quote's id. */
async function admin(request: APIRequestContext) {
  const user = await apiSignIn(request, 'admin@demo.test');
  const headers = bearer(user.token);
  expect((await request.post('/api/user/auth/consent', { headers, data: {} })).ok()).toBe(true);
  const quotes = (await (await request.get('/api/quote/quotes?per_page=1&page=1', { headers })).json()) as { items: { id: number }[] };
  return { user: { ...user, consent: 1 }, quoteId: quotes.items[0].id };
}

/** A kiosk token for the demo agent's portal, as the pincode dialog stores it. */
async function kiosk(request: APIRequestContext) {
  const reply = await request.post('/api/agent/agents/1/portal/enrol', { data: { pincode: '246810' } });
  const { data } = (await reply.json()) as { data: { kiosk_token: string; expires_at: string } };
  return JSON.stringify({ token: data.kiosk_token, expires_at: data.expires_at });
}

const store = (page: Page, entries: Record<string, string>) =>
  page.addInitScript((stored) => Object.entries(stored).forEach(([k, v]) => localStorage.setItem(k, v)), entries);

const SCREENS: {
  name: string;
  open: (page: Page, request: APIRequestContext) => Promise<string>;
  loaded: (page: Page) => Promise<void>;
}[] = [
  {
    name: 'the customer portal',
    open: async (page, request) => {
      await store(page, { 'kioskToken.1': await kiosk(request) });
      return '/customer-portal/1';
    },
    loaded: (page) => settled(page.getByRole('list', { name: 'NEW SCANS' }).getByRole('listitem').first()).toContainText('Car Details'),
  },
  {
    name: 'the scans list',
    open: async (page, request) => {
      await store(page, { currentUser: JSON.stringify((await admin(request)).user) });
      return '/scans';
    },
    loaded: (page) => settled(page.getByRole('table', { name: 'Scans' })).toHaveAttribute('aria-busy', 'false'),
  },
  {
    name: 'the quotes list',
    open: async (page, request) => {
      await store(page, { currentUser: JSON.stringify((await admin(request)).user) });
      return '/quotes';
    },
    loaded: (page) => settled(page.getByRole('table', { name: 'Quotes' })).toHaveAttribute('aria-busy', 'false'),
  },
  {
    name: 'the invoice',
    open: async (page, request) => {
      const { user, quoteId } = await admin(request);
      await store(page, { currentUser: JSON.stringify(user) });
      return `/quotes/${quoteId}/invoice`;
    },
    loaded: (page) => settled(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
];

for (const [screen, device] of Object.entries(SHIFT_SCREENS))
  test.describe(screen, () => {
    test.use(device);

    for (const { name, open, loaded } of SCREENS)
      test(`${name} loads without moving what it shows`, async ({ page, request }) => {
        const path = await open(page, request);
        await recordLayoutShifts(page);
        await slowApi(page);
        await page.goto(path);
        await loaded(page);
        await page.waitForLoadState('networkidle');
        // Images decode and late styles apply after the last reply.
        await page.waitForTimeout(500);
        expect(await cumulativeShift(page)).toBeLessThan(0.05);
      });
  });
