import { expect, test } from '@playwright/test';
import { apiGet, apiToken, bearer, chooseLanguage, DEMO_PASSWORD, nav, openSignedIn, signIn, signOut } from './helpers';

test.describe('sign-in and the permission-filtered menu', () => {
  test('a failed sign-in shows an error and stays on /login', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('nobody@demo.test');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('These credentials do not match our records.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the login form validates on submit and focuses the first invalid field', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await expect(page.getByLabel('Email')).toBeFocused();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Enter a valid email address')).toBeVisible();
  });

  test('Super Admin sees every group; signs out', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    const menu = nav(page);
    for (const entry of ['Dashboard', 'Scans', 'Quotes', 'Configuration', 'Setting'])
      await expect(menu.getByText(entry, { exact: true })).toBeVisible();
    await menu.getByText('Configuration', { exact: true }).click();
    await expect(menu.getByText('Users', { exact: true })).toBeVisible();
    await expect(menu.getByText('Roles', { exact: true })).toBeVisible();
    await signOut(page);
  });

  test('an Agent user sees scans and their settings, not the configuration group', async ({ page }) => {
    await signIn(page, 'agent@demo.test');
    const menu = nav(page);
    await expect(menu.getByText('Scans', { exact: true })).toBeVisible();
    await expect(menu.getByText('Configuration', { exact: true })).toHaveCount(0);
    await menu.getByText('Setting', { exact: true }).click();
    await expect(menu.getByText('Locations', { exact: true })).toBeVisible();
    await expect(menu.getByText('Devices', { exact: true })).toBeVisible();
    await expect(menu.getByText('Clients', { exact: true })).toHaveCount(0);
    await signOut(page);
  });

  test('a Client user sees scans and quotes only', async ({ page }) => {
    await signIn(page, 'client@demo.test');
    const menu = nav(page);
    await expect(menu.getByText('Scans', { exact: true })).toBeVisible();
    await expect(menu.getByText('Quotes', { exact: true })).toBeVisible();
    await expect(menu.getByText('Setting', { exact: true })).toHaveCount(0);
    await expect(menu.getByText('Configuration', { exact: true })).toHaveCount(0);
    // A route without the permission sends the user back to the dashboard.
    await page.goto('/locations');
    await expect(page).toHaveURL(/\/$/);
    await signOut(page);
  });

  test('switching to Japanese translates the shell', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    await chooseLanguage(page, '日本語');
    await expect(nav(page).getByText('ダッシュボード')).toBeVisible();
    await expect(nav(page).getByText('Dashboard', { exact: true })).toHaveCount(0);
    // Back to English for the other tests (the choice is stored in the browser).
    await chooseLanguage(page, 'English');
    await expect(nav(page).getByText('Dashboard', { exact: true })).toBeVisible();
  });
});

test('the first paint comes with the HTML: the product name and a spinner before any script, replaced by the app', async ({
  browser,
  baseURL,
}) => {
  const noScript = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const bare = await noScript.newPage();
  await bare.goto('/login');
  await expect(bare.locator('#root')).toHaveText('Insurance ScanQuote');
  await noScript.close();
  const app = await browser.newContext({ baseURL });
  const page = await app.newPage();
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(page.locator('.boot')).toHaveCount(0);
  await app.close();
});

test('the app is fetched after the first contentful paint, in few requests: only the start module is asked for before it', async ({
  page,
}) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  const timing = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    scripts: performance
      .getEntriesByType('resource')
      .filter((r) => /\/assets\/.+\.js$/.test(r.name))
      .map((r) => ({ file: r.name.replace(/.*\/assets\//, ''), start: r.startTime })),
  }));
  expect(timing.fcp).toBeGreaterThan(0);
  const before = timing.scripts.filter((s) => s.start < timing.fcp).map((s) => s.file);
  expect(before).toHaveLength(1);
  expect(before[0]).toMatch(/^start-[\w-]{8}\.js$/);
  // The entry with everything it imports statically is one chunk (and Rolldown's runtime); the sign-in page's own
  // code one more, and the date-format worker. With Rolldown's automatic chunks the entry alone was 31 requests.
  const after = timing.scripts.filter((s) => s.start >= timing.fcp).map((s) => s.file);
  expect(after.filter((f) => /^index-/.test(f))).toHaveLength(1);
  expect(after.filter((f) => /^signin-/.test(f))).toHaveLength(1);
  expect(after.length).toBeLessThanOrEqual(5);
});

