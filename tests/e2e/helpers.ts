import { expect, type Locator, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'demo-password-1';

/** Signs in through the real login form and accepts the terms dialog if it shows. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/$/);
  await acceptTermsIfShown(page);
}

export async function acceptTermsIfShown(page: Page) {
  const dialog = page.getByRole('dialog').filter({ hasText: 'I agree to the Terms and Conditions' });
  try {
    await dialog.waitFor({ timeout: 3000 });
  } catch {
    return;
  }
  await dialog.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'My Account' }).click();
  await page
    .getByRole('button', { name: 'Logout' })
    .or(page.getByRole('menuitem', { name: 'Logout' }))
    .first()
    .click();
  await expect(page).toHaveURL(/\/login$/);
}

export const nav = (page: Page) => page.getByRole('navigation');

/**
 * Clicks until `done` holds. On a busy machine a click can land while a list re-renders (a debounced search, a
 * refetch) and be lost with the element it hit; the user clicks again, and so does the test.
 */
export async function clickUntil(target: Locator, done: () => Promise<void>) {
  await expect(async () => {
    await target.click({ timeout: 5_000 });
    await done();
  }).toPass({ timeout: 30_000 });
}
