import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_COMMENTS, sampleInvoiceSource, samplePricing, sampleQuoteRecord } from '../test/invoiceSample';
import {
  buildInvoice,
  formatMoney,
  groupDigits,
  invoiceLanguage,
  invoiceSourceOfQuote,
  invoiceTexts,
  lineEvidence,
  lineName,
  type Invoice,
} from './invoice';
import { invoiceQuoteOfRecord } from './quote-wire';
import { priceQuote } from './pricing';

const section = (invoice: Invoice, key: string) => invoice.sections.find((s) => s.key === key)!;
const rows = (invoice: Invoice, key: string) => section(invoice, key).lines.map((l) => [l.panel, l.description, l.total]);
const totals = (invoice: Invoice) => Object.fromEntries(invoice.totals.map((t) => [t.label, t.amount]));

describe('formatMoney', () => {
  it("prints cents in the client's currency with 2 decimals and thousands separators", () => {
    expect(formatMoney(0, '$')).toBe('$0.00');
    expect(formatMoney(5, '$')).toBe('$0.05');
    expect(formatMoney(123456, '$')).toBe('$1,234.56');
    expect(formatMoney(100000000, '¥')).toBe('¥1,000,000.00');
    expect(formatMoney(99, '€')).toBe('€0.99');
    expect(formatMoney(-1050, '$')).toBe('-$10.50');
  });

  it('uses $ when the client has no currency', () => {
    expect(formatMoney(100, null)).toBe('$1.00');
    expect(formatMoney(100, '')).toBe('$1.00');
  });
});

describe('groupDigits (phone and business number, 4-3-3)', () => {
  it('groups ten digits 4-3-3, spaces typed or not', () => {
    expect(groupDigits('0412345678')).toBe('0412 345 678');
    expect(groupDigits('04 1234 5678')).toBe('0412 345 678');
    expect(groupDigits(' 0398765432 ')).toBe('0398 765 432');
  });

  it('keeps digits past the tenth in the last group, and short numbers as far as they go', () => {
    expect(groupDigits('51824460393')).toBe('5182 446 0393');
    expect(groupDigits('1234567890123')).toBe('1234 567 890123');
    expect(groupDigits('123456')).toBe('1234 56');
    expect(groupDigits('1234')).toBe('1234');
  });

  it('prints a number with other characters as typed', () => {
    expect(groupDigits('+61 412 345 678')).toBe('+61 412 345 678');
    expect(groupDigits('(03) 9876-5432')).toBe('(03) 9876-5432');
    expect(groupDigits(null)).toBe('');
  });
});

describe('invoiceLanguage', () => {
  it('is Japanese for ja only', () => {
    expect(invoiceLanguage('ja')).toBe('ja');
    expect(invoiceLanguage('ja-JP')).toBe('ja');
    expect(invoiceLanguage('en')).toBe('en');
    expect(invoiceLanguage('fr')).toBe('en');
    expect(invoiceLanguage(null)).toBe('en');
  });
});

