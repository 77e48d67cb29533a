import { type APIRequestContext, type Browser, expect, test } from '@playwright/test';
import { apiGet, apiToken, demoDevice, openSignedIn, ingestScan } from './helpers';

/** A scan of its own, sent by the agent's demo device (no other test edits it meanwhile), with the device's key. */
async function deviceScan(request: APIRequestContext, vehicle: Record<string, string> = {}) {
  const { key, device, headers } = await demoDevice(request);
  const scan = await ingestScan(request, key, {
    scan_id: `e2e-conflict-${Date.now()}`,
    device_id: device.id,
    type: 'arch',
    timestamp: new Date().toISOString(),
    ...vehicle,
  });
  return { scan, key, headers };
}

/** Ada (Super Admin) and Alex (Agent user), each signed in in a browser of their own, on the same page. */
async function twoEditors(browser: Browser, path: string) {
  const [adaContext, alexContext] = await Promise.all([browser.newContext(), browser.newContext()]);
  const ada = await adaContext.newPage();
  const alex = await alexContext.newPage();
  await openSignedIn(ada, 'admin@demo.test', path);
  await openSignedIn(alex, 'agent@demo.test', path);
  return { ada, alex, adaContext, alexContext };
}

/** Two editors of one quote: each sees the other (the time it takes is `npm run bench`'s, section live); the later save is refused with the conflict dialog, and Reload shows the other's save. */
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

  const { ada, alex, adaContext, alexContext } = await twoEditors(browser, `/quotes/${scan!.id}`);
  await expect(ada.getByTestId('quote-summary')).toBeVisible();
  await expect(alex.getByTestId('quote-summary')).toBeVisible();

  await expect(ada.getByRole('status').filter({ hasText: 'Alex Agent is also editing this quote' })).toBeVisible();
  await expect(alex.getByRole('status').filter({ hasText: 'Ada Admin is also editing this quote' })).toBeVisible();

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
 * Two editors of a scan: each sees the other. A change made elsewhere arrives live and the next edit is made
 * from it (no conflict); an edit already open when the other saved gets the conflict dialog, and Re-apply saves it
 * on top of the other's change.
 */
test('two editors of a scan: presence, a live change moves the next edit on, an edit open during the other save gets the conflict dialog and Re-apply keeps both', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await apiToken(request, 'agent@demo.test');
  const { scan } = await deviceScan(request, {
    licensePlate: `CF${String(Date.now()).slice(-5)}`,
    make: 'Toyota',
    model: 'Corolla',
    carColor: 'Red',
  });
  const { ada, alex, adaContext, alexContext } = await twoEditors(browser, `/scans/${scan.id}`);
  const adaCard = ada.getByRole('region', { name: 'Car Details' });
  const alexCard = alex.getByRole('region', { name: 'Car Details' });
  await expect(adaCard).toBeVisible();
  await expect(alexCard).toBeVisible();
  await expect(ada.getByRole('status').filter({ hasText: 'Alex Agent is also editing this scan' })).toBeVisible();
  await expect(alex.getByRole('status').filter({ hasText: 'Ada Admin is also editing this scan' })).toBeVisible();

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

/**
 * Two editors of one panel's damage counts: a modal opened after the other's save shows it (never older counts to be
 * saved at the newer version); a modal opened before it is refused, names the count changed meanwhile, and Re-apply
 * saves only this editor's own change on top of it.
 */
test("two editors of a panel's damage counts: the later modal shows the earlier save; a stale one is refused and re-applies only its own change", async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await apiToken(request, 'agent@demo.test');
  const { scan, key, headers } = await deviceScan(request);
  const results = await request.put(`/api/scan/ingest/scans/${scan.id}/results`, {
    headers: headers(key),
    data: {
      damages: [
        { id: 'c-1', carPanel: 'bonnet', type: 'dents', level: 'medium', width_mm: 24, height_mm: 18 },
        { id: 'c-2', carPanel: 'bonnet', type: 'dents', level: 'light', width_mm: 8, height_mm: 7 },
      ],
    },
  });
  expect(results.status(), await results.text()).toBe(200);
  const stored = async () =>
    (await apiGet<{ measures: { dents: Record<string, Record<string, number>> } }>(request, token, `/api/scan/scans/${scan.id}`)).measures
      .dents.bonnet;

  const { ada, alex, adaContext, alexContext } = await twoEditors(browser, `/scans/${scan.id}`);
  const chip = (page: typeof ada, dents: number) => page.getByRole('button', { name: `Bonnet: ${dents} dents` });
  const modal = (page: typeof ada) => page.getByRole('dialog', { name: /Bonnet/ });
  const setCount = async (page: typeof ada, level: string, value: number) =>
    modal(page)
      .getByRole('spinbutton', { name: `Dents ${level}` })
      .fill(String(value));
  await expect(chip(ada, 2)).toBeVisible();
  await expect(chip(alex, 2)).toBeVisible();

  // Ada saves a heavy dent; Alex's page shows it live, and his modal opened now starts from it.
  await chip(ada, 2).click();
  await setCount(ada, 'Heavy', 1);
  await modal(ada).getByRole('button', { name: 'Save counts' }).click();
  await expect(ada.getByText('Damage Count Updated')).toBeVisible();
  await expect(chip(alex, 3)).toBeVisible();
  await chip(alex, 3).click();
  await expect(modal(alex).getByRole('spinbutton', { name: 'Dents Heavy' })).toHaveValue('1');
  await setCount(alex, 'Light', 2);
  await modal(alex).getByRole('button', { name: 'Save counts' }).click();
  await expect(alex.getByText('Damage Count Updated')).toBeVisible();
  await expect.poll(stored).toMatchObject({ light: 2, medium: 1, heavy: 1 });

  // Alex opens the modal; Ada saves a severe dent meanwhile; Alex's save was made from before it.
  await expect(chip(alex, 4)).toBeVisible();
  await chip(alex, 4).click();
  await expect(chip(ada, 4)).toBeVisible();
  await chip(ada, 4).click();
  await setCount(ada, 'Severe', 1);
  await modal(ada).getByRole('button', { name: 'Save counts' }).click();
  await expect(ada.getByText('Damage Count Updated')).toBeVisible();
  await setCount(alex, 'Oversize', 1);
  await modal(alex).getByRole('button', { name: 'Save counts' }).click();
  const dialog = alex.getByRole('dialog', { name: /^This scan was changed by Ada Admin at / });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveText(['Bonnet · Dents (Severe)1']);
  await dialog.getByRole('button', { name: 'Re-apply my changes' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(stored).toMatchObject({ light: 2, medium: 1, heavy: 1, severe: 1, oversize: 1 });
  await Promise.all([adaContext.close(), alexContext.close()]);
});
