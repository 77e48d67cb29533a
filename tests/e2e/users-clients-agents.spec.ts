import { readFile } from 'node:fs/promises';
import { pngImage } from '../server/image-fixtures';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { acceptTermsIfShown, apiToken, bearer, clickUntil, nav, openSignedIn, signIn } from './helpers';

const form = (page: Page) => page.locator('form').first();
const submit = (page: Page) => form(page).getByRole('button', { name: 'Submit' }).click();
const createButton = (page: Page) =>
  page
    .getByRole('link', { name: 'Create' })
    .or(page.getByRole('button', { name: 'Create' }))
    .first();
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

/**
 * Searches a list and waits until its table holds the one row: a row of the unfiltered page may match at once, and
 * the search's delayed URL change would follow a click on it, back to the list.
 */
async function search(page: Page, placeholder: string, query: string, text = query.trim()) {
  await page.getByPlaceholder(placeholder).fill(query);
  await expect(row(page, text)).toHaveCount(1);
  await expect(page.getByRole('row')).toHaveCount(2);
}

/** An autocomplete or select: open it and pick the option. */
async function choose(page: Page, input: Locator, option: string) {
  const choice = page.getByRole('option', { name: option, exact: true });
  await input.click();
  // An autocomplete focused by a failed submit may toggle shut on the click: the arrow key opens it.
  const opened = await choice.waitFor({ state: 'visible', timeout: 1500 }).then(
    () => true,
    () => false,
  );
  if (!opened) await input.press('ArrowDown');
  await choice.click();
}

/** react-admin shows one toast at a time: close a waiting 'form is not valid' so the next message shows at once. */
async function dismissToasts(page: Page) {
  const toast = page.getByRole('alert').filter({ hasText: 'The form is not valid' });
  while (await toast.count()) {
    await toast.first().getByRole('button', { name: 'Close' }).click();
    await expect(toast).toHaveCount(0);
  }
}

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

// A page error fails a screen silently (a blank page): print it, and console errors, with the test's output.
test.beforeEach(({ page }) => {
  page.on('pageerror', (error) => console.log(`pageerror: ${error.message}`));
  page.on('console', (m) => m.type() === 'error' && console.log(`console: ${m.text().slice(0, 200)}`));
});

