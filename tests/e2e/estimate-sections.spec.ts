import { expect, test, type Page } from '@playwright/test';
import { previewGstPercent, toEvaluation, type Evaluation } from '../../src/custom/quote-generation/evaluation';
import { initialForm, onePerCarPanel, panelDamage, pricingOf, visiblePanels } from '../../src/custom/quote-generation/quoteForm';
import { INVOICE_LABELS, wheelName } from '../../src/domain/invoice-labels';
import { formatMoney, toCents } from '../../src/domain/money';
import type { EvaluationReply } from '../../src/domain/records';
import { apiGet, apiToken, bearer, linkMailedTo, openSignedIn, pdfLines } from './helpers';

/**
 * The estimate an insurer reads: scratch work in its own Scratch / Paint section (never under Replace, never beside a
 * repainting repair) and the agent's tyre choices in a Tyres section, alike on the quote summary, the invoice, the PDF
 * and the quotes list.
 */

interface StoredQuote {
  id: number;
  pdf: string | null;
  grant_total: number;
  paint: number;
  replacement: number;
  currency: string;
  totals: Record<string, number>;
}

const summaryRow = (page: Page, label: RegExp) => page.getByTestId('quote-summary').locator('div').filter({ hasText: label }).first();
const amountOf = async (page: Page, label: RegExp) =>
  toCents(Number(((await summaryRow(page, label).textContent()) ?? '').replace(/[^\d.]/g, '')));

