import { expect, test } from '@playwright/test';
import { apiToken, bearer, DEMO_PASSWORD, openSignedIn, signIn, signOut } from './helpers';

test('Update Profile: a new password needs the current one, then signs in with the new one', async ({ page, request }) => {
  // A user of its own: a password change signs out the user's other sessions, which other tests hold for the demo users.
  const token = await apiToken(request, 'admin@demo.test');
  const email = `profile.${Date.now()}@demo.test`;
  const created = await request.post('/api/user/users', {
    headers: bearer(token),
    data: { first_name: 'Pat', last_name: 'Profile', email, roles: ['Super Admin'], password: DEMO_PASSWORD },
  });
  expect(created.status()).toBe(201);

  await openSignedIn(page, email, '/update-profile');
  await expect(page.getByRole('heading', { name: 'Update Profile' })).toBeVisible();
  const password = page.getByLabel('Password', { exact: true });
  const current = page.getByLabel('Current Password');

  await password.fill('a-brand-new-pass');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Current Password is required')).toBeVisible();
  // The message under the field says it all: no toast besides it.
  await expect(page.getByText('The form is not valid. Please check for errors')).toHaveCount(0);

  await current.fill('not-my-password');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('The current password is incorrect.').first()).toBeVisible();

  await current.fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Profile Updated Successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await signOut(page);
  await signIn(page, email, 'a-brand-new-pass');
});

test("a Super Admin sets another user's password from the user form; the user signs in with it", async ({ page, request }) => {
  const token = await apiToken(request, 'admin@demo.test');
  const email = `repass.${Date.now()}@demo.test`;
  const created = await request.post('/api/user/users', {
    headers: bearer(token),
    data: { first_name: 'Rae', last_name: 'Repass', email, roles: ['Super Admin'], password: DEMO_PASSWORD },
  });
  const { id } = ((await created.json()) as { data: { id: number } }).data;

  await openSignedIn(page, 'admin@demo.test', `/users/${id}`);
  await expect(page.getByLabel('First Name')).toHaveValue('Rae');
  await expect(page.getByText("Leave blank to keep the user's password (at least 8 characters); a new one signs them out")).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('set-by-the-admin');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Updated Successfully')).toBeVisible();
  // The admin's own record offers no password: theirs is changed on the profile.
  const me = (
    (await (await request.get('/api/user/auth/user', { headers: bearer(token) })).json()) as {
      data: { id: number };
    }
  ).data;
  await page.goto(`/users/${me.id}`);
  await expect(page.getByLabel('First Name')).toHaveValue(/\S/);
  await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);

  await signOut(page);
  await signIn(page, email, 'set-by-the-admin');
});
