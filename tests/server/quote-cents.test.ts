import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { previewGstPercent, toEvaluation } from '../../src/custom/quote-generation/evaluation';
import * as quoteForm from '../../src/custom/quote-generation/quoteForm';
import { buildInvoice, invoiceSourceOfQuote } from '../../src/domain/invoice';
import { toCents } from '../../src/domain/money';
import { type PricedLine, REPAIR_TYPES, SCRATCH_REPAIR_TYPES } from '../../src/domain/pricing';
import * as rules from '../../src/domain/quote-rules';
import { invoiceQuoteOfRecord } from '../../src/domain/quote-wire';
import { storageOf } from '../../server/lib/storage';
import { createTestContext, type TestContext } from './helper';
import { pdfLines } from './pdf-text';

/**
 * The quote in cents end to end: for generated choices, the Quote Generation form's preview (the engine in the
 * browser), the stored figures, the record, the invoice model and the PDF's text agree to the cent.
 */

let t: TestContext;
let agentUser: string;
let scanId: number;
let clientId: number;
let products: number[];

beforeAll(async () => {
  t = await createTestContext();
  const client = await t.build.client({ name: 'Cents client' });
  clientId = client.id;
  await sql`update clients set sc_metallic = 7.25, sc_pearl = 3.5, sc_p2p = true, sc_threshold = 1 where id = ${clientId}`.execute(t.db);
  const agent = await t.build.agent({ name: 'Cents agent', default_client_id: clientId });
  agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agent.id] })).email);
  const part = (await t.build.part({ name: 'Cents part' })).id;
  await t.db
    .insertInto('client_dent_prices')
    .values({
      client_id: clientId,
      part_id: part,
      light: 101.01,
      medium: 152.35,
      heavy: 203.33,
      severe: 254.99,
      oversize: 305.05,
      p2p: 80.8,
      aluminium: 12.5,
      conventional: 450.55,
      replacement: 1200.01,
    })
    .execute();
  await t.db
    .insertInto('client_scratch_prices')
    .values({ client_id: clientId, part_id: part, spot: 60.15, paint: 220.25, conventional: 310.3 })
    .execute();
  const group = (await t.build.panelGroup({ name: 'Cents front' })).id;
  for (const car_panel of ['bonnet', 'roof', 'door_lf', 'boot'])
    await t.db
      .insertInto('panels')
      .values({ panel_group_id: group, name: car_panel, label: car_panel.toUpperCase(), position: 1, car_panel, part_id: part })
      .execute();
  products = [
    (await t.build.product({ name: 'Cents wax', price: 30 })).id,
    (await t.build.product({ name: 'Cents polish', price: 12 })).id,
  ];
  scanId = (await t.build.scan({ agent_id: agent.id, client_id: clientId, license_plate: 'CENTS1' })).id;
  const counts: [string, 'dents' | 'scratchs', string, number][] = [
    ['bonnet', 'dents', 'heavy', 2],
    ['bonnet', 'scratchs', 'light', 1],
    ['roof', 'dents', 'medium', 1],
    ['door_lf', 'dents', 'oversize', 1],
    ['door_lf', 'scratchs', 'heavy', 2],
    ['boot', 'scratchs', 'light', 3],
  ];
  for (const [panel, type, level, count] of counts)
    await sql`insert into scan_measures (scan_id, car_panel, type, level, count) values (${scanId}, ${panel}, ${type}, ${level}, ${count})`.execute(
      t.db,
    );
});

const lineKey = (l: PricedLine) => `${l.panel_id}:${l.kind}`;
const byKey = (lines: readonly PricedLine[]) => [...lines].sort((a, b) => lineKey(a).localeCompare(lineKey(b)));
/** A line of the PDF's text holding these cells in order (spaced as pdf-text.ts gives them: none around a slash). */
const hasRow = (lines: string[], ...cells: string[]) =>
  lines.some((l) => new RegExp(cells.map((c) => c.replace(/ ?\/ ?/g, '/').replace(/[.*+?^${}()|[\]\\$]/g, '\\$&')).join('.*')).test(l));