test.describe('users', () => {
  test('invalid submit, agents with the Agent role cleared when it goes, search, edit, API key, delete', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openSignedIn(page, 'admin@demo.test', '/users');
    await expect(page.getByPlaceholder('Search User')).toBeVisible();
    for (const column of ['First Name', 'Last Name', 'Email', 'Roles', 'Created', 'Action'])
      await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
    await screenshot(page, 'users-list');

    await createButton(page).click();
    await expect(page).toHaveURL(/\/users\/create$/);
    await expect(page.getByText('Create User')).toBeVisible();
    await submit(page);
    for (const message of [
      'First Name is required',
      'Last Name is required',
      'Email is required',
      'Roles is required',
      'Password is required',
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }
    await expect(page.getByLabel('First Name')).toBeFocused();
    await screenshot(page, 'user-create-invalid');

    const email = `e2e.user.${Date.now()}@example.test`;
    await page.getByLabel('First Name').fill('Erin');
    await page.getByLabel('Last Name').fill('Endtoend');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
    await submit(page);
    await expect(page.getByText('Enter a valid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('long-enough-1');

    // The Agent role brings the agents list, required; deselecting the role clears it.
    await expect(page.getByRole('combobox', { name: 'Agents' })).toHaveCount(0);
    await choose(page, page.getByLabel('Roles'), 'Agent');
    await expect(page.getByRole('combobox', { name: 'Agents' })).toBeVisible();
    await submit(page);
    await expect(page.getByText('Agents is required')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Agents' })).toBeFocused();
    await choose(page, page.getByRole('combobox', { name: 'Agents' }), 'Melbourne Auto Scan');
    await expect(form(page).getByRole('button', { name: 'Melbourne Auto Scan' })).toBeVisible();
    await page.getByLabel('Roles').click();
    await page.keyboard.press('Escape');
    await page.getByLabel('Roles').press('Backspace');
    await expect(page.getByRole('combobox', { name: 'Agents' })).toHaveCount(0);
    await choose(page, page.getByLabel('Roles'), 'Agent');
    await expect(page.getByRole('combobox', { name: 'Agents' })).toBeVisible();
    await expect(form(page).getByRole('button', { name: 'Melbourne Auto Scan' })).toHaveCount(0);
    await choose(page, page.getByRole('combobox', { name: 'Agents' }), 'Harbour City Drive-Through');
    await submit(page);
    await expect(page.getByText('Created Successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/users(\?.*)?$/);

    await search(page, 'Search User', `  ${email} `);
    await expect(row(page, email)).toContainText('Agent');
    await row(page, email).getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByText('Update User')).toBeVisible();
    await expect(page.getByLabel('First Name')).toHaveValue('Erin');
    // A Super Admin may set another user's password here; blank keeps it.
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    await expect(form(page).getByRole('button', { name: 'Harbour City Drive-Through' })).toBeVisible();

    // The API key: shown once, copied, gone after leaving the page.
    await expect(page.getByText('This user has no API key yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Generate API Key' }).click();
    await expect(page.getByText('Token Generated')).toBeVisible();
    await expect(page.getByText('Copy the key now: it is shown only this once.')).toBeVisible();
    await expect(page.getByText('A new key replaces the previous one, which stops working at once.')).toBeVisible();
    const key = (await page.getByTestId('api-key').textContent())?.trim() ?? '';
    expect(key).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await screenshot(page, 'user-edit-api-key');

    await page.getByLabel('First Name').fill('Erika');
    await submit(page);
    await expect(page.getByText('Updated Successfully')).toBeVisible();
    // Back on the list, which may restore the search it kept (react-admin's stored list parameters).
    await expect(page).toHaveURL(/\/users(\?|$)/);
    await search(page, 'Search User', email);
    await expect(row(page, email)).toContainText('Erika');
    await row(page, email).getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByText('This user has an API key.')).toBeVisible();
    await expect(page.getByText(key)).toHaveCount(0);
    await expect(page.getByTestId('api-key')).toHaveCount(0);

    await page.goto('/users');
    await search(page, 'Search User', email);
    await row(page, email).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('are you sure ?')).toBeVisible();
    await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(page.getByText('Deleted Successfully')).toBeVisible();
    await expect(row(page, email)).toHaveCount(0);
  });

  test('Export downloads every user, and every location, as CSV', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    for (const [path, file, expected] of [
      ['/users', 'users.csv', 'admin@demo.test'],
      ['/locations', 'locations.csv', 'Collingwood Depot'],
      ['/clients', 'clients.csv', 'Sakura Fleet Services'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('row').nth(1)).toBeVisible();
      const total = Number((await page.getByText(/^\d+-\d+ of \d+$/).textContent())?.split(' of ')[1]);
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      const csv = await readFile(await (await download).path(), 'utf8');
      expect((await download).suggestedFilename()).toBe(file);
      // A header line, then one line per record of the list (react-admin asks for 1,000 rows; the routes answer 100 a page).
      expect(csv.trim().split(/\r?\n/)).toHaveLength(total + 1);
      expect(csv).toContain(expected);
      // The list's columns under its headings (not every member of the records: a client's price matrices).
      const headings = (await page.getByRole('columnheader').allTextContents()).filter((h) => h !== 'Action');
      expect(csv.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe(headings.join(','));
    }
  });

  test('Export writes each cell as the list shows it: a reference by its name, a choice by its label, Yes / No, the date as shown', async ({
    page,
  }) => {
    await signIn(page, 'admin@demo.test');
    /** The list's headings, its first row's cells, and the export's first record by heading. */
    const exported = async (path: string) => {
      await page.goto(path);
      const first = page.getByRole('row').nth(1);
      await expect(first.getByRole('cell').nth(1)).toBeVisible();
      const headings = (await page.getByRole('columnheader').allTextContents()).filter((h) => h !== 'Action');
      const shown = await first.getByRole('cell').allTextContents();
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      const csv = await readFile(await (await download).path(), 'utf8');
      const line = csv
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)[1]
        .split(',');
      const at = (heading: string) => {
        expect(headings, `${path}: a column '${heading}'`).toContain(heading);
        return headings.indexOf(heading);
      };
      return { cell: (heading: string) => line[at(heading)], shown: (heading: string) => shown[at(heading)] };
    };
    const panels = await exported('/panels');
    expect(panels.cell('Panel Group')).toBe(panels.shown('Panel Group'));
    expect(panels.cell('Panel Group')).not.toMatch(/^\d+$/);
    expect(panels.cell('Type')).toBe(panels.shown('Type'));
    expect(panels.cell('Status')).toMatch(/^(Yes|No)$/);
    const roles = await exported('/roles');
    expect(roles.cell('Created')).toBe(roles.shown('Created'));
    expect(roles.cell('Created')).toMatch(/^\d\d-\d\d-\d{4} \d\d:\d\d [AP]M$/);
  });

  test('impersonate an Agent user and leave again', async ({ page }) => {
    await openSignedIn(page, 'admin@demo.test', '/users');
    await search(page, 'Search User', 'admin@demo.test');
    // Not on one's own row.
    await expect(row(page, 'admin@demo.test').getByRole('button', { name: 'Impersonate' })).toHaveCount(0);
    await search(page, 'Search User', 'agent@demo.test');
    await row(page, 'agent@demo.test').getByRole('button', { name: 'Impersonate' }).click();

    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText('Impersonated Successfully')).toBeVisible();
    // The app is now the Agent user's, terms dialog included.
    await acceptTermsIfShown(page);
    await expect(page.getByRole('button', { name: 'My Account' })).toContainText('Alex Agent');
    // The Agent role's menu: no Configuration group, so no Users.
    await expect(nav(page).getByText('Scans', { exact: true })).toBeVisible();
    await expect(nav(page).getByText('Configuration', { exact: true })).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('impersonatedUser'))).toBe('1');
    await page.goto('/users');
    await expect(page).toHaveURL(/\/$/);

    await page.getByRole('button', { name: 'My Account' }).click();
    await page.getByRole('button', { name: 'Leave Impersonate' }).click();
    await expect(page.getByText('Leave from impersonation Successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'My Account' })).toContainText('Ada Admin');
    await expect(nav(page).getByText('Configuration', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('impersonatedUser'))).toBeNull();
    // The admin's token works again: the users list loads.
    await page.goto('/users');
    await expect(row(page, 'agent@demo.test').getByRole('button', { name: 'Impersonate' })).toBeVisible();
  });
});

test.describe('roles and permissions', () => {
  test("the built-in ones offer no delete (the server refuses it); one of the users' own does", async ({ page, request }) => {
    const admin = await apiToken(request, 'admin@demo.test');
    const name = `Checker ${Date.now()}`;
    const created = await request.post('/api/user/roles', { headers: bearer(admin), data: { name, permissions: ['scan'] } });
    expect(created.ok()).toBe(true);
    await openSignedIn(page, 'admin@demo.test', '/roles');
    await expect(row(page, name).getByRole('button', { name: 'Delete' })).toBeVisible();
    // A role nobody holds: the dialog names it and says nothing more.
    await row(page, name).getByRole('button', { name: 'Delete' }).click();
    let dialog = page.getByRole('dialog');
    await expect(dialog.getByText(name)).toBeVisible();
    await expect(dialog.getByText(/hold this role|holds this role/)).toHaveCount(0);
    await dialog.getByRole('button', { name: 'No, cancel!' }).click();
    // Once a user holds it, the dialog says that the delete takes it from them and signs them out.
    const holder = await request.post('/api/user/users', {
      headers: bearer(admin),
      data: {
        first_name: 'Role',
        last_name: 'Holder',
        email: `holder-${Date.now()}@example.test`,
        password: 'holder-password-1',
        roles: [name],
      },
    });
    expect(holder.ok(), await holder.text()).toBe(true);
    await page.reload();
    await row(page, name).getByRole('button', { name: 'Delete' }).click();
    dialog = page.getByRole('dialog');
    await expect(dialog.getByText('1 user holds this role: it is taken from them and they are signed out.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(page.getByText('Deleted Successfully')).toBeVisible();
    await expect(row(page, name)).toHaveCount(0);
    for (const builtIn of ['Super Admin', 'Agent', 'Client']) {
      const builtInRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: builtIn, exact: true }) });
      await expect(builtInRow).toHaveCount(1);
      await expect(builtInRow.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    }
    await page.goto('/permissions');
    await page.getByPlaceholder('Search').fill('scan');
    const scan = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'scan', exact: true }) });
    await expect(scan).toHaveCount(1);
    await expect(scan.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  });
});