describe('buildInvoice: a worked example (src/test/invoiceSample.ts)', () => {
  // Part 7: light 100, heavy 200, p2p 80, conventional 450.50, replacement 1200, aluminium 12.5 %; scratch paint 220.25,
  // conventional 310; tyre repair 35, replace 189.90. Metallic 10 % and Aluminium on, Pearl off; GST 10 %.
  const invoice = buildInvoice(sampleInvoiceSource());

  it('prints each line in the section of its repair type, with its fees', () => {
    // Bonnet pdr heavy: 200 + 12.5 % aluminium (25) + 10 % metallic (20) = 245.
    expect(section(invoice, 'pdr').lines[0]).toMatchObject({
      repair_fee: '$200.00',
      aluminium_fee: '$25.00',
      metallic_fee: '$20.00',
      pearl_fee: '$0.00',
    });
    // Right rear door pdr light: 100 + 12.50 + 10 = 122.50, after the bonnet.
    expect(rows(invoice, 'pdr')).toEqual([
      ['Bonnet', 'Heavy', '$245.00'],
      ['Right Rear Door', 'Light', '$122.50'],
    ]);
    // Roof conventional: 450.50 + 56.3125 → 56.31 + 45.05 = 551.86; the door's conventional scratch 310, no surcharge.
    expect(rows(invoice, 'conventional')).toEqual([
      ['Roof', 'Dent', '$551.86'],
      ['Right Rear Door', 'Scratch (Conventional)', '$310.00'],
    ]);
    // Door p2p: 80 + 10 + 8 = 98.
    expect(rows(invoice, 'p2p')).toEqual([['Left Front Door', 'Dent', '$98.00']]);
    // Boot lid replacement: 1200 + 150 + 120 = 1470, and nothing else: the replacement repaints it, so its scratch
    // choice makes no line; no scratch work is ever listed under Replace.
    expect(rows(invoice, 'replacement')).toEqual([['Boot Lid', 'Dent', '$1,470.00']]);
    // The bonnet's paint scratch: 220.25 + metallic 22.025 → 22.03 = 242.28, in Scratch / Paint.
    expect(rows(invoice, 'paint')).toEqual([['Bonnet', 'Scratch (Paint)', '$242.28']]);
    // Tyres: replace 189.90, repair 35, recheck advisory at 0, under the tyre it concerns; no surcharge on a tyre.
    expect(rows(invoice, 'tyre')).toEqual([
      ['FRONT LEFT', 'Replace', '$189.90'],
      ['FRONT RIGHT', 'Repair', '$35.00'],
      ['REAR RIGHT', 'Recheck Next Visit', '$0.00'],
    ]);
    expect(section(invoice, 'tyre').lines[0]).toMatchObject({ aluminium_fee: '$0.00', metallic_fee: '$0.00' });
    expect(invoice.sections.map((s) => s.title)).toEqual(['PDR', 'Conventional', 'Push to Paint', 'Replace', 'Scratch / Paint', 'Tyres']);
  });

  it('marks a tyre the client has no price for as a missing price, never a free tyre', () => {
    const pricing = samplePricing();
    const unpriced = { ...pricing, client: { ...pricing.client, tyre_replace: 0 } };
    const source = sampleInvoiceSource({ result: priceQuote(unpriced) });
    expect(rows(buildInvoice(source), 'tyre')[0]).toEqual(['FRONT LEFT', 'Replace (no tyre price in the client’s price list)', '$0.00']);
    expect(rows(buildInvoice({ ...source, language: 'ja' }), 'tyre')[0][1]).toBe('交換（クライアントの価格表にタイヤの価格がありません）');
  });

  it('leaves out a large-variant panel of another vehicle type', () => {
    expect(invoice.sections.flatMap((s) => s.lines.map((l) => l.panel))).not.toContain('Roof (Large)');
  });

  it("has the engine's totals: per type, products, sub total, GST rounded once, grand total", () => {
    expect(totals(invoice)).toEqual({
      'PDR Total': '$367.50',
      'Conventional Total': '$861.86',
      'Push to Paint Total': '$98.00',
      'Replace Total': '$1,470.00',
      'Scratch / Paint Total': '$242.28',
      'Tyres Total': '$224.90',
      'Products Total': '$149.95',
      // 367.50 + 861.86 + 98 + 1470 + 242.28 + 224.90 + 149.95 = 3414.49; GST 341.449 → 341.45.
      'Sub Total': '$3,414.49',
      'GST 10 %': '$341.45',
      'Grand Total': '$3,755.94',
    });
    const engine = priceQuote(samplePricing()).totals;
    expect(invoice.totals.map((t) => t.cents)).toEqual([
      engine.pdr,
      engine.conventional,
      engine.p2p,
      engine.replacement,
      engine.paint,
      engine.tyre,
      engine.product,
      engine.sub_total,
      engine.tax,
      engine.grand_total,
    ]);
  });

  it('lists the products with their prices, and the parts', () => {
    expect(invoice.products.map((p) => [p.name, p.price])).toEqual([
      ['Paint protection', '$49.95'],
      ['Detailing', '$100.00'],
    ]);
    expect(invoice.parts).toEqual(['Clip', 'Emblem']);
  });

  it('shows the surcharge columns of the toggles that are on, and none in the Tyres section', () => {
    const columns = (inv: Invoice) => inv.sections.map((s) => [s.key, s.subject, s.surcharges]);
    const body = ['aluminium', 'metallic'];
    expect(columns(invoice)).toEqual([
      ['pdr', 'Panel', body],
      ['conventional', 'Panel', body],
      ['p2p', 'Panel', body],
      ['replacement', 'Panel', body],
      ['paint', 'Panel', body],
      ['tyre', 'Wheel', []],
    ]);
    const all = buildInvoice(sampleInvoiceSource({ pricing: { ...sampleInvoiceSource().pricing, pearl: 1, aluminium: 0 } }));
    expect(all.sections.find((s) => s.key === 'pdr')?.surcharges).toEqual(['metallic', 'pearl']);
    expect(all.sections.find((s) => s.key === 'tyre')?.surcharges).toEqual([]);
  });

  it('heads it ESTIMATE # with the number, and the agent block with phone and ABN grouped 4-3-3', () => {
    expect(invoice.title).toBe('ESTIMATE # 42');
    expect(invoice.date).toBe('22-11-2026 10:30 AM');
    expect(invoice.agent.name).toBe('Dent Doctors');
    expect(invoice.agent.logo).toBe('/api/user/files/logo.png');
    expect(invoice.agent.fields.map((f) => [f.label, f.value])).toEqual([
      ['Phone', '0412 345 678'],
      ['Address', '1 Collins St, Melbourne VIC 3000'],
      ['Email', 'quotes@dentdoctors.example'],
      ['ABN', '5182 446 0393'],
    ]);
  });

  it('has the vehicle header with the scan time in Melbourne; VIN only when known', () => {
    expect(invoice.vehicle.map((f) => [f.label, f.value])).toEqual([
      ['Registration', 'ABC123'],
      ['Make', 'Toyota'],
      ['Model', 'Corolla'],
      ['Colour', 'White'],
      ['Body Type', 'Sedan'],
      ['Scan Date/Time', '20-11-2026 02:15 PM'],
      ['Assessor', 'Alex Assessor'],
      ['Agent', 'Dent Doctors'],
      ['Client', 'Acme Insurance'],
    ]);
    const withVin = buildInvoice(sampleInvoiceSource({ vehicle: { ...sampleInvoiceSource().vehicle, vin: 'JTDBR32E720123456' } }));
    expect(withVin.vehicle.find((f) => f.key === 'vin')).toEqual({ key: 'vin', label: 'VIN', value: 'JTDBR32E720123456' });
  });

  it("prints money in the client's currency", () => {
    const yen = buildInvoice(sampleInvoiceSource({ currency: '¥' }));
    expect(yen.totals.at(-1)!.amount).toBe('¥3,755.94');
    expect(section(yen, 'pdr').lines[0].total).toBe('¥245.00');
  });
});

