import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { bearer, apiToken, openSignedIn, signIn } from './helpers';
import { seriousViolations } from './axe';

/** The guards before a change that cannot be taken back: Escape, the plate fetch's review, the API key, the terms. */

interface Scan {
  id: number;
  licensePlate: string | null;
  make: string | null;
  model: string | null;
}

/** An uploaded demo body scan with a registration and a make. */
async function plateScan(request: APIRequestContext, token: string): Promise<Scan> {
  const list = (await (await request.get('/api/scan/scans?type=arch&status=uploaded&per_page=25', { headers: bearer(token) })).json()) as {
    items: { id: number }[];
  };
  for (const { id } of list.items) {
    const scan = ((await (await request.get(`/api/scan/scans/${id}`, { headers: bearer(token) })).json()) as { data: Scan }).data;
    if (scan.licensePlate && scan.make) return scan;
  }
  throw new Error('no demo body scan with a registration');
}

const getScan = async (request: APIRequestContext, token: string, id: number) =>
  ((await (await request.get(`/api/scan/scans/${id}`, { headers: bearer(token) })).json()) as { data: Scan }).data;

/** Records the page's writes (every verb but GET) to a path. */
function writesTo(page: Page, part: string) {
  const writes: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && r.url().includes(part)) writes.push(`${r.method()} ${r.url()}`);
  });
  return writes;
}

/** The serious and critical axe findings inside the open dialogs (tests/e2e/a11y.spec.ts audits the routes). */
async function dialogFindings(page: Page) {
  return (await seriousViolations(page, '[role="dialog"]')).map((v) => v.id);
}

async function openCarDetails(page: Page, id: number) {
  await openSignedIn(page, 'admin@demo.test', `/scans/${id}`);
  const card = page.getByRole('region', { name: 'Car Details' });
  await expect(card.getByRole('heading', { name: 'Car Details' })).toBeVisible();
  return card;
}

test('Escape ends an inline edit: the value comes back, nothing is sent, the focus is on the pencil again', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@demo.test');
  const scan = await plateScan(request, admin);
  const card = await openCarDetails(page, scan.id);
  const writes = writesTo(page, `/api/scan/scans/${scan.id}`);

  const pencil = card.getByRole('button', { name: 'Edit Make' });
  await pencil.click();
  const input = card.getByRole('textbox', { name: 'Make' });
  await input.fill('Typed but not wanted');
  await input.press('Escape');
  await expect(input).toHaveCount(0);
  await expect(card.getByText(scan.make!, { exact: true })).toBeVisible();
  await expect(pencil).toBeFocused();

  // The registration's autocomplete: its first Escape closes the open list, the next one ends the edit.
  await card.getByRole('button', { name: 'Edit Registration' }).click();
  const plate = card.getByRole('combobox', { name: 'Registration' });
  await plate.fill(scan.licensePlate!.slice(0, 3));
  await expect(page.getByRole('option', { name: scan.licensePlate!, exact: true })).toBeVisible();
  await plate.press('Escape');
  await expect(page.getByRole('option')).toHaveCount(0);
  await expect(plate).toBeVisible();
  await plate.press('Escape');
  await expect(plate).toHaveCount(0);
  await expect(card.getByText(scan.licensePlate!, { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Edit Registration' })).toBeFocused();

  expect(writes).toEqual([]);
  expect(await getScan(request, admin, scan.id)).toMatchObject({ make: scan.make, licensePlate: scan.licensePlate });
});

test('the plate fetch shows what it would change; keep changes nothing, apply saves it', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@demo.test');
  const scan = await plateScan(request, admin);
  const lookup = (
    (await (await request.get(`/api/scan/license-plates/fetch/${scan.licensePlate}`, { headers: bearer(admin) })).json()) as {
      data: { ag_response: { make: string; model: string } };
    }
  ).data.ag_response;
  // Something the lookup would put back.
  expect(
    (await request.put(`/api/scan/scans/${scan.id}`, { headers: bearer(admin), data: { make: 'Placeholder', model: 'Placeholder' } })).ok(),
  ).toBe(true);
  const card = await openCarDetails(page, scan.id);
  const writes = writesTo(page, `/api/scan/scans/${scan.id}`);
  const review = page.getByRole('dialog', { name: `Vehicle details for ${scan.licensePlate}` });

  await card.getByRole('button', { name: 'Fetch vehicle details' }).click();
  await expect(review).toBeVisible();
  await expect(review.getByText('The registration lookup would change:')).toBeVisible();
  await expect(review.getByRole('listitem').filter({ hasText: /^Make: / })).toHaveText(`Make: Placeholder → ${lookup.make}`);
  await expect(review.getByRole('listitem').filter({ hasText: /^Model: / })).toHaveText(`Model: Placeholder → ${lookup.model}`);
  expect(await dialogFindings(page)).toEqual([]);
  await review.getByRole('button', { name: 'Keep current details' }).click();
  await expect(review).toBeHidden();
  await expect(card.getByText('Placeholder', { exact: true })).toHaveCount(2);
  expect(writes).toEqual([]);
  expect(await getScan(request, admin, scan.id)).toMatchObject({ make: 'Placeholder', model: 'Placeholder' });

  await card.getByRole('button', { name: 'Fetch vehicle details' }).click();
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/api/scan/scans/${scan.id}`));
  await review.getByRole('button', { name: 'Apply changes' }).click();
  expect((await saved).ok()).toBe(true);
  await expect(page.getByText('Vehicle details filled from the registration')).toBeVisible();
  await expect(card.getByText(lookup.make, { exact: true })).toBeVisible();
  expect(await getScan(request, admin, scan.id)).toMatchObject({ make: lookup.make, model: lookup.model });

  // Once the details match, there is nothing to review.
  await card.getByRole('button', { name: 'Fetch vehicle details' }).click();
  await expect(page.getByText('The registration lookup matches the vehicle details: nothing to change')).toBeVisible();
  await expect(review).toHaveCount(0);
});

test('a new API key asks first: cancel keeps the working key, confirm shows the new one and the old stops', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@demo.test');
  const agents = (await (await request.get('/api/agent/agents?per_page=1', { headers: bearer(admin) })).json()) as {
    items: { id: number }[];
  };
  const email = `scanner-${Date.now()}@example.test`;
  const created = await request.post('/api/user/users', {
    headers: bearer(admin),
    data: { first_name: 'Bay', last_name: 'Scanner', email, password: 'Sturdy-pass-8', roles: ['Agent'], agents: [agents.items[0].id] },
  });
  expect(created.ok()).toBe(true);
  const userId = ((await created.json()) as { data: { id: number } }).data.id;
  const oldKey = (
    (await (await request.get(`/api/user/users/${userId}/apikey`, { headers: bearer(admin) })).json()) as { data: { token: string } }
  ).data.token;
  const devices = (key: string) => request.get('/api/scan/ingest/devices', { headers: bearer(key) }).then((r) => r.status());
  expect(await devices(oldKey)).toBe(200);

  await signIn(page, 'admin@demo.test');
  const keyCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/api/user/users/${userId}/apikey`)) keyCalls.push(r.url());
  });
  await page.goto(`/users/${userId}`);
  await expect(page.getByText('This user has an API key.')).toBeVisible();
  const confirm = page.getByRole('dialog', { name: 'Generate a new API key?' });

  await page.getByRole('button', { name: 'Generate New API Key' }).click();
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText('The current key stops working at once');
  // It opens on its safe answer: an Enter pressed to open it never cuts the scanner off.
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  expect(await dialogFindings(page)).toEqual([]);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('api-key')).toHaveCount(0);
  expect(keyCalls).toEqual([]);
  expect(await devices(oldKey)).toBe(200);

  await page.getByRole('button', { name: 'Generate New API Key' }).click();
  await confirm.getByRole('button', { name: 'Generate new key' }).click();
  await expect(page.getByText('Token Generated')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy' })).toBeFocused();
  const newKey = ((await page.getByTestId('api-key').textContent()) ?? '').trim();
  expect(newKey).not.toBe(oldKey);
  expect(await devices(newKey)).toBe(200);
  expect(await devices(oldKey)).toBe(401);
});

