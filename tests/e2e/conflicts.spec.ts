import { expect, test } from '@playwright/test';
import { apiGet, apiToken, signIn } from './helpers';

/** Two editors of one quote: each sees the other within 2 s; the later save is refused with the conflict dialog, and Reload shows the other's save. */
test('two editors of a quote: presence, then the second save gets the conflict dialog and Reload shows the first save', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await apiToken(request, 'agent@demo.test');
  const items = await apiGet<{ id: number; dentCount: number; client_id: number | null }[]>(
    request,
    token,
    '/api/scan/scans?page=1&per_page=50&type=arch',
  );
  const scan = items.find((s) => s.dentCount > 0 && s.client_id !== null);
  expect(scan, "a demo arch scan of the agent's with dents").toBeTruthy();

  const [adaContext, alexContext] = await Promise.all([browser.newContext(), browser.newContext()]);
  const ada = await adaContext.newPage();
  const alex = await alexContext.newPage();
  await signIn(ada, 'admin@demo.test');
  await signIn(alex, 'agent@demo.test');
  await ada.goto(`/quotes/${scan!.id}`);
  await alex.goto(`/quotes/${scan!.id}`);
  await expect(ada.getByTestId('quote-summary')).toBeVisible();
  await expect(alex.getByTestId('quote-summary')).toBeVisible();

  await expect(ada.getByRole('status').filter({ hasText: 'Alex Agent is also editing this quote' })).toBeVisible({ timeout: 2_000 });
  await expect(alex.getByRole('status').filter({ hasText: 'Ada Admin is also editing this quote' })).toBeVisible({ timeout: 2_000 });

  // Ada saves first; her page goes to the invoice, so Alex no longer sees her.
  const metallic = await ada.getByRole('switch', { name: 'Metallic' }).isChecked();
  await ada.getByRole('switch', { name: 'Metallic' }).setChecked(!metallic);
  await ada.getByRole('button', { name: 'Save and Generate Quote' }).click();
  await expect(ada).toHaveURL(/\/quotes\/\d+\/invoice$/);
  await expect(alex.getByRole('status').filter({ hasText: 'is also editing this quote' })).toBeHidden({ timeout: 6_000 });

  // Alex's save was made from the version before Ada's: refused, with what changed.
  const pearl = await alex.getByRole('switch', { name: 'Pearl' }).isChecked();
  await alex.getByRole('switch', { name: 'Pearl' }).setChecked(!pearl);
  await alex.getByRole('button', { name: 'Save and Generate Quote' }).click();
  const dialog = alex.getByRole('dialog', { name: /^This quote was changed by Ada Admin at / });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('metallic', { exact: true })).toBeVisible();
  await expect(alex).toHaveURL(new RegExp(`/quotes/${scan!.id}$`));

  // Reload: Ada's figures, Alex's edit dropped.
  await dialog.getByRole('button', { name: 'Reload' }).click();
  await expect(dialog).toBeHidden();
  await expect(alex.getByRole('switch', { name: 'Metallic' })).toBeChecked({ checked: !metallic });
  await expect(alex.getByRole('switch', { name: 'Pearl' })).toBeChecked({ checked: pearl });

  // Saved again from the current version, it goes through.
  await alex.getByRole('button', { name: 'Save and Generate Quote' }).click();
  await expect(alex).toHaveURL(/\/quotes\/\d+\/invoice$/);
  await Promise.all([adaContext.close(), alexContext.close()]);
});
