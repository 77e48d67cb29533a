import { expect, test } from '@playwright/test';
import { apiGet, apiToken, demoDevice, signIn } from './helpers';

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
  // Named as the screen names them, a switch as Yes or No (not `metallic 1`).
  const metallicChange = dialog.getByRole('listitem').filter({ has: alex.getByText('Metallic', { exact: true }) });
  await expect(metallicChange).toContainText(metallic ? 'No' : 'Yes');
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

/**
 * Two editors of a scan: each sees the other within 2 s. A change made elsewhere arrives live and the next edit is made
 * from it (no conflict); an edit already open when the other saved gets the conflict dialog, and Re-apply saves it
 * on top of the other's change.
 */
test('two editors of a scan: presence, a live change moves the next edit on, an edit open during the other save gets the conflict dialog and Re-apply keeps both', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await apiToken(request, 'agent@demo.test');
  // A scan of its own, sent by the agent's device: no other test edits it meanwhile.
  const { key, device, headers } = await demoDevice(request);
  const created = await request.post('/api/scan/ingest/scans', {
    headers: headers(key),
    data: {
      scan_id: `e2e-conflict-${Date.now()}`,
      device_id: device.id,
      type: 'arch',
      timestamp: new Date().toISOString(),
      licensePlate: `CF${String(Date.now()).slice(-5)}`,
      make: 'Toyota',
      model: 'Corolla',
      carColor: 'Red',
    },
  });
  expect(created.status()).toBe(201);
  const scan = ((await created.json()) as { data: { id: number } }).data;

  const [adaContext, alexContext] = await Promise.all([browser.newContext(), browser.newContext()]);
  const ada = await adaContext.newPage();
  const alex = await alexContext.newPage();
  await signIn(ada, 'admin@demo.test');
  await signIn(alex, 'agent@demo.test');
  await ada.goto(`/scans/${scan.id}`);
  await alex.goto(`/scans/${scan.id}`);
  const adaCard = ada.getByRole('region', { name: 'Car Details' });
  const alexCard = alex.getByRole('region', { name: 'Car Details' });
  await expect(adaCard).toBeVisible();
  await expect(alexCard).toBeVisible();
  await expect(ada.getByRole('status').filter({ hasText: 'Alex Agent is also editing this scan' })).toBeVisible({ timeout: 2_000 });
  await expect(alex.getByRole('status').filter({ hasText: 'Ada Admin is also editing this scan' })).toBeVisible({ timeout: 2_000 });

  const saveField = async (page: typeof ada, label: string, value: string) => {
    const card = page.getByRole('region', { name: 'Car Details' });
    await card.getByRole('button', { name: `Edit ${label}` }).click();
    await card.getByRole('textbox', { name: label }).fill(value);
    await card.getByRole('button', { name: `Save ${label}` }).click();
  };
  const stored = async () => apiGet<{ make: string; model: string; carColor: string }>(request, token, `/api/scan/scans/${scan.id}`);

  // Alex's change reaches Ada live; her next edit is made from it and goes through.
  await saveField(alex, 'Model', 'Alex Model');
  await expect(alex.getByText('Scan Updated')).toBeVisible();
  await expect(adaCard.getByText('Alex Model', { exact: true })).toBeVisible();
  await saveField(ada, 'Make', 'Ada Make');
  await expect(ada.getByText('Scan Updated')).toBeVisible();
  await expect(ada.getByRole('dialog')).toBeHidden();
  await expect(alexCard.getByText('Ada Make', { exact: true })).toBeVisible();

  // Ada opens Car Color; Alex saves the make meanwhile; Ada's save was made from before it: refused, with what changed.
  await adaCard.getByRole('button', { name: 'Edit Car Color' }).click();
  await adaCard.getByRole('textbox', { name: 'Car Color' }).fill('Ada Colour');
  await saveField(alex, 'Make', 'Alex Make');
  await expect(adaCard.getByText('Alex Make', { exact: true })).toBeVisible();
  await adaCard.getByRole('button', { name: 'Save Car Color' }).click();
  const dialog = ada.getByRole('dialog', { name: /^This scan was changed by Alex Agent at / });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Make', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Alex Make', { exact: true })).toBeVisible();
  expect((await stored()).carColor).not.toBe('Ada Colour');

  // Re-apply: Ada's colour saved on top of Alex's make.
  await dialog.getByRole('button', { name: 'Re-apply my changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(adaCard.getByText('Ada Colour', { exact: true })).toBeVisible();
  // The field shows the value while the save is on its way: the stored scan is read until the save has landed.
  await expect.poll(async () => (await stored()).carColor).toBe('Ada Colour');
  expect(await stored()).toMatchObject({ make: 'Alex Make', model: 'Alex Model', carColor: 'Ada Colour' });
  await Promise.all([adaContext.close(), alexContext.close()]);
});
