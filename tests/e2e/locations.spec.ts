import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('create, find, edit and delete a location', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await page.goto('/locations');
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
  await expect(page).toHaveURL(/\/locations$/);

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
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Updated Successfully')).toBeVisible();

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
  await signIn(page, 'admin@demo.test');
  await page.goto('/locations/999999');
  await expect(page.getByText('Location Not Found')).toBeVisible();
  await expect(page).toHaveURL(/\/locations$/);
});