test('a scratch on a pdr panel is priced in Scratch / Paint on the summary, invoice, PDF and list; Replace removes it, pdr brings it back', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const admin = await apiToken(request, 'admin@demo.test');
  // A demo body scan with a panel that has dents and priced scratches, first quoted at pdr with a spot scratch line.
  const scans = await apiGet<{ id: number; client_id: number | null; dentCount: number; licensePlate: string }[]>(
    request,
    admin,
    '/api/scan/scans?type=arch&per_page=100',
  );
  let found: { scanId: number; plate: string; evaluation: Evaluation; panel: { id: number; label: string }; scratchCents: number } | null =
    null;
  for (const scan of scans.filter((s) => s.client_id !== null && s.dentCount > 0)) {
    const evaluation = toEvaluation(await apiGet<EvaluationReply>(request, admin, `/api/scan/scans/${scan.id}/evaluate`));
    if (!evaluation) continue;
    const shown = onePerCarPanel(visiblePanels(evaluation.panels, 'D'));
    const priced = pricingOf(initialForm(shown, evaluation.measures), shown, evaluation.client, previewGstPercent(evaluation, null));
    const panel = shown.find((p) => {
      const damage = panelDamage(evaluation.measures, p.carPanel);
      const scratch = priced.lines.find((l) => l.panel_id === p.id && l.kind === 'scratch');
      return p.thresholdCategory !== null && damage.scratches > 0 && scratch?.status === 'priced' && scratch.line_total > 0;
    });
    if (panel) {
      const line = priced.lines.find((l) => l.panel_id === panel.id && l.kind === 'scratch')!;
      found = { scanId: scan.id, plate: scan.licensePlate, evaluation, panel, scratchCents: line.line_total };
      break;
    }
  }
  expect(found, 'a demo scan with a dented and scratched panel').toBeTruthy();
  const { scanId, panel, scratchCents, evaluation } = found!;
  const currency = evaluation.client.currency;

  await openSignedIn(page, 'admin@demo.test', `/quotes/${scanId}`);
  await expect(page.getByRole('heading', { name: 'Quote Generation' })).toBeVisible();
  const card = page
    .getByRole('region', { name: panel.label, exact: true })
    .filter({ hasNot: page.getByRole('region') })
    .first();
  await expect(card.getByRole('combobox', { name: 'Repair Type' })).toHaveText('PDR');
  await expect(card.getByRole('combobox', { name: 'Scratch Repair' })).toHaveText('Spot');
  const paintBefore = await amountOf(page, /^Scratch \/ Paint/);
  expect(paintBefore).toBeGreaterThanOrEqual(scratchCents);

  const saveQuote = async () => {
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/quote/quotes') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Save and Generate Quote' }).click();
    const reply = await saved;
    expect(reply.ok()).toBe(true);
    const id = ((await reply.json()) as { data: { id: number } }).data.id;
    await expect(page).toHaveURL(new RegExp(`/quotes/${id}/invoice$`));
    return apiGet<StoredQuote>(request, admin, `/api/quote/quotes/${id}`);
  };

  // Saved at pdr: the scratch line is Scratch / Paint work on the invoice and the PDF, nothing of it under Replace.
  const first = await saveQuote();
  const scratchText = formatMoney(scratchCents, currency);
  const paintSection = page.getByRole('region', { name: 'Scratch / Paint', exact: true });
  await expect(paintSection.getByRole('row').filter({ hasText: panel.label }).filter({ hasText: 'Scratch (Spot)' })).toContainText(
    scratchText,
  );
  await expect(page.getByRole('region', { name: 'Replace', exact: true }).getByText(/Scratch/)).toHaveCount(0);
  expect(toCents(first.paint)).toBe(paintBefore);
  // The PDF is in the agent's language.
  const pdf = await pdfLines(request, first.pdf!, admin);
  const words = INVOICE_LABELS[pdf[0].startsWith(INVOICE_LABELS.ja.estimate) ? 'ja' : 'en'];
  const paintAt = pdf.indexOf(words.sections.paint);
  expect(paintAt, pdf.join('\n')).toBeGreaterThan(0);
  const spotLine = `${panel.label} ${words.scratch} (${words.scratch_types.spot})`;
  expect(pdf.slice(paintAt).some((l) => l.startsWith(spotLine) && l.endsWith(scratchText))).toBe(true);
  const replaceAt = pdf.indexOf(words.sections.replacement);
  if (replaceAt >= 0) expect(pdf.slice(replaceAt, pdf.indexOf(words.totals.replacement)).join('\n')).not.toContain(words.scratch);

  // The quotes list shows the Scratch / Paint amount in its own column.
  await page.goto('/quotes');
  const header = page.getByRole('table', { name: 'Quotes' }).getByRole('columnheader');
  await expect(header.filter({ hasText: 'Scratch / Paint' })).toHaveCount(1);
  const headers = await header.allTextContents();
  const row = page
    .getByRole('table', { name: 'Quotes' })
    .locator('tbody tr')
    .filter({ has: page.getByRole('link', { name: 'View Invoice' }) });
  const ours = row.filter({ has: page.locator(`a[href="/quotes/${first.id}/invoice"]`) });
  await expect(ours).toHaveCount(1);
  const cells = await ours.locator('td').allTextContents();
  expect(cells[headers.findIndex((h) => h.startsWith('Scratch / Paint'))]).toBe(formatMoney(paintBefore, currency, 'en'));

  // Replace / Paint repaints the panel: its scratch line goes and Scratch / Paint drops by exactly its amount.
  await page.goto(`/quotes/${scanId}`);
  await card.getByRole('combobox', { name: 'Repair Type' }).click();
  await page.getByRole('option', { name: 'Replace / Paint' }).click();
  await expect(card.getByRole('combobox', { name: 'Scratch Repair' })).toHaveCount(0);
  await expect.poll(() => amountOf(page, /^Scratch \/ Paint/)).toBe(paintBefore - scratchCents);
  const replaced = await saveQuote();
  expect(toCents(replaced.paint)).toBe(paintBefore - scratchCents);
  expect(toCents(replaced.totals.sub_total)).toBe(
    Object.entries(replaced.totals)
      .filter(([k]) => ['pdr', 'conventional', 'p2p', 'replacement', 'paint', 'tyre', 'product'].includes(k))
      .reduce((a, [, v]) => a + toCents(v), 0),
  );
  await expect(page.getByRole('row').filter({ hasText: panel.label }).filter({ hasText: 'Scratch' })).toHaveCount(0);

  // Back to pdr: the scratch line returns at its default.
  await page.goto(`/quotes/${scanId}`);
  await card.getByRole('combobox', { name: 'Repair Type' }).click();
  await page.getByRole('option', { name: 'PDR' }).click();
  await expect(card.getByRole('combobox', { name: 'Scratch Repair' })).toHaveText('Spot');
  await expect.poll(() => amountOf(page, /^Scratch \/ Paint/)).toBe(paintBefore);
  const back = await saveQuote();
  expect(toCents(back.paint)).toBe(paintBefore);
  expect(back.grant_total).toBe(first.grant_total);
});

