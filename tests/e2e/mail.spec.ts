import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiGet, apiToken, bearer, nav, openSignedIn, signIn } from './helpers';

/** The scan page's mail: the demo template, the server's preview of the exact mail, and the refusal of a placeholder left. */

interface Scan {
  id: number;
  licensePlate: string | null;
  location_name: string | null;
  dentCount: number;
  damages: { id: number; src: string | null }[];
  report_pdfs: { label: string; path: string }[];
}

/** An uploaded demo body scan with what the demo "Scan report" template fills, a close-up and a report. */
async function mailableScan(request: APIRequestContext): Promise<Scan> {
  const admin = await apiToken(request, 'admin@demo.test');
  for (let page = 1; page <= 10; page++) {
    const items = await apiGet<{ id: number }[]>(request, admin, `/api/scan/scans?type=arch&status=uploaded&per_page=25&page=${page}`);
    for (const item of items) {
      const scan = await apiGet<Scan>(request, admin, `/api/scan/scans/${item.id}`);
      const report = scan.report_pdfs.some((r) => r.label === 'View Scan Report');
      if (scan.licensePlate && scan.location_name && report && scan.damages.some((d) => d.src)) return scan;
    }
  }
  throw new Error('no demo scan fits');
}

/** The scan page's mail section, scrolled to as a user would: its form mounts as it nears the screen. */
async function communication(page: Page) {
  const section = page.getByRole('region', { name: 'Communication' });
  await section.scrollIntoViewIfNeeded();
  return section;
}

test('the demo Scan report: the preview shows the mail as sent, filled, greeting once, with its files named; Send sends it', async ({
  page,
  request,
}) => {
  const scan = await mailableScan(request);
  // The demo's default header and footer (another spec on this server saves its own): the header greets.
  const saved = await request.post('/api/user/options/bulksave', {
    headers: bearer(await apiToken(request, 'admin@demo.test')),
    data: [
      { option_name: 'EMAIL_DEFAULT_HEADER', option_value: '<p>Hello,</p>' },
      { option_name: 'EMAIL_DEFAULT_FOOTER', option_value: '<p>Kind regards,<br>The ScanQuote team</p>' },
    ],
  });
  expect(saved.ok()).toBe(true);
  await openSignedIn(page, 'admin@demo.test', `/scans/${scan.id}`);
  await expect(page.getByRole('heading', { name: 'Car Details' })).toBeVisible();

  const detections = page.getByRole('region', { name: 'Detection Images' });
  await detections.getByRole('button', { name: 'Select' }).click();
  await detections.getByRole('checkbox').first().check();
  await page.getByRole('checkbox', { name: 'Attach View Scan Report' }).check();

  const mail = await communication(page);
  // The chips name the files as the mail will: 'Bonnet – heavy dent.jpg', 'Scan Report – ABC123.pdf'.
  const chips = mail.getByTestId('mail-attachments');
  await expect(chips.getByText(/^.+ – (light|medium|heavy|severe|oversize) (dent|scratch)\.(jpg|png|webp)$/)).toBeVisible();
  await expect(chips.getByText(`Scan Report – ${scan.licensePlate}.pdf`)).toBeVisible();

  await mail.getByRole('combobox', { name: 'Email Template' }).click();
  // The approval request's templates name a quote's link and total, which a scan's mail cannot fill: not offered.
  const admin = await apiToken(request, 'admin@demo.test');
  const templates = await apiGet<{ templateName: string }[]>(request, admin, '/api/email/emailTemplates?page=1&per_page=100');
  expect(templates.map((t) => t.templateName)).toContain('Quote approval request');
  await expect(page.getByRole('option', { name: 'Scan report' })).toBeVisible();
  await expect(page.getByRole('option', { name: /^Quote approval request/ })).toHaveCount(0);
  await page.getByRole('option', { name: 'Scan report' }).click();
  await mail.getByRole('textbox', { name: 'Recipients' }).fill('owner@example.test');
  await mail.getByRole('button', { name: 'Preview' }).click();

  const dialog = page.getByRole('dialog', { name: 'Mail Preview' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('mail-preview-subject')).toHaveText('Scan report');
  const body = dialog.frameLocator('iframe[title="Mail body"]').locator('body');
  await expect(body).toContainText(`Here is what the scanner found on ${scan.licensePlate}:`);
  await expect(body).toContainText(`at ${scan.location_name} on `);
  await expect(body).toContainText(`Dents found: ${scan.dentCount}`);
  const text = (await body.textContent()) ?? '';
  expect(text).not.toContain('{{');
  // The default header greets; the template does not greet again.
  expect(text.match(/Hello/g) ?? []).toHaveLength(1);
  const files = dialog.getByTestId('mail-preview-attachments').getByRole('listitem');
  await expect(files).toHaveCount(2);
  await expect(files.nth(0)).toHaveText(/^.+ – (light|medium|heavy|severe|oversize) (dent|scratch)\.\w+$/);
  await expect(files.nth(1)).toHaveText(`Scan Report – ${scan.licensePlate}.pdf`);

  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Mail Send')).toBeVisible();
  await expect(dialog).toBeHidden();
  // Sent: the form is empty again, and leaving does not ask.
  await expect(mail.getByRole('textbox', { name: 'Recipients' })).toHaveValue('');
  await nav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('dialog', { name: 'Unsaved changes' })).toHaveCount(0);
});