test('a signed-in screen brings the layout in one chunk, which the sign-in page never downloads', async ({ page }) => {
  const scripts = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((r) => r.name.replace(/.*\/assets\//, ''))
        .filter((file) => /\.js$/.test(file)),
    );
  await openSignedIn(page, 'admin@demo.test', '/scans');
  await expect(page.getByRole('heading', { name: 'Scans' })).toBeVisible();
  const signedIn = await scripts();
  expect(signedIn.filter((f) => /^layout-/.test(f))).toHaveLength(1);
  // About 80 files when MUI's parts and react-admin's layout hooks came as Rolldown's automatic chunks.
  expect(signedIn.length).toBeLessThanOrEqual(56);
  await signOut(page);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  expect((await scripts()).filter((f) => /^layout-/.test(f))).toEqual([]);
});

test('the invoice, a page without the layout, downloads no layout chunk before it shows', async ({ page }) => {
  const token = await apiToken(page.request, 'admin@demo.test');
  const [quote] = await apiGet<{ id: number }[]>(page.request, token, '/api/quote/quotes?page=1&per_page=1');
  await openSignedIn(page, 'admin@demo.test', `/quotes/${quote.id}/invoice`);
  await expect(page.getByRole('heading', { level: 1, name: `ESTIMATE # ${quote.id}` })).toBeVisible();
  const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name.replace(/.*\/assets\//, '')));
  expect(scripts.filter((f) => /^page-parts-/.test(f))).toHaveLength(1);
  expect(scripts.filter((f) => /^layout-/.test(f))).toEqual([]);
});

test('the boot warms the first date format up in a worker, off the main thread', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect
    .poll(() =>
      page.evaluate(() => performance.getEntriesByType('resource').some((r) => /\/assets\/intlWarmup\.worker-[\w-]{8}\.js$/.test(r.name))),
    )
    .toBe(true);
});

test.describe('with full motion', () => {
  test.use({ reducedMotion: 'no-preference' });

  test('the first page of a visit shows at once; a page the user moves to fades in (spec: page content uses fade transitions)', async ({
    page,
  }) => {
    // The page's box is the main area's first child; its animation is the fade.
    const fade = () =>
      page
        .locator('main > div')
        .first()
        .evaluate((box) => getComputedStyle(box).animationName);
    await openSignedIn(page, 'admin@demo.test', '/scans');
    await expect(page.getByRole('heading', { name: 'Scans' })).toBeVisible();
    expect(await fade()).toBe('none');
    await nav(page).getByText('Quotes', { exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Quotes' })).toBeVisible();
    expect(await fade()).not.toBe('none');
    // Back on the first page: a move like any other.
    await nav(page).getByText('Scans', { exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Scans' })).toBeVisible();
    expect(await fade()).not.toBe('none');
  });
});

test('motion follows the system: the account drawer slides in with full motion, and opens at once when less motion is asked for', async ({
  browser,
  baseURL,
}) => {
  // What moves as the drawer opens: the transitions the page starts (the paper's slide).
  const opened = async (reducedMotion: 'reduce' | 'no-preference') => {
    const context = await browser.newContext({ baseURL, reducedMotion });
    const page = await context.newPage();
    try {
      await signIn(page, 'admin@demo.test');
      await page.evaluate(() => {
        const w = window as unknown as { moved: string[] };
        w.moved = [];
        document.addEventListener('transitionrun', (e) => w.moved.push(e.propertyName));
      });
      await page.getByRole('button', { name: 'My Account' }).click();
      await expect(
        page
          .getByRole('button', { name: 'Logout' })
          .or(page.getByRole('menuitem', { name: 'Logout' }))
          .first(),
      ).toBeVisible();
      return await page.evaluate(() => (window as unknown as { moved: string[] }).moved);
    } finally {
      await context.close();
    }
  };
  const full = await opened('no-preference');
  expect(full).toContain('transform');
  const less = await opened('reduce');
  expect(less).toEqual([]);
});

test("a session ended on the server: the save says 'Login token expired', stores nothing, and signing in again returns to the page with what was typed", async ({
  page,
  request,
}) => {
  const admin = await apiToken(request, 'admin@demo.test');
  const created = await request.post('/api/agent/locations', {
    headers: bearer(admin),
    data: { name: `Session site ${Date.now()}`, state: 'VIC' },
  });
  const site = ((await created.json()) as { data: { id: number; name: string } }).data;

  await openSignedIn(page, 'admin@demo.test', `/locations/${site.id}`);
  await expect(page.getByLabel('Name')).toHaveValue(site.name);
  // The browser's own session is signed out elsewhere (a password reset, a logout on another tab).
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('currentUser') ?? '{}') as { token: string }).token);
  expect((await request.post('/api/user/auth/logout', { headers: bearer(token) })).status()).toBe(200);

  await page.getByLabel('Name').fill('Renamed after the session ended');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Login token expired')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Updated Successfully')).toHaveCount(0);
  const stored = await apiGet<{ name: string }>(request, admin, `/api/agent/locations/${site.id}`);
  expect(stored.name).toBe(site.name);

  await page.getByLabel('Email').fill('admin@demo.test');
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(new RegExp(`/locations/${site.id}$`));
  // The typing is back, still unsaved; saved now, it is stored.
  await expect(page.getByLabel('Name')).toHaveValue('Renamed after the session ended');
  await expect(
    page.getByText('Your unsaved changes from before you were signed out are back in the form.', { exact: false }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Updated Successfully')).toBeVisible();
  await expect
    .poll(async () => (await apiGet<{ name: string }>(request, admin, `/api/agent/locations/${site.id}`)).name)
    .toBe('Renamed after the session ended');
});

test("the keyboard: the first Tab offers 'Skip to content', which moves past the menu; a focused filled button wears a clear ring", async ({
  page,
}) => {
  await openSignedIn(page, 'admin@demo.test', '/locations/create');
  await expect(page.getByLabel('Name')).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('button', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  // The next stop is in the page's content (its breadcrumbs come first), past the menu and the header.
  await expect(page.locator('#main-content :focus')).toHaveCount(1);

  const submit = page.getByRole('button', { name: 'Submit' });
  await submit.focus();
  const ring = await submit.evaluate((el) => {
    const style = getComputedStyle(el);
    return { style: style.outlineStyle, width: style.outlineWidth };
  });
  expect(ring).toEqual({ style: 'solid', width: '3px' });
});

test("on a phone the header icon's tooltip leaves the selectors' row uncovered", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openSignedIn(page, 'admin@demo.test', '/');
  await page.getByRole('link', { name: 'Scans', exact: true }).hover();
  const tip = page.getByRole('tooltip', { name: 'Scans' });
  await expect(tip).toBeVisible();
  const [a, b] = [await tip.boundingBox(), await page.getByRole('combobox', { name: 'Language' }).boundingBox()];
  if (!a || !b) throw new Error('the tooltip or the language selector has no box');
  const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlap).toBe(false);
});