describe('buildInvoice in Japanese', () => {
  const invoice = buildInvoice(sampleInvoiceSource({ language: 'ja', currency: '¥' }));

  it('labels everything in Japanese, with the same figures', () => {
    expect(invoice.title).toBe('見積書 # 42');
    expect(invoice.sections.map((s) => s.title)).toEqual([
      'PDR（デントリペア）',
      '板金',
      'プッシュ・トゥ・ペイント',
      '交換',
      '傷 / 塗装',
      'タイヤ',
    ]);
    expect(rows(invoice, 'pdr')[0]).toEqual(['Bonnet', '重度', '¥245.00']);
    expect(rows(invoice, 'paint')).toEqual([['Bonnet', '傷 (塗装)', '¥242.28']]);
    // The wheels in Japanese too, as the scan page names them.
    expect(rows(invoice, 'tyre').map((r) => r[0])).toEqual(['左前輪', '右前輪', '右後輪']);
    expect(rows(invoice, 'tyre')[2]).toEqual(['右後輪', '次回再点検', '¥0.00']);
    expect(lineName({ kind: 'tyre', label: 'FRONT LEFT', repair_type: 'replace' }, 'ja')).toBe('左前輪 – 交換');
    expect(lineName({ kind: 'tyre', label: 'FRONT LEFT', repair_type: 'replace' }, 'en')).toBe('FRONT LEFT – Replace');
    expect(totals(invoice)).toMatchObject({ 小計: '¥3,414.49', 'GST 10 %': '¥341.45', 総合計: '¥3,755.94' });
    expect(invoice.agent.fields.find((f) => f.key === 'abn')).toEqual({ key: 'abn', label: '法人番号', value: '5182 446 0393' });
  });

  it("prints the body type, the assessor's comments and the rate in the GST row in Japanese words", () => {
    expect(invoice.vehicle.find((f) => f.key === 'body_type')).toEqual({ key: 'body_type', label: 'ボディタイプ', value: 'Sedan' });
    expect(invoice.comments).toBe(SAMPLE_COMMENTS);
    expect(invoice.labels.comments).toBe('コメント');
    expect(invoice.labels.vehicle_photo).toBe('車両写真');
    expect(invoice.labels.totals_title).toBe('合計');
  });

  it('writes dates the Japanese way', () => {
    expect(invoice.date).toBe('2026-11-22 午前 10:30');
    expect(invoice.vehicle.find((f) => f.key === 'scan_date')!.value).toBe('2026-11-20 午後 02:15');
  });
});

