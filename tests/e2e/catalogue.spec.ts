import { pngImage } from '../server/image-fixtures';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './helpers';

/**
 * The described catalogue and settings screens: roles, permissions, devices, products, parts,
 * panel groups, panels, application settings, e-mail templates, and the Email Header & Footer page.
 * One signed-in page for the file (a new one after a failure), moving inside the app like a user does:
 * each full page load fetches every script chunk again.
 */
let page: Page;
const stamp = Date.now();

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage();
  await signIn(page, 'admin@demo.test');
});

test.afterAll(async () => {
  await page.close();
});

/** Client-side navigation (what a menu link does), without reloading the app; `landing` is where it ends up. */
async function visit(path: string, landing = path) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expectPath(landing);
}

/** The list restores its last search into the query string, so only the path is compared. */
const expectPath = (path: string) => expect(page).toHaveURL((url) => url.pathname === path);
const submit = () => page.getByRole('button', { name: 'Submit' }).click();
const textbox = (name: RegExp) => page.getByRole('textbox', { name });
const combobox = (name: RegExp) => page.getByRole('combobox', { name });
const toast = (text: string) => page.getByText(text, { exact: true }).first();
const crumb = (name: string) => page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name });

async function openCreate(resource: string, crumb: string) {
  // This resource's link: right after a visit the last list's own Create link may still be on the page.
  await page
    .getByRole('link', { name: 'Create' })
    .and(page.locator(`[href="/${resource}/create"]`))
    .click();
  await expectPath(`/${resource}/create`);
  await expect(page.getByRole('heading', { name: crumb })).toBeVisible();
}

/** Submit on an empty form: every message shows and the first invalid input has the focus. */
async function expectInvalidSubmit(messages: string[], first: Locator) {
  await submit();
  for (const message of messages) await expect(page.getByText(message, { exact: true })).toBeVisible();
  await expect(first).toBeFocused();
}

/** Searches (padded: the search is trimmed); the table then holds exactly one row, showing `text`. */
async function findRow(placeholder: string, query: string, text = query) {
  await page.getByPlaceholder(placeholder).fill(`  ${query}  `);
  const row = page.getByRole('row').filter({ hasText: text });
  await expect(row).toHaveCount(1);
  await expect(page.getByRole('row')).toHaveCount(2);
  return row;
}

async function editRow(row: Locator, crumb: string) {
  await row.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: crumb })).toBeVisible();
}

