import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, bearer, openSignedIn } from './helpers';

/** The demo agents' pincode (server/seed/agents-demo.ts). */
const PIN = '246810';

const adminToken = (request: APIRequestContext) => apiToken(request, 'admin@demo.test');

const enrolDialog = (page: Page) => page.getByRole('dialog', { name: 'Enrol this device' });

test.describe('customer portal kiosk', () => {
  test('asks once for the pincode, then shows the scans and follows the live channel with the kiosk token', async ({ page, request }) => {
    await page.goto('/customer-portal/1');
    const dialog = enrolDialog(page);
    await expect(dialog).toBeVisible();
    // Nothing of the portal shows before enrolment.
    await expect(page.getByText('NEW SCANS')).toHaveCount(0);
    const pincode = dialog.getByLabel('Pincode');
    await expect(pincode).toBeFocused();

    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByText('Pincode is required')).toBeVisible();
    await pincode.fill('000000');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByText('Enter Valid Pincode!.')).toBeVisible();
    await expect(pincode).toHaveValue('');

    const enrolCall = page.waitForResponse((r) => r.url().endsWith('/api/agent/agents/1/portal/enrol'));
    await pincode.fill(PIN);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    expect((await enrolCall).status()).toBe(200);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Melbourne Auto Scan' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'NEW SCANS' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'COMPLETED SCANS' })).toBeVisible();
    const stored = await page.evaluate(() => localStorage.getItem('kioskToken.1'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({ token: expect.stringMatching(/^1\.\d+\.\d+\.[\w-]{43}$/) });

    // The live channel: a scan saved for this agent shows on top of NEW SCANS without a reload.
    const token = await adminToken(request);
    const auth = bearer(token);
    const created = await request.post('/api/scan/scans', { headers: auth, data: { agent_id: 1 } });
    expect(created.status()).toBe(201);
    const scanId = ((await created.json()) as { data: { id: number } }).data.id;
    const updated = await request.put(`/api/scan/scans/${scanId}`, { headers: auth, data: { licensePlate: 'KIOSK1' } });
    expect(updated.ok()).toBe(true);
    const newScans = page.getByRole('region', { name: 'NEW SCANS' });
    await expect(newScans.getByText('Registration: KIOSK1')).toBeVisible();

    // A reload keeps the enrolment: no dialog.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'NEW SCANS' })).toBeVisible();
    await expect(enrolDialog(page)).toHaveCount(0);
    await expect(newScans.getByText('Registration: KIOSK1')).toBeVisible();

    // A token the server no longer accepts (e.g. after a new pincode) brings the dialog back.
    await page.evaluate(() => {
      const kiosk = JSON.parse(localStorage.getItem('kioskToken.1') ?? '{}') as { token: string; expires_at: string };
      // The signature's first character: base64url's last one carries padding bits (A and B there can decode alike).
      const parts = kiosk.token.split('.');
      parts[3] = (parts[3].startsWith('A') ? 'B' : 'A') + parts[3].slice(1);
      localStorage.setItem('kioskToken.1', JSON.stringify({ ...kiosk, token: parts.join('.') }));
    });
    await page.reload();
    await expect(enrolDialog(page)).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('kioskToken.1'))).toBeNull();
    await enrolDialog(page).getByLabel('Pincode').fill(PIN);
    await enrolDialog(page).getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('heading', { name: 'NEW SCANS' })).toBeVisible();

    // Go to Admin still asks for the pincode, and /scans still needs a sign-in.
    await page.getByRole('button', { name: 'Go to Admin' }).click();
    const code = page.getByRole('dialog', { name: 'Code Validation' });
    await code.getByLabel('Pincode').fill('111111');
    await code.getByRole('button', { name: 'Submit' }).click();
    await expect(code.getByText('Enter Valid Pincode!.')).toBeVisible();
    await code.getByLabel('Pincode').fill(PIN);
    await code.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("an agent switched to Open on its form needs no enrolment; another browser's portal of an enrolled agent still asks", async ({
    page,
    browser,
  }) => {
    await openSignedIn(page, 'admin@demo.test', '/agents/2');
    const access = page.getByRole('combobox', { name: 'Customer Portal Access' });
    await expect(access).toContainText('Enrolled (PIN once per device)');
    await access.click();
    await page.getByRole('option', { name: 'Open' }).click();
    const save = page.waitForResponse((r) => r.url().includes('/api/agent/agents/2') && r.request().method() !== 'GET');
    await page.locator('form').first().getByRole('button', { name: 'Submit' }).click();
    expect((await save).status()).toBe(200);

    const kiosk = await browser.newContext();
    const portal = await kiosk.newPage();
    await portal.goto('/customer-portal/2');
    await expect(portal.getByRole('heading', { name: 'NEW SCANS' })).toBeVisible();
    await expect(enrolDialog(portal)).toHaveCount(0);
    await portal.goto('/customer-portal/3');
    await expect(enrolDialog(portal)).toBeVisible();
    await kiosk.close();
  });
});
