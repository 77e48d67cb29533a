import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createPdf, pdfBytes, winAnsiPrintable } from '../../server/lib/pdf/document';
import { pdfLogo, pdfPhoto } from '../../server/lib/pdf/logo';
import { renderQuotePdf } from '../../server/lib/pdf/quote';
import { fileUrl, localStorage } from '../../server/lib/storage';
import { readTrueType, subsetTrueType } from '../../server/lib/pdf/truetype';
import { scanReportPdf, type ReportInput } from '../../server/services/scan/report';
import { buildInvoice, formatMoney, type Invoice, type InvoiceSurcharge } from '../../src/domain/invoice';
import { priceQuote } from '../../src/domain/pricing';
import { SAMPLE_COMMENTS, sampleInvoiceSource, samplePricing } from '../../src/test/invoiceSample';
import { pdfLines } from './pdf-text';

/**
 * The server's PDFs read back as a reader sees them: poppler's pdftotext (text in layout order), pdffonts and
 * pdftoppm (Debian poppler-utils; scripts/test-all.sh installs it). The quote PDF must show the same lines and
 * figures as the engine, in English and Japanese.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'pdf-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const saved = (pdf: Buffer) => {
  const file = path.join(dir, `${++n}.pdf`);
  writeFileSync(file, pdf);
  return file;
};
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const textOf = pdfLines;
const fontsOf = (pdf: Buffer) => run('pdffonts', [saved(pdf)]);
/** As pdfLines reads a line: no space around a slash. */
const slash = (s: string) => s.replace(/ ?\/ ?/g, '/');
const esc = (s: string) => slash(s).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A line holding these cells in this order. */
const row = (...cells: string[]) => new RegExp(cells.map(esc).join('.*'));
const expectRow = (lines: string[], ...cells: string[]) =>
  expect(
    lines.some((l) => row(...cells).test(l)),
    cells.join(' | '),
  ).toBe(true);

/** The images a PDF embeds, as pdfimages lists them: [page, width, height] each. */
const imagesOf = (pdf: Buffer) =>
  run('pdfimages', ['-list', saved(pdf)])
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((l) => l.trim().split(/\s+/))
    .map((c) => [Number(c[0]), Number(c[3]), Number(c[4])]);
const pageCount = (pdf: Buffer) => Number(/Pages:\s+(\d+)/.exec(run('pdfinfo', [saved(pdf)]))![1]);
/** A vehicle photo as pdfPhoto makes it: a JPEG. */
const samplePhoto = () =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 180, g: 40, b: 40 } } })
    .jpeg()
    .toBuffer();

/** A quote of `count` panels cycling through the sample's four repair types. */
function bigInvoice(count: number, language = 'en') {
  const basePricing = samplePricing();
  const panels = Array.from({ length: count }, (_, i) => ({
    ...basePricing.panels[i % 4],
    panel_id: 100 + i,
    label: `Panel ${String(i + 1).padStart(2, '0')}`,
  }));
  const pricing = { ...basePricing, panels };
  const source = sampleInvoiceSource({ language });
  return buildInvoice({ ...source, pricing: { ...pricing, products: source.pricing.products }, result: priceQuote(pricing) });
}

/** Every line and figure of the invoice model, as the engine priced them, must be on a line of the PDF's text. */
function expectInvoice(lines: string[], invoice: Invoice) {
  expect(lines.join('\n')).toContain(invoice.title);
  for (const s of invoice.sections) {
    if (!s.lines.length) continue;
    expect(lines).toContain(slash(s.title));
    const { labels } = invoice;
    // The Tyres section heads its first column 'Wheel' and has no surcharge columns.
    expectRow(lines, s.subject, labels.description, labels.repair_fee, ...s.surcharges.map((x) => labels[`${x}_fee`]), labels.amount);
    for (const l of s.lines) expectRow(lines, l.panel, l.description, l.repair_fee, ...s.surcharges.map((x) => l[`${x}_fee`]), l.total);
    expectRow(lines, invoice.labels.totals[s.key], s.total);
  }
  for (const p of invoice.products) expectRow(lines, p.name, p.price);
  for (const p of invoice.parts) expect(lines).toContain(p);
  for (const t of invoice.totals) expectRow(lines, t.label, t.amount);
}