describe('buildInvoice over generated quotes', () => {
  it('every section total is the sum of its lines, and the totals the sum of the sections and products', () => {
    const base = sampleInvoiceSource();
    const basePricing = samplePricing();
    const repairTypes = ['pdr', 'conventional', 'p2p', 'replacement'] as const;
    const levels = ['light', 'medium', 'heavy', 'severe', 'oversize'] as const;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            repair: fc.constantFrom(...repairTypes),
            level: fc.constantFrom(...levels),
            scratch: fc.constantFrom(null, 'spot', 'paint', 'conventional'),
            large: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        fc.array(fc.integer({ min: 0, max: 100_000 }), { maxLength: 5 }),
        fc.record({ metallic: fc.boolean(), pearl: fc.boolean(), aluminium: fc.boolean() }),
        (panels, prices, toggles) => {
          const pricing = {
            ...basePricing,
            ...toggles,
            panels: panels.map((p, i) => ({
              panel_id: i + 1,
              label: `Panel ${i + 1}`,
              part_id: 7,
              type: p.large ? ('L' as const) : ('D' as const),
              hasLargeVariant: p.large,
              dent: { repair_type: p.repair, category: p.repair === 'pdr' ? p.level : null },
              scratch: p.scratch,
            })),
            products: prices.map((c, i) => ({ text: `Product ${i}`, price: c / 100 })),
          };
          // The engine takes the prices as typed (currency units); the invoice reads the quote's cents.
          const products = prices.map((c, i) => ({ text: `Product ${i}`, price: c }));
          const invoice = buildInvoice({ ...base, pricing: { ...pricing, products }, result: priceQuote(pricing) });
          for (const s of invoice.sections) expect(s.lines.reduce((a, l) => a + l.cents.total, 0)).toBe(s.cents);
          const t = Object.fromEntries(invoice.totals.map((x) => [x.key, x.cents]));
          expect(invoice.products.reduce((a, p) => a + p.cents, 0)).toBe(t.product);
          expect(t.sub_total).toBe(t.pdr + t.conventional + t.p2p + t.replacement + t.paint + t.tyre + t.product);
          expect(t.grand_total).toBe(t.sub_total + t.tax);
          // A dent line per shown panel, a scratch line only beside a pdr dent line, a line per tyre choice.
          const shown = pricing.panels.filter((p) => !p.hasLargeVariant);
          expect(invoice.sections.flatMap((s) => s.lines)).toHaveLength(
            shown.reduce((n, p) => n + 1 + (p.scratch && p.dent.repair_type === 'pdr' ? 1 : 0), 0) + pricing.tyres.length,
          );
          // Nothing scratch-related is ever listed under Replace.
          expect(section(invoice, 'replacement').lines.every((l) => l.kind === 'dent')).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('buildInvoice: the vehicle, the comments, the photo and the GST rate', () => {
  it('names the GST rate the quote was priced with, every decimal the setting holds, and keeps the amount', () => {
    const tax = (gst_percent: number | null | undefined) =>
      buildInvoice(sampleInvoiceSource({ gst_percent })).totals.find((t) => t.key === 'tax')!;
    expect(tax(10)).toMatchObject({ label: 'GST 10 %', amount: '$341.45' });
    expect(tax(7.5).label).toBe('GST 7.5 %');
    expect(tax(0).label).toBe('GST 0 %');
    // All four decimals GST_PERCENT may hold, so the printed rate times the sub total gives the printed GST.
    expect(tax(12.345).label).toBe('GST 12.345 %');
    expect(tax(8.875).label).toBe('GST 8.875 %');
    expect(tax(8.1234).label).toBe('GST 8.1234 %');
    // A source without a rate (never a saved quote) prints the word alone rather than a wrong rate.
    expect(tax(null).label).toBe('GST');
    expect(tax(undefined).label).toBe('GST');
  });

  it("carries the comments as typed (trimmed, line breaks kept) and the photo's URL; none is null", () => {
    const invoice = buildInvoice(sampleInvoiceSource({ comments: `  ${SAMPLE_COMMENTS}\n ` }));
    expect(invoice.comments).toBe(SAMPLE_COMMENTS);
    expect(invoice.comments).toContain('\n');
    expect(invoice.photo).toBe('/api/user/files/photo.jpg');
    const bare = buildInvoice(sampleInvoiceSource({ comments: '  ', photo: null }));
    expect(bare.comments).toBeNull();
    expect(bare.photo).toBeNull();
  });

  it('prints the body type in the vehicle header, and the VIN only when the scan has one', () => {
    const invoice = buildInvoice(sampleInvoiceSource());
    expect(invoice.vehicle.find((f) => f.key === 'body_type')).toEqual({ key: 'body_type', label: 'Body Type', value: 'Sedan' });
    expect(invoice.vehicle.some((f) => f.key === 'vin')).toBe(false);
  });
});

describe('a new-damage-only quote', () => {
  it('lists the pre-existing panels at 0 and those priced for their new damage only, in both languages', () => {
    const new_damage = { compared_with: '2026-03-02T00:00:00Z', pre_existing: ['BONNET'], partly_pre_existing: ['ROOF'] };
    const en = buildInvoice(sampleInvoiceSource({ new_damage }));
    expect(en.new_damage?.pre_existing).toEqual([
      { panel: 'BONNET', total: '$0.00' },
      { panel: 'ROOF', total: 'Only its new damage is priced' },
    ]);
    expect(invoiceTexts(en)).toEqual(expect.arrayContaining(['Pre-existing damage (not priced)', 'ROOF', 'Only its new damage is priced']));
    const ja = buildInvoice(sampleInvoiceSource({ new_damage, language: 'ja' }));
    expect(ja.new_damage?.pre_existing.map((p) => p.total)).toEqual(['$0.00', '新しい損傷のみ見積対象']);
    // A quote saved before the partly pre-existing panels were kept lists the others alone.
    const older = buildInvoice(sampleInvoiceSource({ new_damage: { compared_with: '2026-03-02T00:00:00Z', pre_existing: ['BONNET'] } }));
    expect(older.new_damage?.pre_existing).toEqual([{ panel: 'BONNET', total: '$0.00' }]);
  });
});

describe('invoiceTexts', () => {
  it('lists every printed text: labels, lines, figures', () => {
    const texts = invoiceTexts(buildInvoice(sampleInvoiceSource()));
    for (const t of ['ESTIMATE # 42', 'Bonnet', 'Scratch (Paint)', '$242.28', 'Tyres', 'FRONT LEFT', 'Detailing', 'Emblem', '$3,755.94'])
      expect(texts).toContain(t);
    for (const t of ['Sedan', 'Comments', SAMPLE_COMMENTS, 'Vehicle Photo', 'Totals', 'GST 10 %']) expect(texts).toContain(t);
  });
});

describe('invoiceSourceOfQuote: the invoice of a saved quote as the quote service sends it', () => {
  it("gives the same invoice as the engine's result, from the stored figures", () => {
    const fromRecord = buildInvoice(invoiceSourceOfQuote(invoiceQuoteOfRecord(sampleQuoteRecord())));
    const fromEngine = buildInvoice(sampleInvoiceSource());
    expect(fromRecord).toEqual(fromEngine);
  });

  it("reads the scan's body type, the comments, the photo and the GST rate of the record", () => {
    const invoice = buildInvoice(invoiceSourceOfQuote(invoiceQuoteOfRecord(sampleQuoteRecord({ gst_percent: 8, vehicle_photo: null }))));
    expect(invoice.vehicle.find((f) => f.key === 'body_type')!.value).toBe('Sedan');
    expect(invoice.comments).toBe(SAMPLE_COMMENTS);
    expect(invoice.photo).toBeNull();
    expect(invoice.totals.find((t) => t.key === 'tax')!.label).toBe('GST 8 %');
  });

  it("takes the language asked for, else the agent's", () => {
    const record = sampleQuoteRecord({ agent: { ...sampleQuoteRecord().agent, language: 'ja' } });
    expect(buildInvoice(invoiceSourceOfQuote(invoiceQuoteOfRecord(record))).title).toBe('見積書 # 42');
    expect(buildInvoice(invoiceSourceOfQuote(invoiceQuoteOfRecord(record), 'en')).title).toBe('ESTIMATE # 42');
  });

  it("prints the stored figures, not a recomputation: a quote keeps its prices after the client's change", () => {
    const record = sampleQuoteRecord();
    record.items['11'] = { ...record.items['11'], repair_fee: 210, lineTotal: 257.25 };
    record.totals = { ...record.totals, pdr: 257.25 };
    const invoice = buildInvoice(invoiceSourceOfQuote(invoiceQuoteOfRecord(record)));
    expect(invoice.sections[0].lines[0]).toMatchObject({ repair_fee: '$210.00', total: '$257.25' });
    expect(invoice.totals[0]).toMatchObject({ label: 'PDR Total', amount: '$257.25' });
  });

  it('orders lines by panel, a scratch after its dent, and reads parts as texts', () => {
    const invoice = buildInvoice(invoiceSourceOfQuote(invoiceQuoteOfRecord(sampleQuoteRecord({ parts: ['Grille', { text: 'Clip' }] }))));
    expect(invoice.parts).toEqual(['Grille', 'Clip']);
    expect(invoice.sections.find((s) => s.key === 'pdr')!.lines.map((l) => l.panel)).toEqual(['Bonnet', 'Right Rear Door']);
    expect(invoice.sections.find((s) => s.key === 'conventional')!.lines.map((l) => l.description)).toEqual([
      'Dent',
      'Scratch (Conventional)',
    ]);
    expect(invoice.sections.find((s) => s.key === 'tyre')!.lines.map((l) => l.panel)).toEqual(['FRONT LEFT', 'FRONT RIGHT', 'REAR RIGHT']);
  });
});

describe('lineEvidence', () => {
  it('shows a dent line its dents and a scratch line its scratches; a dent line with no scratch line beside it, both', () => {
    const panel = { panel_id: 7, dents: { medium: 1 }, scratchs: { light: 1 } };
    const pdr = { kind: 'dent', ...panel };
    const spot = { kind: 'scratch', ...panel };
    expect(lineEvidence(pdr, [pdr, spot])).toEqual({ dents: { medium: 1 }, scratchs: {} });
    expect(lineEvidence(spot, [pdr, spot])).toEqual({ dents: {}, scratchs: { light: 1 } });
    // A conventional repair covers the scratches: no scratch line, so its line shows them.
    expect(lineEvidence(pdr, [pdr])).toEqual({ dents: { medium: 1 }, scratchs: { light: 1 } });
    // Another panel's scratch line does not count.
    expect(lineEvidence(pdr, [pdr, { kind: 'scratch', panel_id: 8 }])).toEqual({ dents: { medium: 1 }, scratchs: { light: 1 } });
  });
});
