import { expect, test } from '@playwright/test';
import { apiGet, apiToken, bearer, openSignedIn } from './helpers';

test('create, find, edit and delete a location', async ({ page }) => {
  await openSignedIn(page, 'admin@demo.test', '/locations');
  await expect(page.getByPlaceholder('Search Location')).toBeVisible();

  await page
    .getByRole('link', { name: 'Create' })
    .or(page.getByRole('button', { name: 'Create' }))
    .first()
    .click();
  await expect(page).toHaveURL(/\/locations\/create$/);
  await expect(page.getByText('Create Location')).toBeVisible();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('State is required')).toBeVisible();

  const name = `E2E Depot ${Date.now()}`;
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('State').click();
  await page.getByRole('option', { name: 'VIC - Victoria - AU' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Created Successfully')).toBeVisible();
  // The list may restore its last search into the address.
  await expect(page).toHaveURL(/\/locations(\?.*)?$/);

  await page.getByPlaceholder('Search Location').fill(`  ${name}  `);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(page.getByRole('row')).toHaveCount(2);

  await row
    .getByRole('link', { name: 'Edit' })
    .or(row.getByRole('button', { name: 'Edit' }))
    .first()
    .click();
  await expect(page.getByText('Update Location')).toBeVisible();
  await page.getByLabel('Name').fill(`${name} West`);
  // Leaving with the change unsaved asks first; Stay keeps it.
  await page.getByRole('link', { name: 'Cancel' }).click();
  const leave = page.getByRole('dialog', { name: 'Unsaved changes' });
  await expect(leave.getByText('You have unsaved changes. Leave this page?')).toBeVisible();
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(leave).toBeHidden();
  await expect(page.getByLabel('Name')).toHaveValue(`${name} West`);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Updated Successfully')).toBeVisible();
  // The save's own move to the list asks nothing.
  await expect(page).toHaveURL(/\/locations(\?.*)?$/);
  await expect(leave).toHaveCount(0);

  await page.getByPlaceholder('Search Location').fill(`${name} West`);
  const edited = page.getByRole('row').filter({ hasText: `${name} West` });
  await expect(edited).toHaveCount(1);
  await edited.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('are you sure ?')).toBeVisible();
  await dialog.getByRole('button', { name: 'No, cancel!' }).click();
  await expect(edited).toHaveCount(1);
  await edited.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete it!' }).click();
  await expect(page.getByText('Deleted Successfully')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: `${name} West` })).toHaveCount(0);
});

test('an unknown location id shows Location Not Found and returns to the list', async ({ page }) => {
  await openSignedIn(page, 'admin@demo.test', '/locations/999999');
  await expect(page.getByText('Location Not Found')).toBeVisible();
  await expect(page).toHaveURL(/\/locations(\?.*)?$/);
});

test("two users edit one location: the second save is refused with 'Someone else saved…' and keeps what they typed", async ({
  browser,
  request,
}) => {
  const admin = await apiToken(request, 'admin@demo.test');
  const created = await request.post('/api/agent/locations', {
    headers: bearer(admin),
    data: { name: `Shared depot ${Date.now()}`, state: 'VIC' },
  });
  const site = ((await created.json()) as { data: { id: number; name: string } }).data;
  const [first, second] = await Promise.all([browser.newContext(), browser.newContext()]);
  try {
    const a = await first.newPage();
    const b = await second.newPage();
    for (const page of [a, b]) {
      await openSignedIn(page, 'admin@demo.test', `/locations/${site.id}`);
      await expect(page.getByLabel('Name')).toHaveValue(site.name);
    }
    await a.getByLabel('Name').fill(`${site.name} A`);
    await a.getByRole('button', { name: 'Submit' }).click();
    await expect(a.getByText('Updated Successfully')).toBeVisible();

    await b.getByLabel('Name').fill(`${site.name} B`);
    await b.getByRole('button', { name: 'Submit' }).click();
    await expect(
      b.getByText('Someone else saved this record after you opened it. Reload the page to see their changes, then make yours again.'),
    ).toBeVisible();
    await expect(b).toHaveURL(new RegExp(`/locations/${site.id}$`));
    await expect(b.getByLabel('Name')).toHaveValue(`${site.name} B`);
    expect((await apiGet<{ name: string }>(request, admin, `/api/agent/locations/${site.id}`)).name).toBe(`${site.name} A`);
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
});