describe('the quote PDF', () => {
  it("shows the engine's lines and totals in English, in Helvetica with no font embedded", async () => {
    const source = sampleInvoiceSource();
    const invoice = buildInvoice(source);
    const pdf = await renderQuotePdf(invoice);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const lines = textOf(pdf);
    expectInvoice(lines, invoice);
    // The figures are the engine's: recompute and look for them.
    const engine = priceQuote(samplePricing()).totals;
    expectRow(lines, 'Sub Total', formatMoney(engine.sub_total, '$'));
    expectRow(lines, 'GST', formatMoney(engine.tax, '$'));
    expectRow(lines, 'Grand Total', '$3,755.94');
    expectRow(lines, 'Bonnet', 'Heavy', '$200.00', '$25.00', '$20.00', '$245.00');
    // Scratch work under Scratch / Paint, the tyres under Tyres with the advisory recheck under its tyre.
    expectRow(lines, 'Bonnet', 'Scratch (Paint)', '$220.25', '$0.00', '$22.03', '$242.28');
    expectRow(lines, 'Scratch/Paint Total', '$242.28');
    expectRow(lines, 'FRONT LEFT', 'Replace', '$189.90', '$189.90');
    expectRow(lines, 'REAR RIGHT', 'Recheck Next Visit', '$0.00');
    expectRow(lines, 'Tyres Total', '$224.90');
    expect(lines.filter((l) => l.startsWith('Boot Lid'))).toEqual([expect.stringMatching(/^Boot Lid Dent /)]);
    // The agent block (phone and ABN 4-3-3) and the vehicle header.
    expectRow(lines, 'Dent Doctors', 'ESTIMATE # 42');
    expectRow(lines, 'Phone: 0412 345 678');
    expectRow(lines, 'ABN: 5182 446 0393');
    expectRow(lines, 'Registration', 'ABC123', 'Make', 'Toyota');
    // A large-variant panel of another vehicle type is not on the invoice.
    expect(lines.join('\n')).not.toContain('Roof (Large)');
    expect(fontsOf(pdf)).toMatch(/Helvetica/);
    expect(fontsOf(pdf)).not.toMatch(/IPAex/);
    expect(pdf.length).toBeLessThan(20_000);
  });

  it('is in Japanese for a Japanese agent, with IPAex Gothic embedded as a small subset', async () => {
    const invoice = buildInvoice(sampleInvoiceSource({ language: 'ja', currency: '¥' }));
    const pdf = await renderQuotePdf(invoice);
    const lines = textOf(pdf);
    expectInvoice(lines, invoice);
    expect(lines.join('\n')).toContain('見積書 # 42');
    expectRow(lines, 'Bonnet', '重度', '¥200.00', '¥25.00', '¥20.00', '¥245.00');
    expectRow(lines, '総合計', '¥3,755.94');
    expectRow(lines, '法人番号: 5182 446 0393');
    expectRow(lines, 'スキャン日時', '2026-11-20 午後 02:15');
    expectRow(lines, '左前輪', '交換', '¥189.90', '¥189.90');
    expectRow(lines, '右後輪', '次回再点検', '¥0.00');
    const fonts = fontsOf(pdf);
    expect(fonts).toMatch(/IPAexGothic\s+CID TrueType\s+Identity-H\s+yes/);
    // The subset, not the 6 MB font (jspdf's own subset kept the whole cmap and post: about 230 kB).
    expect(pdf.length).toBeLessThan(80_000);
    // poppler draws it without complaining about the font program.
    const png = path.join(dir, 'ja');
    execFileSync('pdftoppm', ['-r', '30', '-png', '-f', '1', '-l', '1', saved(pdf), png], { stdio: ['ignore', 'pipe', 'pipe'] });
    expect(readFileSync(`${png}-1.png`).length).toBeGreaterThan(1000);
  });

  it('prints large amounts on one line, in both languages, with all three surcharges', async () => {
    for (const [language, currency] of [
      ['ja', '¥'],
      ['en', '$'],
    ]) {
      const invoice = buildInvoice(sampleInvoiceSource({ language, currency }));
      // Five money columns (three surcharges) and amounts of seven and eight digits: a 62 pt column wraps them.
      const first = invoice.sections.find((s) => s.lines.length && s.surcharges.length)!;
      const big = {
        ...first,
        surcharges: ['aluminium', 'metallic', 'pearl'] as InvoiceSurcharge[],
        lines: first.lines.map((l) => ({
          ...l,
          repair_fee: `${currency}1,168,750.00`,
          aluminium_fee: `${currency}116,875.00`,
          metallic_fee: `${currency}116,875.00`,
          pearl_fee: `${currency}116,875.00`,
          total: `${currency}1,519,375.00`,
        })),
        total: `${currency}12,345,678.90`,
      };
      const wide = { ...invoice, sections: invoice.sections.map((s) => (s === first ? big : s)) };
      const lines = textOf(await renderQuotePdf(wide));
      expectInvoice(lines, wide);
      expectRow(lines, big.lines[0].panel, `${currency}1,168,750.00`, `${currency}1,519,375.00`);
      expectRow(lines, invoice.labels.totals[big.key], `${currency}12,345,678.90`);
    }
  });

  it('draws the Japanese glyphs, not blanks: the page differs from one with the Japanese text left out', async () => {
    const ja = buildInvoice(sampleInvoiceSource({ language: 'ja' }));
    const render = async (invoice: Invoice) => {
      const file = path.join(dir, `glyphs-${++n}`);
      execFileSync('pdftoppm', ['-r', '40', '-png', '-f', '1', '-l', '1', saved(await renderQuotePdf(invoice)), file]);
      const { data } = await sharp(`${file}-1.png`).greyscale().raw().toBuffer({ resolveWithObject: true });
      return data.reduce((dark, v) => dark + (v < 128 ? 1 : 0), 0);
    };
    const blankTitle = { ...ja, title: '# 42' };
    expect(await render(ja)).toBeGreaterThan(await render(blankTitle));
  });

  it('embeds the font when an English invoice carries Japanese names', async () => {
    const source = sampleInvoiceSource();
    const invoice = buildInvoice({ ...source, agent: { ...source.agent, name: '東京デント' }, parts: ['バンパークリップ'] });
    const pdf = await renderQuotePdf(invoice);
    const lines = textOf(pdf);
    expectRow(lines, '東京デント', 'ESTIMATE # 42');
    expect(lines).toContain('バンパークリップ');
    expectRow(lines, 'Grand Total', '$3,755.94');
    expect(fontsOf(pdf)).toMatch(/IPAexGothic/);
  });

  it("prints the agent's logo instead of the name, and the name when the logo cannot be read", async () => {
    const invoice = buildInvoice(sampleInvoiceSource());
    const logo = await sharp({ create: { width: 240, height: 80, channels: 4, background: { r: 12, g: 24, b: 57, alpha: 1 } } })
      .png()
      .toBuffer();
    const withLogo = await renderQuotePdf(invoice, { logo });
    expect(run('pdfimages', ['-list', saved(withLogo)])).toMatch(/\b240\s+80\b/);
    // The name is still in the vehicle header's Agent row, but not above the agent's details.
    expect(textOf(withLogo)[0]).toBe('ESTIMATE # 42');
    const broken = await renderQuotePdf(invoice, { logo: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    expect(textOf(broken)[0]).toBe('Dent Doctors ESTIMATE # 42');
  });

  it('carries on over pages: every line of a 40-panel quote is there, page numbers on each page', async () => {
    const base = sampleInvoiceSource();
    const basePricing = samplePricing();
    const panels = Array.from({ length: 40 }, (_, i) => ({
      ...basePricing.panels[i % 4],
      panel_id: 100 + i,
      label: `Panel ${String(i + 1).padStart(2, '0')}`,
    }));
    const pricing = { ...basePricing, panels };
    const invoice = buildInvoice({ ...base, pricing, result: priceQuote(pricing) });
    const lines = textOf(await renderQuotePdf(invoice));
    expectInvoice(lines, invoice);
    const pages = lines.filter((l) => /^ESTIMATE # 42 \d+\/\d+$/.test(l));
    expect(pages.length).toBeGreaterThan(1);
    expect(pages).toEqual(pages.map((_, i) => `ESTIMATE # 42 ${i + 1}/${pages.length}`));
  });

  it("prints the body type, the assessor's comments, the GST rate and the vehicle photo, in English and Japanese", async () => {
    const photo = await samplePhoto();
    const en = await renderQuotePdf(buildInvoice(sampleInvoiceSource()), { photo });
    const lines = textOf(en);
    expectRow(lines, 'Body Type', 'Sedan');
    expect(lines).toContain('Comments');
    for (const l of SAMPLE_COMMENTS.split('\n')) expect(lines).toContain(l);
    expectRow(lines, 'GST 10 %', '$341.45');
    expect(lines).toContain('Vehicle Photo');
    // The photo is embedded as it is, once, on the first page (under the vehicle header).
    expect(imagesOf(en)).toEqual([[1, 640, 480]]);

    const ja = await renderQuotePdf(buildInvoice(sampleInvoiceSource({ language: 'ja' })), { photo });
    const jaLines = textOf(ja);
    expectRow(jaLines, 'ボディタイプ', 'Sedan');
    expect(jaLines).toContain('コメント');
    for (const l of SAMPLE_COMMENTS.split('\n')) expect(jaLines).toContain(l);
    expectRow(jaLines, 'GST 10 %', '$341.45');
    expect(jaLines).toContain('車両写真');
    expect(imagesOf(ja)).toEqual([[1, 640, 480]]);
  });

  it("says a tyre without a price in the client's list is a missing price, in English and Japanese", async () => {
    const pricing = samplePricing();
    const result = priceQuote({ ...pricing, client: { ...pricing.client, tyre_replace: 0 } });
    for (const language of ['en', 'ja']) {
      const invoice = buildInvoice(sampleInvoiceSource({ result, language }));
      const lines = textOf(await renderQuotePdf(invoice));
      expectInvoice(lines, invoice);
      expect(lines.join('\n')).toContain(
        language === 'en' ? 'no tyre price in the client’s price list' : 'クライアントの価格表にタイヤの価格がありません',
      );
    }
  });

  it('leaves the photo block out when there is no photo or it cannot be read, and the comments when there are none', async () => {
    const invoice = buildInvoice(sampleInvoiceSource({ comments: null }));
    for (const photo of [null, Buffer.from('not an image'), Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01])]) {
      const pdf = await renderQuotePdf(invoice, { photo });
      const lines = textOf(pdf);
      expect(lines).not.toContain('Vehicle Photo');
      expect(lines).not.toContain('Comments');
      expectRow(lines, 'Grand Total', '$3,755.94');
      expect(imagesOf(pdf)).toEqual([]);
    }
  });

  it('keeps the totals block with its heading and never alone on a page; no heading ends a page', async () => {
    const photo = await samplePhoto();
    // Counts at which the totals block would start a page alone unless the block before it moves with it (10, 30, 62
    // with the photo; 1, 20, 40, 44 without), and counts at which it fits anyway.
    const runs: [Buffer | null, number][] = [
      ...[4, 10, 24, 30, 40, 41, 56, 62].map((count): [Buffer, number] => [photo, count]),
      ...[1, 20, 40, 44].map((count): [null, number] => [null, count]),
    ];
    for (const [withPhoto, count] of runs) {
      const invoice = bigInvoice(count);
      const pdf = await renderQuotePdf(invoice, { photo: withPhoto });
      const pages = pageCount(pdf);
      const quote = `${count} panels${withPhoto ? ' and a photo' : ''}`;
      const totalsRows = invoice.totals.map((t) => slash(`${t.label} ${t.amount}`));
      const headings = [
        ...invoice.sections.map((s) => slash(s.title)),
        'Vehicle Photo',
        'Products',
        'Parts',
        'Comments',
        'Totals',
        'Product Price',
      ];
      let seen = 0;
      for (let p = 1; p <= pages; p++) {
        // The page's own text, its footer left out.
        const lines = textOf(pdf, p).filter((l) => !/^ESTIMATE # 42 \d+\/\d+$/.test(l));
        const grand = lines.indexOf(totalsRows.at(-1)!);
        if (grand >= 0) {
          seen++;
          // Every totals row under its heading, on this page.
          const start = grand - totalsRows.length;
          expect(lines.slice(start, grand + 1), `${quote}, page ${p}`).toEqual(['Totals', ...totalsRows]);
          // Something besides the totals block on the page.
          expect(start, `${quote}, page ${p}`).toBeGreaterThan(0);
        }
        // The last line of a page is never a heading or a table's column heads (the photo has no text: its heading may
        // end the text of the page that shows it).
        const last = lines.at(-1)!;
        const photoHere = last === 'Vehicle Photo' && imagesOf(pdf).some(([page]) => page === p);
        expect(headings.includes(last) && !photoHere, `${quote}, page ${p} ends with ${last}`).toBe(false);
        expect(last.startsWith('Panel Description'), `${quote}, page ${p} ends with ${last}`).toBe(false);
      }
      expect(seen, quote).toBe(1);
    }
  });

  it('writes a Euro client in Helvetica (Windows-1252 has the sign)', async () => {
    const invoice = buildInvoice(sampleInvoiceSource({ currency: '€' }));
    const pdf = await renderQuotePdf(invoice);
    expectRow(textOf(pdf), 'Grand Total', '€3,755.94');
    expect(fontsOf(pdf)).not.toMatch(/IPAex/);
  });
});

describe('winAnsiPrintable', () => {
  it('accepts Latin-1 and the Windows-1252 extras, refuses anything else', () => {
    expect(winAnsiPrintable(['Café €12 “quoted” – ¥ £'])).toBe(true);
    expect(winAnsiPrintable(['見積書'])).toBe(false);
    expect(winAnsiPrintable(['Zürich', 'Łódź'])).toBe(false);
  });
});

describe('the TrueType subset', () => {
  const file = readFileSync(new URL('../../server/assets/fonts/ipaexg.ttf', import.meta.url));
  const font = readTrueType(file);

  it('keeps the glyphs asked for at their ids, byte for byte, and stops after the last one', () => {
    const ids = [36, 1653, 1700];
    const sub = readTrueType(subsetTrueType(font, ids));
    expect(sub.numGlyphs).toBe(1701);
    const glyf = (f: typeof font) => f.data.subarray(f.tables.get('glyf')!.offset);
    for (const id of [0, ...ids]) {
      const original = glyf(font).subarray(font.loca[id], font.loca[id + 1]);
      const kept = glyf(sub).subarray(sub.loca[id], sub.loca[id + 1]);
      expect(kept.subarray(0, original.length).equals(original)).toBe(true);
    }
    expect(sub.loca[37] - sub.loca[36]).toBeGreaterThan(0);
    // Glyphs not asked for are empty.
    expect(sub.loca[38] - sub.loca[37]).toBe(0);
    expect(sub.data.length).toBeLessThan(40_000);
  });

  it('is a well-formed sfnt: tables sorted, each checksum right, the whole file summing to 0xB1B0AFBA', () => {
    const out = subsetTrueType(font, [36, 1653]);
    const sum = (b: Buffer) => {
      const padded = Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
      let s = 0;
      for (let i = 0; i < padded.length; i += 4) s = (s + padded.readUInt32BE(i)) >>> 0;
      return s;
    };
    expect(sum(out)).toBe(0xb1b0afba);
    const count = out.readUInt16BE(4);
    const tags: string[] = [];
    for (let i = 0; i < count; i++) {
      const at = 12 + i * 16;
      const tag = out.toString('latin1', at, at + 4);
      tags.push(tag);
      const t = out.subarray(out.readUInt32BE(at + 8), out.readUInt32BE(at + 8) + out.readUInt32BE(at + 12));
      if (tag !== 'head') expect(sum(t), tag).toBe(out.readUInt32BE(at + 4));
    }
    expect(tags).toEqual([...tags].sort());
    expect(tags).toEqual(expect.arrayContaining(['cmap', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp', 'post']));
  });
});

describe('the scan report on the same library', () => {
  const scan: ReportInput = {
    agent_name: 'Dent Doctors',
    location_name: 'Richmond',
    licensePlate: 'XYZ789',
    location_state: 'VIC',
    make: 'Mazda',
    model: 'CX-5',
    carColor: 'Red',
    body_type: 'SUV',
    timestamp: new Date('2026-11-20T03:15:00Z'),
    type: 'arch',
    status: 'uploaded',
    scan_id: 'abc-001',
    client_name: 'Acme Insurance',
    dentCount: 4,
    scratchCount: 1,
    damageCount: 5,
    measures: {
      dents: { bonnet: { light: 2, medium: 1, heavy: 0, severe: 0, oversize: 1 } },
      scratchs: { bonnet: { light: 1, medium: 0, heavy: 0, severe: 0, oversize: 0 } },
      damage_count: { bonnet: 5 },
    },
    data: [
      {
        label: 'Front Left',
        position: 'O',
        depths: [3.2, 1.4, 2.8],
        conclusionDescription: { eatenTire: 'NONE', pressureTire: 'UNDER_INFLATED' },
      },
    ],
  };

  it('prints the vehicle, the scan, the damage per panel and the tyres', () => {
    const lines = textOf(scanReportPdf(scan));
    expect(lines).toContain('Vehicle Scan Report');
    expect(lines).toContain('Dent Doctors - Richmond');
    expectRow(lines, 'Registration', 'XYZ789 (VIC)');
    expectRow(lines, 'Make/Model', 'Mazda CX-5');
    expectRow(lines, 'Counts by level: Light/Medium/Heavy/Severe/Oversize');
    expectRow(lines, 'Date', '20-11-2026 02:15 PM (Melbourne time)');
    expectRow(lines, 'Client', 'Acme Insurance');
    expectRow(lines, 'Dents: 4', 'Scratches: 1', 'Total: 5');
    expectRow(lines, 'Bonnet', '2/1/0/0/1', '1/0/0/0/0');
    expectRow(lines, 'Front Left outer', '1.4', 'under inflated, at or below the 1.5 mm legal minimum');
  });

  it('prints a Japanese client name (the font is embedded only then)', () => {
    const pdf = scanReportPdf({ ...scan, client_name: '東京海上' });
    expectRow(textOf(pdf), 'Client', '東京海上');
    expect(fontsOf(pdf)).toMatch(/IPAexGothic/);
    expect(fontsOf(scanReportPdf(scan))).not.toMatch(/IPAex/);
  });

  it('says when no damage was detected', () => {
    const lines = textOf(scanReportPdf({ ...scan, measures: { dents: {}, scratchs: {}, damage_count: {} }, data: [] }));
    expect(lines).toContain('No damage detected.');
    expect(lines.join('\n')).not.toContain('Tyre');
  });
});

describe('createPdf', () => {
  it('gives an A4 page and a valid empty document', () => {
    const { doc } = createPdf({ texts: [], title: 'Empty' });
    const pdf = pdfBytes(doc);
    expect(run('pdfinfo', [saved(pdf)])).toMatch(/Page size:\s+595\.2\d? x 841\.8\d? pts \(A4\)/);
  });
});

describe('pdfPhoto', () => {
  it('makes a stored photo an upright JPEG of at most 720 x 540; none, another file or an unreadable one is null', async () => {
    const storage = localStorage(path.join(dir, 'files'));
    // A phone's portrait photo: stored landscape with the EXIF orientation "rotate 90°".
    const png = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: { r: 10, g: 120, b: 60 } } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const url = fileUrl(await storage.put(png, 'image/jpeg'));
    const photo = await pdfPhoto(storage, url);
    expect(photo!.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const meta = await sharp(photo!).metadata();
    expect([meta.width, meta.height]).toEqual([360, 540]);
    expect(await pdfPhoto(storage, null)).toBeNull();
    expect(await pdfPhoto(storage, fileUrl(`${'1'.repeat(32)}.jpg`))).toBeNull();
    expect(await pdfPhoto(storage, fileUrl(await storage.put(Buffer.from('%PDF-1.4'), 'application/pdf')))).toBeNull();
    expect(await pdfPhoto(storage, fileUrl(await storage.put(Buffer.from('broken'), 'image/jpeg')))).toBeNull();
  });
});

describe('pdfLogo', () => {
  it("makes an agent's stored logo a JPEG on white of at most 480 x 180, once per file", async () => {
    const storage = localStorage(path.join(dir, 'files'));
    const png = await sharp({ create: { width: 1200, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    const url = fileUrl(await storage.put(png, 'image/png'));
    const logo = await pdfLogo(storage, url);
    expect(logo!.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const meta = await sharp(logo!).metadata();
    expect([meta.width, meta.height]).toEqual([480, 120]);
    // Transparent became white, not black.
    const { data } = await sharp(logo!).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect(Math.min(...data)).toBeGreaterThan(240);
    expect(pdfLogo(storage, url)).toBe(pdfLogo(storage, url));
  });

  it('is null for no logo, a URL that is not ours, a missing file or one that is not an image', async () => {
    const storage = localStorage(path.join(dir, 'files'));
    expect(await pdfLogo(storage, null)).toBeNull();
    expect(await pdfLogo(storage, 'https://example.com/logo.png')).toBeNull();
    expect(await pdfLogo(storage, fileUrl(`${'0'.repeat(32)}.png`))).toBeNull();
    const pdf = fileUrl(await storage.put(Buffer.from('%PDF-1.4'), 'application/pdf'));
    expect(await pdfLogo(storage, pdf)).toBeNull();
  });
});