test.describe('clients', () => {
  test('invalid submit, then a price matrix cell edited, saved and seen after reload', async ({ page }) => {
    await openSignedIn(page, 'admin@demo.test', '/clients/create');
    await expect(page.getByText('Create Client')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Dent Prices' })).toBeVisible();
    await expect(page.getByRole('spinbutton', { name: 'Bonnet Light' })).toHaveValue('0');
    await submit(page);
    await expect(page.getByText('Name is required')).toBeVisible();
    // Only the name; the threshold starts at its default (1).
    await expect(page.getByRole('spinbutton', { name: /^Threshold/ })).toHaveValue('1');
    await expect(page.getByText('Threshold is required')).toHaveCount(0);
    await expect(page.getByLabel('Name', { exact: false }).first()).toBeFocused();
    await choose(page, page.getByLabel('Calculation Method'), 'Weight');
    await expect(page.getByLabel('Threshold')).toHaveCount(0);
    await submit(page);
    await expect(page.getByText('Oversize Count is required')).toBeVisible();
    await expect(page.getByText('Light Count is required')).toBeVisible();
    await screenshot(page, 'client-create-invalid');

    await page.goto('/clients');
    await expect(page.getByPlaceholder('Search Client')).toBeVisible();
    await search(page, 'Search Client', 'Southern Cross');
    await row(page, 'Southern Cross Insurance').getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByText('Update Client')).toBeVisible();
    const editUrl = page.url();
    const cell = page.getByRole('spinbutton', { name: 'Bonnet Light' });
    await expect(cell).not.toHaveValue('0');
    const value = String(100 + (Date.now() % 800) + 0.5);
    await cell.fill('-1');
    await submit(page);
    await expect(page.getByText('Light must be greater than or equal to 0')).toBeVisible();
    await expect(cell).toBeFocused();
    await cell.fill(value);
    await page.getByRole('spinbutton', { name: 'Bonnet Paint' }).fill('77');
    await submit(page);
    await expect(page.getByText('Updated Successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/clients(\?.*)?$/);

    // Loaded afresh from the server (the list's own URL changes may stand between it and the form in the history).
    await page.goto(editUrl);
    await expect(page.getByRole('spinbutton', { name: 'Bonnet Light' })).toHaveValue(value);
    await expect(page.getByRole('spinbutton', { name: 'Bonnet Paint' })).toHaveValue('77');
  });
});

test.describe('agents', () => {
  test('invalid submit, an agent created with an uploaded logo, and a webhook with its secret copied', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openSignedIn(page, 'admin@demo.test', '/agents');
    await expect(page.getByPlaceholder('Search Agent')).toBeVisible();
    await expect(row(page, 'Melbourne Auto Scan').getByRole('link', { name: 'Customer Portal' })).toHaveAttribute(
      'href',
      /\/customer-portal\/\d+$/,
    );
    await createButton(page).click();
    await expect(page.getByText('Create Agent')).toBeVisible();
    await submit(page);
    for (const message of [
      'Name is required',
      'Phone is required',
      'Email is required',
      'Address is required',
      'Portal Email Address is required',
      'ABN is required',
      'Pincode is required',
      'Default Client is required',
      'Language is required',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(form(page).getByLabel('Name')).toBeFocused();
    await expect(form(page).getByRole('textbox', { name: 'Primary Color', exact: true })).toHaveValue('#0c1839');
    await expect(form(page).getByRole('textbox', { name: 'Text Color', exact: true })).toHaveValue('#000000');

    const name = `E2E Agent ${Date.now()}`;
    const f = form(page);
    await f.getByLabel('Name').fill(name);
    await f
      .locator('input[type="file"]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await pngImage(24, 24, '#0c1839') });
    await f.getByLabel('Phone').fill('0312345678');
    await f.getByLabel(/^Email/).fill('desk@e2e.test');
    await f.getByLabel(/^Address/).fill('1 Test St, Melbourne VIC 3000');
    await f.getByLabel('Portal Email Address').fill('portal@e2e.test');
    await f.getByLabel('ABN').fill('12345678901');
    await f.getByLabel('Pincode').fill('12a456');
    await choose(page, f.getByLabel('Default Client'), 'Southern Cross Insurance');
    await choose(page, f.getByLabel('Language'), 'English');
    await submit(page);
    await expect(page.getByText('Pincode must be exactly 6 digits')).toBeVisible();
    await f.getByLabel('Pincode').fill('135790');
    await submit(page);
    await expect(page.getByText('Created Successfully')).toBeVisible();
    await expect(page).toHaveURL(/\/agents(\?.*)?$/);

    await search(page, 'Search Agent', name);
    await expect(row(page, name)).toContainText('Southern Cross Insurance');
    await clickUntil(row(page, name).getByRole('link', { name: 'Edit' }), () =>
      expect(page.getByText('Update Agent')).toBeVisible({ timeout: 3_000 }),
    );
    await expect(page.getByText('Leave blank to keep the current pincode (6 digits)')).toBeVisible();
    const logo = form(page).getByRole('img').first();
    await expect(logo).toHaveAttribute('src', /\/api\/user\/files\/[0-9a-f]+\.png$/);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(24);

    // A new logo on edit goes as multipart POST agents/{id}?_method=PUT; the blank pincode keeps the old one.
    const update = page.waitForRequest((r) => r.method() === 'POST' && /\/api\/agent\/agents\/\d+\?_method=PUT$/.test(r.url()));
    await form(page)
      .locator('input[type="file"]')
      .setInputFiles({ name: 'logo2.png', mimeType: 'image/png', buffer: await pngImage(32, 32, '#c82828') });
    await submit(page);
    expect((await update).headers()['content-type']).toMatch(/^multipart\/form-data/);
    await expect(page.getByText('Updated Successfully')).toBeVisible();
    await search(page, 'Search Agent', name);
    await row(page, name).getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByText('Update Agent')).toBeVisible();
    await expect
      .poll(() =>
        form(page)
          .getByRole('img')
          .first()
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBe(32);

    // Webhooks: validation in the dialog, then one created; its secret is copied.
    const panel = page.getByRole('region', { name: 'Webhooks' });
    await expect(panel.getByText('No Data Available!.')).toBeVisible();
    await panel.getByRole('button', { name: 'Add Webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Webhook' });
    await expect(dialog).toBeVisible();
    expect((await dialog.boundingBox())?.width ?? 0).toBeLessThanOrEqual(700);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByText('Endpoint is required')).toBeVisible();
    await expect(dialog.getByText('Events is required')).toBeVisible();
    await expect(dialog.getByLabel('Endpoint')).toBeFocused();
    await dialog.getByLabel('Endpoint').fill('ftp://example.test/hook');
    await dialog.getByRole('checkbox', { name: 'Scan created' }).check();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByText('Endpoint must be a valid URL')).toBeVisible();
    await dialog.getByLabel('Endpoint').fill('https://hooks.e2e.test/scans');
    await dialog.getByLabel('Description').fill('E2E receiver');
    await dismissToasts(page);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Created Successfully')).toBeVisible();
    await expect(dialog).toBeHidden();
    const item = panel.getByRole('listitem').filter({ hasText: 'https://hooks.e2e.test/scans' });
    await expect(item).toContainText('Scan created');
    const secret = (await item.locator('code').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await item.getByRole('button', { name: 'Copy' }).click();
    await expect(item.getByRole('button', { name: 'Copied!' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await screenshot(page, 'agent-edit-webhooks');

    await item.getByRole('button', { name: 'Edit' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Update Webhook' });
    await expect(editDialog.getByText(secret)).toBeVisible();
    await editDialog.getByRole('checkbox', { name: 'Quote generated' }).check();
    await editDialog.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Updated Successfully')).toBeVisible();
    await expect(item).toContainText('Quote generated');
    await expect(item.locator('code')).toHaveText(secret);

    await item.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog');
    await expect(confirm.getByText('are you sure ?')).toBeVisible();
    await confirm.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expect(page.getByText('Deleted Successfully')).toBeVisible();
    await expect(panel.getByText('https://hooks.e2e.test/scans')).toHaveCount(0);
  });
});

test.describe('in Japanese at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('users, clients and agents screens fit a phone and speak Japanese', async ({ page }) => {
    await signIn(page, 'admin@demo.test');
    await page.evaluate(() => localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify('ja')));
    const noSideScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

    await page.goto('/users');
    await expect(page.getByPlaceholder('ユーザーを検索')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'agent@demo.test' })).toHaveCount(1);
    // The wide table scrolls inside its card, not the page.
    expect(await noSideScroll()).toBe(true);
    await screenshot(page, 'ja-360-users');
    await page.goto('/users/create');
    await expect(page.getByText('ユーザーを作成')).toBeVisible();
    await form(page).getByRole('button', { name: '送信' }).click();
    await expect(page.getByText('名は必須です')).toBeVisible();
    await expect(page.getByText('ロールは必須です')).toBeVisible();
    expect(await noSideScroll()).toBe(true);
    await screenshot(page, 'ja-360-user-create');

    await page.goto('/clients');
    await expect(page.getByPlaceholder('クライアントを検索')).toBeVisible();
    await page.getByRole('row').filter({ hasText: 'Southern Cross Insurance' }).getByRole('link', { name: '編集' }).click();
    await expect(page.getByText('クライアントを更新')).toBeVisible();
    const dent = page.getByRole('table', { name: 'デント価格' });
    await expect(dent).toBeVisible();
    await expect(dent.getByRole('columnheader', { name: 'ライト ($)' })).toBeVisible();
    // The grid scrolls sideways inside its box; the page itself does not.
    const scroller = dent.locator('xpath=..');
    expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await noSideScroll()).toBe(true);
    // Scrolled sideways, the part names stay in view (sticky first column).
    await scroller.evaluate((el) => el.scrollBy({ left: 400 }));
    const left = await scroller.evaluate((el) => el.getBoundingClientRect().left);
    await expect
      .poll(async () => Math.round(((await dent.getByRole('rowheader', { name: 'Bonnet' }).boundingBox())?.x ?? -1) - left))
      .toBeLessThanOrEqual(1);
    expect(await scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    await screenshot(page, 'ja-360-client-edit');

    await page.goto('/agents');
    await expect(page.getByPlaceholder('エージェントを検索')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'Melbourne Auto Scan' })).toHaveCount(1);
    expect(await noSideScroll()).toBe(true);
    await screenshot(page, 'ja-360-agents');
    await page.getByRole('row').filter({ hasText: 'Melbourne Auto Scan' }).getByRole('link', { name: '編集' }).click();
    await expect(page.getByText('エージェントを更新')).toBeVisible();
    await expect(page.getByText('空欄のままにすると現在のPINコードを維持します（6桁）')).toBeVisible();
    const panel = page.getByRole('region', { name: 'Webhook' });
    await expect(panel.getByText('https://hooks.melbourneautoscan.test/scans')).toBeVisible();
    expect(await noSideScroll()).toBe(true);
    await screenshot(page, 'ja-360-agent-edit');
    await panel.getByRole('button', { name: 'Webhookを追加' }).click();
    const dialog = page.getByRole('dialog', { name: 'Webhookを作成' });
    await dialog.getByRole('button', { name: '送信' }).click();
    await expect(dialog.getByText('エンドポイントは必須です')).toBeVisible();
    await screenshot(page, 'ja-360-webhook-dialog');
    await dialog.getByRole('button', { name: 'キャンセル' }).click();

    await page.evaluate(() => localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify('en')));
  });
});