/** The confirmation dialog: 'No, cancel!' keeps the row, 'Yes, delete it!' removes it with the given toast. */
async function deleteRow(row: Locator, message = 'Deleted Successfully', named?: string) {
  await row.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('are you sure ?')).toBeVisible();
  if (named) await expect(dialog).toContainText(named);
  await dialog.getByRole('button', { name: 'No, cancel!' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete it!' }).click();
  await expect(toast(message)).toBeVisible();
  await expect(row).toHaveCount(0);
}

/** A select (a fixed list): opens on click. */
async function pick(input: Locator, option: string) {
  await input.click();
  // On a loaded machine a click can land while MUI's menu is still opening and leave it open (its backdrop then
  // covers the form): the choice is made again until the menu has closed.
  await expect(async () => {
    const listbox = page.getByRole('listbox');
    if (!(await listbox.isVisible())) await input.click();
    await page.getByRole('option', { name: option, exact: true }).click({ timeout: 2_000 });
    await expect(listbox).toBeHidden({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

/**
 * An autocomplete (a reference): ArrowDown opens it whether or not it is focused already (a focused one
 * may be open, and a click would close it again), then the named or the first choice.
 */
async function choose(input: Locator, option?: string) {
  await input.focus();
  await input.press('ArrowDown');
  await (option ? page.getByRole('option', { name: option, exact: true }) : page.getByRole('option').first()).click();
}

async function typeInEditor(target: Locator, text: string, replace = false) {
  await target.click();
  if (replace) {
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
  }
  await page.keyboard.type(text);
}

test('roles: validation, create with permissions, search, edit, delete', async () => {
  await visit('/roles');
  // 'Created' first: until the lazy list replaces it, the dashboard's chart tables (also with a 'Name' column) are on screen.
  await expect(page.getByRole('columnheader', { name: 'Created' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Name' })).toBeVisible();
  await openCreate('roles', 'Create Role');
  await expect(crumb('Roles')).toBeVisible();
  await expectInvalidSubmit(['Name is required', 'Permissions is required'], textbox(/^Name/));

  const name = `E2E Role ${stamp}`;
  await textbox(/^Name/).fill(name);
  await textbox(/^Display Name/).fill('Catalogue editors');
  await choose(combobox(/^Permissions/), 'product');
  await choose(combobox(/^Permissions/), 'part');
  await submit();
  await expect(toast('Created Successfully')).toBeVisible();
  await expectPath('/roles');

  const row = await findRow('Search Role', name);
  await editRow(row, 'Update Role');
  await expect(page.getByText('product', { exact: true })).toBeVisible();
  await textbox(/^Name/).fill(`${name} B`);
  await submit();
  await expect(toast('Updated Successfully')).toBeVisible();
  await expectPath('/roles');
  await deleteRow(await findRow('Search Role', `${name} B`), 'Deleted Successfully', `${name} B`);
});

test('permissions: validation, create, search, edit, delete', async () => {
  await visit('/permissions');
  await openCreate('permissions', 'Create Permission');
  await expectInvalidSubmit(['Name is required'], textbox(/^Name/));
  const name = `e2e_perm_${stamp}`;
  await textbox(/^Name/).fill('Not Snake');
  await submit();
  await expect(page.getByText('Name may only contain lower-case letters, digits and underscores, starting with a letter')).toBeVisible();
  await textbox(/^Name/).fill(name);
  await textbox(/^Description/).fill('Made by the browser tests');
  await submit();
  await expect(toast('Created Successfully')).toBeVisible();

  const row = await findRow('Search Permission', name);
  await editRow(row, 'Update Permission');
  await textbox(/^Display Name/).fill('E2E permission');
  await submit();
  await expect(toast('Updated Successfully')).toBeVisible();
  await deleteRow(await findRow('Search Permission', name));
});

test('devices: every field required, create, search by serial, edit, delete', async () => {
  await visit('/devices');
  for (const heading of ['Location Name', 'Type', 'Owner', 'Action'])
    await expect(page.getByRole('columnheader', { name: heading })).toBeVisible();
  await openCreate('devices', 'Create Device');
  await expectInvalidSubmit(
    ['Location is required', 'Type is required', 'Owner is required', 'Serial is required', 'Default Client is required'],
    combobox(/^Location/),
  );
  const serial = `E2E${stamp}`;
  await choose(combobox(/^Location/));
  await pick(combobox(/^Type/), 'Chasis');
  await choose(combobox(/^Owner/));
  await textbox(/^Serial/).fill(serial);
  await choose(combobox(/^Default Client/));
  await submit();
  await expect(toast('Created Successfully')).toBeVisible();
  await expectPath('/devices');

  // The serial is searched but not a column: the one row left is the new device.
  const row = await findRow('Search Device', serial, 'Chasis');
  await editRow(row, 'Update Device');
  await pick(combobox(/^Type/), 'Tire');
  await submit();
  await expect(toast('Updated Successfully')).toBeVisible();
  const edited = await findRow('Search Device', serial, 'Tire');
  await deleteRow(edited);
});

test('products: price at least 1, create, search, edit, delete', async () => {
  await visit('/products');
  await openCreate('products', 'Create Product');
  await expectInvalidSubmit(['Name is required', 'Price is required'], textbox(/^Name/));
  const name = `E2E Product ${stamp}`;
  await textbox(/^Name/).fill(name);
  await pick(combobox(/^Type/), 'Arch');
  await page.getByRole('spinbutton', { name: /^Price/ }).fill('0');
  await submit();
  await expect(page.getByText('Price must be greater than zero')).toBeVisible();
  await expect(page.getByRole('spinbutton', { name: /^Price/ })).toBeFocused();
  await page.getByRole('spinbutton', { name: /^Price/ }).fill('45.5');
  await submit();
  await expect(toast('Created Successfully')).toBeVisible();

  // A second product of that name is refused under Name, whatever its case.
  await openCreate('products', 'Create Product');
  await textbox(/^Name/).fill(name.toUpperCase());
  await pick(combobox(/^Type/), 'Arch');
  await page.getByRole('spinbutton', { name: /^Price/ }).fill('10');
  await submit();
  await expect(page.getByText('Name has already been taken.')).toBeVisible();
  await expect(textbox(/^Name/)).toBeFocused();
  await visit('/products');

  const row = await findRow('Search Product', name);
  await expect(row).toContainText('45.5');
  await editRow(row, 'Update Product');
  await page.getByRole('spinbutton', { name: /^Price/ }).fill('60');
  await submit();
  await expect(toast('Updated Successfully')).toBeVisible();
  const edited = await findRow('Search Product', name);
  await expect(edited).toContainText('60');
  await deleteRow(edited);
});

test('parts: name required, create, search, edit, delete', async () => {
  await visit('/parts');
  await openCreate('parts', 'Create Part');
  await expectInvalidSubmit(['Name is required'], textbox(/^Name/));
  const name = `E2E Part ${stamp}`;
  await textbox(/^Name/).fill(name);
  await submit();
  await expect(toast('Created Successfully')).toBeVisible();
  const row = await findRow('Search Part', name);
  await editRow(row, 'Update Part');
  await pick(combobox(/^Type/), 'Tire');
  await submit();
  await expect(toast('Updated Successfully')).toBeVisible();
  const edited = await findRow('Search Part', name);
  await expect(edited).toContainText('Tire');
  await deleteRow(edited);
});

test('panel groups: image required, created with an upload, replaced through POST ?_method=PUT, deleted', async () => {
  await visit('/panelgroups');
  await openCreate('panelgroups', 'Create Panel Group');
  await expectInvalidSubmit(['Name is required', 'Image is required', 'Position is required'], textbox(/^Name/));

  const name = `E2E Group ${stamp}`;
  await textbox(/^Name/).fill(name);
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'group.png', mimeType: 'image/png', buffer: await pngImage(40, 20, '#0c1839') });
  await page.getByRole('spinbutton', { name: /^Position/ }).fill('0');
  await submit();
  await expect(page.getByText('Position must be greater than zero')).toBeVisible();
  await page.getByRole('spinbutton', { name: /^Position/ }).fill('9');
  const created = page.waitForRequest((r) => r.method() === 'POST' && /\/api\/quote\/panelGroups$/.test(r.url()));
  await submit();
  expect((await created).headers()['content-type']).toMatch(/^multipart\/form-data/);
  await expect(toast('Created Successfully')).toBeVisible();

  const row = await findRow('Search Panel Group', name);
  const thumbnail = row.getByRole('img');
  await expect(thumbnail).toBeVisible();
  const firstImage = await thumbnail.getAttribute('src');
  await editRow(row, 'Update Panel Group');
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'group-2.png', mimeType: 'image/png', buffer: await pngImage(40, 20, '#c81e1e') });
  const updated = page.waitForRequest((r) => r.method() === 'POST' && /\/api\/quote\/panelGroups\/\d+\?_method=PUT$/.test(r.url()));
  await submit();
  expect((await updated).headers()['content-type']).toMatch(/^multipart\/form-data/);
  await expect(toast('Updated Successfully')).toBeVisible();
  const edited = await findRow('Search Panel Group', name);
  await expect(edited.getByRole('img')).not.toHaveAttribute('src', firstImage ?? '');
  await deleteRow(edited);
});

test('panels: validation, defaults D and status on, create, search, edit, delete', async () => {
  await visit('/panels');
  await openCreate('panels', 'Create Panel');
  await expect(combobox(/^Type/)).toContainText('Default');
  await expect(
    page
      .getByRole('switch', { name: 'Status' })
      .or(page.getByRole('checkbox', { name: 'Status' }))
      .first(),
  ).toBeChecked();
  await expectInvalidSubmit(
    ['Panel Group is required', 'Name is required', 'Label is required', 'Position is required'],
    combobox(/^Panel Group/),
  );

  const name = `E2E Panel ${stamp}`;
  await choose(combobox(/^Panel Group/), 'Front');
  await textbox(/^Name/).fill(name);
  await textbox(/^Label/).fill('E2E label');
  await page.getByRole('spinbutton', { name: /^Position/ }).fill('42');
  await textbox(/^Car Panel Code/).fill('e2e_panel');
  await choose(combobox(/^Part/));
  await submit();
  await expect(toast('Created Successfully')).toBeVisible();

  const row = await findRow('Search Panel', name);
  await expect(row).toContainText('Front');
  await expect(row).toContainText('Default');
  await editRow(row, 'Update Panel');
  await pick(combobox(/^Type/), 'Large');
  await submit();
  await expect(toast('Updated Successfully')).toBeVisible();
  const edited = await findRow('Search Panel', name);
  await expect(edited).toContainText('Large');
  await deleteRow(edited);
});

test('application settings: list and edit only; a textarea setting and an editor setting', async () => {
  // There is no create screen: its path shows the list.
  await visit('/app-settings/create', '/app-settings');
  await expect(page.getByPlaceholder('Search Setting')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(page.getByRole('cell', { name: 'TERMS AND CONDITIONS', exact: true })).toBeVisible();

  // GST_PERCENT is a plain setting: a textarea.
  const gst = await findRow('Search Setting', 'GST PERCENT');
  await editRow(gst, 'Update Setting');
  const value = page.getByRole('textbox', { name: /^Value/ });
  await expect(value).toHaveValue('10');
  expect(await value.evaluate((el) => el.tagName)).toBe('TEXTAREA');
  await value.fill('');
  await expectInvalidSubmit(['Value is required'], value);
  await value.fill('12.5');
  const put = page.waitForRequest((r) => r.method() === 'PUT' && /\/api\/user\/options\/\d+$/.test(r.url()));
  await submit();
  expect((await put).postDataJSON()).toMatchObject({ option_value: '12.5', field_type: 'text' });
  await expect(toast('Setting Updated')).toBeVisible();
  await expect(await findRow('Search Setting', 'GST PERCENT')).toContainText('12.5');
  // Back to the demo value: quotes made by other tests expect 10 %.
  await editRow(await findRow('Search Setting', 'GST PERCENT'), 'Update Setting');
  await page.getByRole('textbox', { name: /^Value/ }).fill('10');
  await submit();
  await expect(toast('Setting Updated')).toBeVisible();

  // EMAIL_DEFAULT_FOOTER is an 'editor' setting: the rich-text editor, and the list shows it as HTML.
  await editRow(await findRow('Search Setting', 'EMAIL DEFAULT FOOTER'), 'Update Setting');
  const body = page.locator('.ProseMirror');
  await expect(body).toBeVisible();
  await typeInEditor(body, `Footer ${stamp}`, true);
  await page.getByRole('button', { name: 'Bold' }).click();
  // The toolbar gives the focus back to the editor a moment later; typed before that, the space would press the button.
  await expect(body).toBeFocused();
  await page.keyboard.type(' bold');
  await expect(body.locator('strong')).toHaveText('bold');
  await submit();
  await expect(toast('Setting Updated')).toBeVisible();
  const footer = await findRow('Search Setting', 'EMAIL DEFAULT FOOTER');
  await expect(footer.locator('strong')).toHaveText('bold');
});

test('email templates: validation with the body outlined, create, search, edit, delete with their own toasts', async () => {
  await visit('/email-templates');
  for (const heading of ['Name', 'Created', 'Action']) await expect(page.getByRole('columnheader', { name: heading })).toBeVisible();
  await openCreate('email-templates', 'Create Template');
  await expect(crumb('Email Templates')).toBeVisible();
  await expectInvalidSubmit(['Template Name is required', 'Template Body is required'], textbox(/^Template Name/));

  const name = `E2E Template ${stamp}`;
  await textbox(/^Template Name/).fill(name);
  await submit();
  const body = page.locator('.ProseMirror');
  await expect(body).toBeFocused();
  await expect(body).toHaveCSS('border-top-color', 'rgb(198, 40, 40)');
  await typeInEditor(body, 'Dear customer, your quote is attached.');
  await submit();
  await expect(toast('Email Template Created Successfully')).toBeVisible();
  await expectPath('/email-templates');

  const row = await findRow('Search Email Template', name);
  await editRow(row, 'Update Template');
  await expect(page.locator('.ProseMirror')).toContainText('your quote is attached');
  await typeInEditor(page.locator('.ProseMirror'), 'Updated body', true);
  await submit();
  await expect(toast('Email Template Updated Successfully')).toBeVisible();
  await deleteRow(await findRow('Search Email Template', name), 'Email Template Deleted Successfully', name);
});

test('email header and footer: both required, saved together', async () => {
  await visit('/email-header-footer');
  await expect(page.getByRole('heading', { name: 'Email Header & Footer' })).toBeVisible();
  const header = page.locator('.ra-input-EMAIL_DEFAULT_HEADER .ProseMirror');
  const footer = page.locator('.ra-input-EMAIL_DEFAULT_FOOTER .ProseMirror');
  await expect(header).not.toBeEmpty();

  await typeInEditor(header, '', true);
  await typeInEditor(footer, '', true);
  await expectInvalidSubmit(['Header is required', 'Footer is required'], header);
  await typeInEditor(header, `Header ${stamp}`);
  await typeInEditor(footer, `Regards ${stamp}`);
  const save = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/user/options/bulksave'));
  await submit();
  expect((await save).postDataJSON()).toEqual([
    { option_name: 'EMAIL_DEFAULT_HEADER', option_value: `<p>Header ${stamp}</p>` },
    { option_name: 'EMAIL_DEFAULT_FOOTER', option_value: `<p>Regards ${stamp}</p>` },
  ]);
  await expect(toast('Email Header & Footer Updated Successfully')).toBeVisible();

  await visit('/app-settings');
  await expect(await findRow('Search Setting', 'EMAIL DEFAULT HEADER')).toContainText(`Header ${stamp}`);
});

test('in Japanese: roles, e-mail template and device screens', async () => {
  await visit('/roles');
  await page.getByRole('combobox', { name: 'Language' }).click();
  await page.getByRole('option', { name: '日本語' }).click();
  // The list keeps its last search for the session: clear it to see the table.
  await page.getByPlaceholder('ロールを検索').fill('');
  await expect(page.getByRole('columnheader', { name: '作成日' })).toBeVisible();
  await page.getByRole('link', { name: '作成' }).click();
  await expect(page.getByRole('heading', { name: 'ロールを作成' })).toBeVisible();
  await page.getByRole('button', { name: '送信' }).click();
  await expect(page.getByText('名前は必須です')).toBeVisible();
  await expect(page.getByText('権限は必須です')).toBeVisible();

  await visit('/email-templates/create');
  await expect(page.getByRole('heading', { name: 'テンプレートを作成' })).toBeVisible();
  await expect(page.getByRole('button', { name: '太字' })).toBeVisible();
  await page.getByRole('button', { name: '送信' }).click();
  await expect(page.getByText('テンプレート本文は必須です')).toBeVisible();

  // Fixed choices in the user's language: a device's type.
  await visit('/devices');
  await page.getByPlaceholder('デバイスを検索').fill('');
  await expect(page.getByRole('columnheader', { name: 'ロケーション名' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'アーチ', exact: true }).first()).toBeVisible();

  await page.getByRole('combobox', { name: '言語' }).click();
  await page.getByRole('option', { name: 'English' }).click();
  await expect(page.getByRole('columnheader', { name: 'Location Name' })).toBeVisible();
});

test('at 360 px the template form fits the screen', async () => {
  await page.setViewportSize({ width: 360, height: 740 });
  await visit('/email-templates/create');
  await expect(page.locator('.ProseMirror')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 1280, height: 720 });
});
