import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, signIn } from './helpers';

/**
 * Rule messages travel as message keys (src/domain/messages.ts). On a Japanese
 * screen a client-side rule and a server 422 (a rule only the server can check) both show in Japanese,
 * under their input, with the screen's own field label.
 */
test('a client-side rule and a server 422 both show in Japanese', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await page.evaluate(() => localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify('ja')));
  await page.goto('/roles/create');
  await expect(page.getByRole('heading', { name: 'ロールを作成' })).toBeVisible();

  // Client side: the domain's required rule, translated by its key.
  await page.getByRole('button', { name: '送信' }).click();
  await expect(page.getByText('名前は必須です', { exact: true })).toBeVisible();

  // Server side: the name is unique (compared lower-cased), which only the server knows.
  await page.getByRole('textbox', { name: /^名前/ }).fill('agent');
  const permissions = page.getByRole('combobox', { name: /^権限/ });
  await permissions.focus();
  await permissions.press('ArrowDown');
  await page.getByRole('option', { name: 'scan', exact: true }).click();
  await page.keyboard.press('Escape');
  const reply = page.waitForResponse((r) => r.url().endsWith('/api/user/roles') && r.request().method() === 'POST');
  await page.getByRole('button', { name: '送信' }).click();
  const body = (await (await reply).json()) as unknown;
  // The wire keeps the English text; the key rides beside it.
  expect(body).toEqual({
    error: { name: 'Name has already been taken.' },
    messages: { name: { key: 'app.validation.taken' } },
  });
  // Under the input, in Japanese with the screen's label (a resource form shows no toast for a 422).
  await expect(page.getByText('この名前は既に使用されています', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/roles\/create$/);
});

test("a custom page's server 422 shows in Japanese under the input and in the error toast", async ({ page }) => {
  // Refused with a 422, so nothing of the admin's profile changes.
  await signIn(page, 'admin@demo.test');
  await page.evaluate(() => localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify('ja')));
  await page.goto('/update-profile');
  const email = page.getByRole('textbox', { name: /^メール/ });
  await email.fill('client@demo.test');
  // A new e-mail is sent with the current password.
  await page.getByLabel('現在のパスワード', { exact: true }).fill(DEMO_PASSWORD);
  const reply = page.waitForResponse((r) => r.url().endsWith('/api/user/auth/profile') && r.request().method() === 'PUT');
  await page.getByRole('button', { name: '送信' }).click();
  expect((await reply).status()).toBe(422);
  const japanese = /メールアドレス.*既に使用されています|既に使用されています/;
  await expect(page.locator('.MuiFormHelperText-root').filter({ hasText: japanese })).toBeVisible();
  await expect(page.locator('.MuiSnackbarContent-message')).toHaveText(japanese);
  await expect(page.locator('.MuiSnackbarContent-message')).not.toContainText('taken');
});

test("a used or unknown reset link says so in Japanese, as the server's key has it", async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify('ja')));
  // A token of the right form that no reset issued: the server's 422 names `token`, a field the page has no input for.
  await page.goto(`/reset-password?token=${'a'.repeat(43)}`);
  await page.getByLabel('新しいパスワード', { exact: true }).fill('a-new-password-1');
  await page.getByLabel('パスワード（確認）', { exact: true }).fill('a-new-password-1');
  const reply = page.waitForResponse((r) => r.url().includes('/api/user/auth/') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'パスワードを変更' }).click();
  expect((await reply).status()).toBe(422);
  await expect(page.locator('.MuiSnackbarContent-message')).toHaveText('このパスワードリセットトークンは無効か期限切れです');
  await expect(page).toHaveURL(/\/reset-password\?token=/);
});
