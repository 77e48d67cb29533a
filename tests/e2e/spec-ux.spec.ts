import { expect, test, type Page } from '@playwright/test';
import { bearer, openSignedIn, signIn } from './helpers';

// Defects found against the product description and UX: a client from its name alone, impersonating a user who has not accepted
// the terms, an invalid submit focusing an autocomplete, and the menu column on a long page.

const api = async (page: Page, method: 'GET' | 'POST', url: string, data?: unknown) => {
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('currentUser') ?? '{}') as { token?: string }).token);
  const res = await page.request.fetch(url, { method, data, headers: bearer(token ?? '') });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return (await res.json()) as { data?: Record<string, unknown>; items?: Record<string, unknown>[] };
};

const submit = (page: Page) => page.locator('form').first().getByRole('button', { name: 'Submit' }).click();

test.beforeEach(({ page }) => {
  page.on('pageerror', (error) => console.log(`pageerror: ${error.message}`));
});

test('a client is created from its name alone; the form opens with the pricing defaults', async ({ page }) => {
  await openSignedIn(page, 'admin@demo.test', '/clients/create');
  await expect(page.getByText('Create Client')).toBeVisible();
  await expect(page.getByRole('combobox', { name: /^Calculation Method/ })).toHaveText('Threshold');
  await expect(page.getByRole('spinbutton', { name: /^Threshold/ })).toHaveValue('1');
  await expect(page.getByRole('spinbutton', { name: /^Metallic Surcharge/ })).toHaveValue('0');
  await expect(page.getByRole('spinbutton', { name: /^Pearl Surcharge/ })).toHaveValue('0');
  await expect(page.getByRole('combobox', { name: /^Currency/ })).toHaveText('$');

  // Emptied, the threshold is not required either: the server applies the default.
  await page.getByRole('spinbutton', { name: /^Threshold/ }).fill('');
  const name = `Name-only client ${Date.now()}`;
  await page.getByRole('textbox', { name: /^Name/ }).fill(name);
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/quote\/clients$/.test(r.url()));
  await submit(page);
  expect((await created).status()).toBe(201);
  await expect(page.getByText('Created Successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/clients(\?.*)?$/);
  const { items = [] } = await api(page, 'GET', `/api/quote/clients?q=${encodeURIComponent(name)}`);
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ name, calculation_method: 'T', sc_threshold: 1, sc_metallic: 0, sc_pearl: 0, currency: '$' });
});

test('impersonating a user who has not accepted the terms: no terms dialog, and Leave Impersonate works', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  const agentId = (await api(page, 'GET', '/api/agent/agents?per_page=1')).items?.[0]?.id;
  const email = `no-consent-${Date.now()}@example.test`;
  const created = await api(page, 'POST', '/api/user/users', {
    first_name: 'Nora',
    last_name: 'Noconsent',
    email,
    password: 'Sturdy-pass-8',
    roles: ['Agent'],
    agents: [agentId],
  });
  expect(created.data?.id).toBeTruthy();

  await page.goto('/users');
  await page.getByPlaceholder('Search User').fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Impersonate' }).click();
  await expect(page.getByText('Impersonated Successfully')).toBeVisible();
  await expect(page.getByRole('button', { name: 'My Account' })).toContainText('Nora Noconsent');
  // The dashboard (where the dialog lives) is shown, without the dialog: the admin cannot consent for Nora.
  await expect(page.getByRole('heading', { name: "Today's Scans" })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect((await api(page, 'GET', '/api/user/auth/user')).data?.consent).toBe(0);

  await page.getByRole('button', { name: 'My Account' }).click();
  await page.getByRole('button', { name: 'Leave Impersonate' }).click();
  await expect(page.getByText('Leave from impersonation Successfully')).toBeVisible();
  await expect(page.getByRole('button', { name: 'My Account' })).toContainText('Ada Admin');
  expect(await page.evaluate(() => localStorage.getItem('impersonatedUser'))).toBeNull();
});

test('an invalid submit focuses the first invalid autocomplete without opening its list (devices, users)', async ({ page }) => {
  await openSignedIn(page, 'admin@demo.test', '/devices/create');
  await expect(page.getByText('Create Device')).toBeVisible();
  await submit(page);
  await expect(page.getByText('Location is required')).toBeVisible();
  await expect(page.getByRole('combobox', { name: /^Location/ })).toBeFocused();
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(page.getByRole('option')).toHaveCount(0);
  // The list still opens on demand.
  await page.getByRole('combobox', { name: /^Location/ }).press('ArrowDown');
  await expect(page.getByRole('listbox')).toBeVisible();

  await page.goto('/users/create');
  await expect(page.getByText('Create User')).toBeVisible();
  await page.getByRole('textbox', { name: /^First Name/ }).fill('Focus');
  await page.getByRole('textbox', { name: /^Last Name/ }).fill('Test');
  await page.getByRole('textbox', { name: /^Email/ }).fill(`focus-${Date.now()}@example.test`);
  await submit(page);
  await expect(page.getByText('Roles is required')).toBeVisible();
  await expect(page.getByRole('combobox', { name: /^Roles/ })).toBeFocused();
  await expect(page.getByRole('listbox')).toHaveCount(0);
});

test("the menu column's white background runs the full height of a long page", async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  const clientId = (await api(page, 'GET', '/api/quote/clients?per_page=1')).items?.[0]?.id;
  // A client's form with both price matrices is several screens long.
  await page.goto(`/clients/${String(clientId)}`);
  await expect(page.getByRole('table', { name: 'Scratch Prices' })).toBeVisible();
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  const measure = () =>
    menu.evaluate((nav) => {
      const column = nav.closest('.MuiDrawer-docked')!;
      const paper = nav.closest('.MuiDrawer-paper')!;
      return {
        page: document.documentElement.scrollHeight,
        viewport: window.innerHeight,
        column: column.getBoundingClientRect().height,
        columnBackground: getComputedStyle(column).backgroundColor,
        paperBackground: getComputedStyle(paper).backgroundColor,
      };
    });
  const m = await measure();
  expect(m.page).toBeGreaterThan(2 * m.viewport);
  expect(m.column).toBeGreaterThanOrEqual(m.page);
  expect(m.columnBackground).toBe(m.paperBackground);
  expect(m.columnBackground).toBe('rgb(255, 255, 255)');
  // At the bottom of the page, the menu's side is still the drawer.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const bottomLeft = await page.evaluate(() => document.elementFromPoint(10, window.innerHeight - 2)?.closest('.MuiDrawer-root') != null);
  expect(bottomLeft).toBe(true);
});