describe('a saved quote', () => {
  it('has the preview’s figures in its columns, its record, its invoice model and its PDF, to the cent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ repair: fc.constantFrom(...REPAIR_TYPES), scratch: fc.constantFrom(...SCRATCH_REPAIR_TYPES) }), {
          minLength: 4,
          maxLength: 4,
        }),
        fc.record({ metallic: fc.boolean(), pearl: fc.boolean(), aluminium: fc.boolean() }),
        fc.array(fc.integer({ min: 0, max: 99_999_999 }), { maxLength: 2 }),
        fc.integer({ min: 0, max: 2000 }).map((n) => n / 100),
        async (choices, toggles, prices, gst) => {
          await sql`update options set option_value = ${String(gst)} where option_name = 'GST_PERCENT'`.execute(t.db);
          const evaluated = await t.as(agentUser, { method: 'GET', url: `/api/scan/scans/${scanId}/evaluate` });
          const evaluation = toEvaluation(evaluated.json().data)!;
          let form = quoteForm.initialForm(evaluation.panels, evaluation.measures);
          evaluation.panels.forEach((panel, i) => {
            const { scratches } = quoteForm.panelDamage(evaluation.measures, panel.carPanel);
            if (panel.thresholdCategory !== null) form = quoteForm.setRepairType(form, panel, choices[i].repair, scratches);
            form = quoteForm.setScratchRepair(form, panel, choices[i].scratch);
          });
          for (const toggle of ['metallic', 'pearl', 'aluminium'] as const) form = quoteForm.setToggle(form, toggle, toggles[toggle]);
          form = {
            ...form,
            products: prices.map((c, i) => ({ value: String(products[i]), text: '', price: String(c / 100) })),
          };
          const shown = quoteForm.onePerCarPanel(quoteForm.visiblePanels(evaluation.panels, form.vehicle_type));
          const preview = quoteForm.pricingOf(form, shown, evaluation.client, previewGstPercent(evaluation, null), evaluation.tyres);

          const fields = quoteForm.quoteFields(form, {
            scanId,
            clientId,
            scanType: evaluation.scan.type,
            panels: shown,
            withManualCheck: false,
          });
          const saved = await t.as(agentUser, { method: 'POST', url: '/api/quote/quotes', payload: fields });
          expect(saved.statusCode, saved.body).toBeLessThan(300);
          const record = saved.json().data;

          // The record the browser reads back: the preview's lines and totals.
          const quote = invoiceQuoteOfRecord(record);
          expect(byKey(quote.lines)).toEqual(byKey(preview.lines));
          expect(quote.totals).toEqual(preview.totals);

          // The stored columns.
          const row = (
            await sql<Record<string, number>>`select pdr, conventional, p2p, replacement, paint, tyre, product, sub_total, tax,
              grant_total from quotes where id = ${record.id}`.execute(t.db)
          ).rows[0];
          const { grant_total, ...sections } = row;
          expect({
            ...Object.fromEntries(Object.entries(sections).map(([k, v]) => [k, toCents(v)])),
            grand_total: toCents(grant_total),
          }).toEqual(preview.totals);

          // The invoice model.
          const invoice = buildInvoice(invoiceSourceOfQuote(quote));
          expect(Object.fromEntries(invoice.totals.map((x) => [x.key, x.cents]))).toEqual(preview.totals);
          expect(invoice.sections.flatMap((s) => s.lines.map((l) => l.cents.total)).reduce((a, b) => a + b, 0)).toBe(
            preview.lines.filter((l) => l.status !== 'other-vehicle-type').reduce((a, l) => a + l.line_total, 0),
          );

          // The PDF.
          const pdf = await storageOf(t.app).get(record.pdf_path as string);
          const lines = pdfLines(pdf!.data);
          for (const total of invoice.totals) expect(hasRow(lines, total.label, total.amount), total.label).toBe(true);
          for (const section of invoice.sections)
            for (const l of section.lines)
              // A long description wraps in a narrow column (three surcharge columns): its first word is on the row's line.
              expect(hasRow(lines, l.panel, l.description.split(' ')[0], l.total), `${l.panel} ${l.description}`).toBe(true);
        },
      ),
      { numRuns: 8 },
    );
  });
});

describe('the quote rules', () => {
  it('are the domain’s on both sides: the quote screen re-exports them and the quote service imports them', () => {
    expect(quoteForm.onePerCarPanel).toBe(rules.onePerCarPanel);
    expect(quoteForm.DUPLICATE_PRODUCT).toBe(rules.DUPLICATE_PRODUCT_MESSAGE);
    const source = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
    const server = source('server/services/quote/quotes-service.ts');
    const browser = source('src/custom/quote-generation/quoteForm.ts');
    for (const name of ['repeatedCarPanels', 'repeatedProducts', 'scratchRepairError', 'DUPLICATE_PRODUCT_MESSAGE'])
      expect(server).toMatch(new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from '../../../src/domain/quote-rules'`));
    for (const name of ['onePerCarPanel', 'repeatedProducts', 'scratchRepairError', 'DUPLICATE_PRODUCT_MESSAGE'])
      expect(browser).toMatch(new RegExp(`import \\{[^}]*\\b${name}\\b[^}]*\\} from '../../domain/quote-rules'`));
    // No second copy of a rule's wording or of the GST default.
    for (const file of [
      'server/services/quote/quotes-service.ts',
      'src/custom/quote-generation/quoteForm.ts',
      'src/custom/quote-generation/evaluation.ts',
      'server/lib/pricing-inputs.ts',
    ]) {
      const text = source(file);
      expect(text).not.toContain('Select other product');
      expect(text).not.toContain('already quoted in another car view');
      expect(text).not.toContain('has no scratch repair');
      expect(text).not.toMatch(/GST_PERCENT = 10|: 10;/);
    }
  });
});