test('the Terms and Conditions open from the footer and from the terms dialog, scrollable', async ({ page, request }) => {
  const admin = await apiToken(request, 'admin@demo.test');
  const email = `terms-${Date.now()}@example.test`;
  const created = await request.post('/api/user/users', {
    headers: bearer(admin),
    data: { first_name: 'Tess', last_name: 'Terms', email, password: 'Sturdy-pass-8', roles: ['Super Admin'] },
  });
  expect(created.ok()).toBe(true);

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Sturdy-pass-8');
  await page.getByRole('button', { name: 'Sign In' }).click();
  const consent = page.getByRole('dialog').filter({ hasText: 'I agree to the Terms and Conditions' });
  await expect(consent).toBeVisible();
  const text = page.getByRole('dialog', { name: 'Terms and Conditions' }).filter({ has: page.getByTestId('terms-text') });

  await consent.getByRole('button', { name: 'Read the Terms and Conditions' }).click();
  await expect(text.getByTestId('terms-text')).toContainText('must be confirmed by a qualified assessor');
  await expect(text.getByTestId('terms-text')).toHaveCSS('overflow-y', 'auto');
  expect(await dialogFindings(page)).toEqual([]);
  await text.getByRole('button', { name: 'Close' }).click();
  await expect(text).toHaveCount(0);
  // Reading is not agreeing: the consent dialog is still there, its Submit still disabled.
  await expect(consent.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await consent.getByRole('checkbox').check();
  await consent.getByRole('button', { name: 'Submit' }).click();
  await expect(consent).toBeHidden();

  await page.getByRole('contentinfo').getByRole('button', { name: 'Terms and Legal' }).click();
  await expect(text.getByTestId('terms-text')).toContainText('must be confirmed by a qualified assessor');
  await page.keyboard.press('Escape');
  await expect(text).toHaveCount(0);
});

test("the dashboard's range calendar has no today marker", async ({ page }) => {
  await openSignedIn(page, 'admin@demo.test', '/dashboard');
  await page.getByRole('button', { name: /^Date range:/ }).click();
  const calendar = page.getByRole('dialog', { name: 'Date range' });
  await expect(calendar.getByRole('gridcell').first()).toBeVisible();
  await expect(calendar.locator('[aria-current]')).toHaveCount(0);
  const today = Number(new Intl.DateTimeFormat('en-AU', { day: 'numeric', timeZone: 'Australia/Melbourne' }).format(new Date()));
  const cell = calendar.getByRole('gridcell', { name: String(today), exact: true });
  await expect(cell).toHaveCSS('outline-style', 'none');
  await expect(cell).toHaveCSS('border-style', 'none');
});