test("the agent's tyre choices become the quote's Tyres section: a priced Replace and an advisory recheck, on the invoice and the PDF", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const agent = await apiToken(request, 'agent@demo.test');
  const scans = await apiGet<{ id: number; client_id: number | null }[]>(request, agent, '/api/scan/scans?type=tire&per_page=100');
  let target: { id: number; wheels: { row: number; direction: 'L' | 'R'; label: string }[] } | null = null;
  for (const scan of scans.filter((s) => s.client_id !== null)) {
    const detail = await apiGet<{ data: { row: number; direction: 'L' | 'R'; label: string }[] }>(
      request,
      agent,
      `/api/scan/scans/${scan.id}`,
    );
    const wheels = [...new Map(detail.data.map((t) => [`${t.row}${t.direction}`, t])).values()];
    if (wheels.length >= 2) {
      target = { id: scan.id, wheels };
      break;
    }
  }
  expect(target, "a tyre scan of the agent's with two wheels").toBeTruthy();
  const [replaced, rechecked] = target!.wheels;
  // Neither wheel chosen to begin with: a retry starts where the first attempt did, whatever that attempt stored.
  for (const wheel of [replaced, rechecked]) {
    const { version } = await apiGet<{ version: number }>(request, agent, `/api/scan/scans/${target!.id}`);
    const cleared = await request.put(`/api/scan/scans/${target!.id}/tyre-repairs`, {
      headers: bearer(agent),
      data: { row: wheel.row, direction: wheel.direction, repair_type: null, version },
    });
    expect(cleared.ok()).toBe(true);
  }

  await openSignedIn(page, 'agent@demo.test', `/scans/${target!.id}`);
  const choose = async (label: string, choice: string) => {
    const group = page.getByRole('group', { name: `Repair type for ${label}` });
    const chosen = page.waitForResponse((r) => r.url().endsWith('/tyre-repairs') && r.request().method() === 'PUT');
    await group.getByRole('button', { name: choice }).click();
    expect((await chosen).ok()).toBe(true);
    await expect(group.getByRole('button', { name: choice })).toHaveAttribute('aria-pressed', 'true');
  };
  await choose(replaced.label, 'Replace');
  await choose(rechecked.label, 'Recheck Next Visit');
  // The scan's history names each wheel as its card does, and the choice as its button does.
  const history = page.getByRole('list', { name: 'History' });
  await expect(history).toContainText(`Tyre ${wheelName(replaced.label, 'en')}: — → Replace`);
  await expect(history).toContainText(`Tyre ${wheelName(rechecked.label, 'en')}: — → Recheck Next Visit`);

  const quoteArea = page.getByRole('region', { name: 'Quote', exact: true });
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/quote/quotes') && r.request().method() === 'POST');
  await quoteArea.getByRole('button', { name: 'Save and Generate Quote' }).click();
  const reply = await saved;
  expect(reply.ok()).toBe(true);
  const id = ((await reply.json()) as { data: { id: number } }).data.id;
  const stored = await apiGet<StoredQuote & { tyres: { label: string; repair_type: string; status: string; lineTotal: number }[] }>(
    request,
    agent,
    `/api/quote/quotes/${id}`,
  );

  // The stored figures are the engine's, tyres included.
  const evaluation = toEvaluation(await apiGet<EvaluationReply>(request, agent, `/api/scan/scans/${target!.id}/evaluate`))!;
  const shown = onePerCarPanel(visiblePanels(evaluation.panels, 'D'));
  const form = initialForm(shown, evaluation.measures, null);
  const engine = pricingOf(form, shown, evaluation.client, previewGstPercent(evaluation, null), evaluation.tyres);
  expect(toCents(stored.totals.tyre)).toBe(engine.totals.tyre);
  expect(toCents(stored.grant_total)).toBe(engine.totals.grand_total);
  const replaceLine = stored.tyres.find((t) => t.label === replaced.label)!;
  expect(replaceLine).toMatchObject({ repair_type: 'replace', status: 'priced' });
  expect(replaceLine.lineTotal).toBeGreaterThan(0);
  expect(stored.tyres.find((t) => t.label === rechecked.label)).toMatchObject({ repair_type: 'recheck', status: 'advisory', lineTotal: 0 });

  await quoteArea.getByRole('link', { name: 'Open the invoice' }).click();
  const tyres = page.getByRole('region', { name: 'Tyres', exact: true });
  // A wheel's line: no surcharge columns, the first column named for wheels.
  await expect(tyres.getByRole('columnheader')).toHaveText(['Wheel', 'Description', 'Repair', 'Amount']);
  const replaceText = formatMoney(toCents(replaceLine.lineTotal), stored.currency);
  await expect(tyres.getByRole('row').filter({ hasText: replaced.label })).toContainText(replaceText);
  await expect(tyres.getByRole('row').filter({ hasText: rechecked.label })).toContainText('Recheck Next Visit');

  // In Japanese the wheels read as the scan page names them there (the invoice has no header: the stored choice).
  const setLocale = (locale: string) => page.evaluate((l) => localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify(l)), locale);
  await setLocale('ja');
  await page.reload();
  const tyresJa = page.getByRole('region', { name: INVOICE_LABELS.ja.sections.tyre, exact: true });
  await expect(tyresJa.getByRole('row').filter({ hasText: INVOICE_LABELS.ja.tyre_choices.replace })).toContainText(
    wheelName(replaced.label, 'ja'),
  );
  expect(wheelName(replaced.label, 'ja')).not.toBe(replaced.label);
  await setLocale('en');

  const pdf = await pdfLines(request, stored.pdf!, agent);
  const language = pdf[0].startsWith(INVOICE_LABELS.ja.estimate) ? 'ja' : 'en';
  const words = INVOICE_LABELS[language];
  expect(pdf, pdf.join('\n')).toContain(words.sections.tyre);
  expect(pdf, pdf.join('\n')).toContainEqual(
    expect.stringMatching(new RegExp(`^${words.wheel}\\s+${words.description}\\s+${words.repair_fee}\\s+${words.amount}$`)),
  );
  expect(
    pdf.some((l) => l.startsWith(`${wheelName(replaced.label, language)} ${words.tyre_choices.replace}`) && l.endsWith(replaceText)),
  ).toBe(true);
  expect(pdf.some((l) => l.startsWith(`${wheelName(rechecked.label, language)} ${words.tyre_choices.recheck}`))).toBe(true);

  // The customer's approval page names the priced wheel in the language the customer picks.
  const recipient = `tyres.${Date.now()}@example.test`;
  const sent = await request.post(`/api/quote/quotes/${id}/approval`, {
    headers: bearer(agent),
    data: { recipient },
  });
  expect(sent.ok()).toBe(true);
  const link = await linkMailedTo(baseURL!, recipient);
  await page.goto(link!);
  await page.getByRole('button', { name: '日本語' }).click();
  await expect(page.getByRole('heading', { name: '承認のための見積' })).toBeVisible();
  await expect(page.getByText(`${wheelName(replaced.label, 'ja')} – ${INVOICE_LABELS.ja.tyre_choices.replace}`)).toBeVisible();
});