test('a placeholder the scan cannot fill is named in the preview, and Send stays disabled', async ({ page, request }) => {
  const scan = await mailableScan(request);
  await openSignedIn(page, 'admin@demo.test', `/scans/${scan.id}`);
  const mail = await communication(page);
  await mail.getByRole('textbox', { name: 'Recipients' }).fill('owner@example.test');
  await mail.getByRole('textbox', { name: 'Subject' }).fill('Scan of {{registration}}');
  await mail.getByRole('textbox', { name: 'Message' }).fill('Hi {{nickname}}, your {{registration}}');
  await mail.getByRole('button', { name: 'Preview' }).click();

  const dialog = page.getByRole('dialog', { name: 'Mail Preview' });
  await expect(dialog.getByRole('alert')).toHaveText(
    'These placeholders cannot be filled from this scan: {{nickname}}. Change the subject or message before sending.',
  );
  await expect(dialog.getByTestId('mail-preview-subject')).toHaveText(`Scan of ${scan.licensePlate}`);
  await expect(dialog.getByRole('button', { name: 'Send' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Back' }).click();
  await expect(dialog).toBeHidden();

  // Previewed is not sent: leaving asks, and Stay keeps the mail as written.
  await nav(page).getByRole('link', { name: 'Dashboard' }).click();
  const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
  await expect(ask).toContainText('You have unsaved changes. Leave this page?');
  await ask.getByRole('button', { name: 'Stay' }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/scans/${scan.id}$`));
  await expect(mail.getByRole('textbox', { name: 'Subject' })).toHaveValue('Scan of {{registration}}');
});

test('the template editor lists the merge fields; a click inserts one into the body', async ({ page }) => {
  await openSignedIn(page, 'admin@demo.test', '/email-templates/create');
  const editor = page.getByRole('textbox', { name: 'Template Body' });
  await expect(page.getByRole('heading', { name: 'Merge Fields' })).toBeVisible();
  await expect(page.getByText('Number of dents found')).toBeVisible();
  await editor.click();
  await editor.pressSequentially('Dents: ');
  await page.getByRole('button', { name: 'Insert {{dent_count}}' }).click();
  await expect(editor).toHaveText('Dents: {{dent_count}}');
  // The approval request's own fields are offered too, each saying which mail fills it.
  const link = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Insert {{approval_link}}' }) });
  await expect(link).toContainText('Link to the approval page (no sign-in)');
  await expect(link).toContainText('Approval request mail');
  await expect(page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Insert {{dent_count}}' }) })).toContainText(
    /Scan mail$/,
  );
  await page.getByRole('button', { name: 'Insert {{approval_link}}' }).click();
  await expect(editor).toHaveText('Dents: {{dent_count}}{{approval_link}}');
});

test('the merge fields sit beside the template editor on a desktop and under it on a phone', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  const placed = async () => {
    await page.goto('/email-templates/create');
    const editor = page.getByRole('textbox', { name: 'Template Body' });
    const fields = page.getByRole('region', { name: 'Merge Fields' });
    await expect(fields).toBeVisible();
    const [e, f] = [await editor.boundingBox(), await fields.boundingBox()];
    return { editor: e!, fields: f! };
  };
  await page.setViewportSize({ width: 1366, height: 768 });
  const wide = await placed();
  expect(wide.fields.x).toBeGreaterThanOrEqual(wide.editor.x + wide.editor.width);
  expect(wide.fields.y).toBeLessThan(wide.editor.y + wide.editor.height);
  await page.setViewportSize({ width: 360, height: 740 });
  const narrow = await placed();
  expect(narrow.fields.y).toBeGreaterThanOrEqual(narrow.editor.y + narrow.editor.height);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
