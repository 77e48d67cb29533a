import type { jsPDF } from 'jspdf';
import { __createTable, __drawTable, type RowInput, type UserOptions } from 'jspdf-autotable';
import { invoiceTexts, type Invoice, type InvoiceLine } from '../../../src/domain/invoice';
import type { SupplementBlock } from '../../../src/domain/supplement-block';
import { A4, createPdf, pdfBytes, type PdfFont } from './document';

/**
 * The quote's PDF: the estimate invoice on A4, laid out from the invoice model alone
 * (src/domain/invoice.ts), so it shows the same lines and figures as the invoice screen. In the invoice's language;
 * Japanese text embeds IPAex Gothic (./document.ts).
 */

const MARGIN = 40;
const PRIMARY: [number, number, number] = [12, 24, 57]; // #0C1839 (primary colour)
const MUTED: [number, number, number] = [90, 90, 90];
const CONTENT_WIDTH = A4.width - 2 * MARGIN;
const FONT_SIZE = 9;
const CELL_PADDING = 4;

/**
 * The images of the PDF, PNG or JPEG bytes (./logo.ts makes them): the agent's logo (without one the agent's name is
 * printed) and the vehicle photo (without one, or one jspdf cannot read, its block is left out).
 */
export interface QuotePdfAssets {
  logo?: Buffer | null;
  photo?: Buffer | null;
  /** A supplement's changes since the revision sent before it, printed above its lines. */
  supplement?: SupplementBlock | null;
}

const imageFormat = (b: Buffer) =>
  b.length > 8 && b.readUInt32BE(0) === 0x89504e47 ? 'PNG' : b.length > 3 && b[0] === 0xff && b[1] === 0xd8 ? 'JPEG' : null;

/** The finishing y of the last table autotable drew. */
const lastTableEnd = (doc: jsPDF) => (doc as unknown as { lastAutoTable: { finalY: number } }).lastAutoTable.finalY;

/** Draws the logo (at most 160 × 60 pt) at x, y; false when there is none or jspdf cannot read it. */
function drawLogo(doc: jsPDF, logo: Buffer | null | undefined, x: number, y: number): number | false {
  const format = logo ? imageFormat(logo) : null;
  if (!logo || !format) return false;
  try {
    const { width, height } = doc.getImageProperties(logo);
    const scale = Math.min(160 / width, 60 / height, 1);
    doc.addImage(logo, format, x, y, width * scale, height * scale);
    return height * scale;
  } catch {
    return false;
  }
}

function header(doc: jsPDF, invoice: Invoice, font: PdfFont, assets: QuotePdfAssets): number {
  let y = MARGIN;
  const logoHeight = drawLogo(doc, assets.logo, MARGIN, y);
  if (logoHeight === false) {
    doc
      .setFont(font.family, font.bold)
      .setFontSize(16)
      .setTextColor(...PRIMARY);
    const name = doc.splitTextToSize(invoice.agent.name, CONTENT_WIDTH / 2) as string[];
    doc.text(name, MARGIN, y + 14);
    y += 14 + (name.length - 1) * 18 + 8;
  } else {
    y += logoHeight + 10;
  }
  doc
    .setFont(font.family, 'normal')
    .setFontSize(9)
    .setTextColor(...MUTED);
  for (const f of invoice.agent.fields) {
    const lines = doc.splitTextToSize(`${f.label}: ${f.value}`, CONTENT_WIDTH / 2) as string[];
    doc.text(lines, MARGIN, y + 9);
    y += lines.length * 12;
  }

  const right = A4.width - MARGIN;
  doc
    .setFont(font.family, font.bold)
    .setFontSize(20)
    .setTextColor(...PRIMARY);
  doc.text(invoice.title, right, MARGIN + 16, { align: 'right' });
  doc
    .setFont(font.family, 'normal')
    .setFontSize(10)
    .setTextColor(...MUTED);
  doc.text(`${invoice.labels.date}: ${invoice.date}`, right, MARGIN + 34, { align: 'right' });
  return Math.max(y, MARGIN + 40) + 12;
}

const BOTTOM = MARGIN + 14;
/** The gap above the totals block. */
const TOTALS_GAP = 16;

/**
 * The blocks a document has drawn, in order, each with the page it starts on, whether it was moved to a new page and
 * its whole height; `keep` asks block `index` to stay on one page with the `height` that follows it.
 */
interface Flow {
  blocks: { page: number; moved: boolean; height: number }[];
  keep?: { index: number; height: number };
}
const flows = new WeakMap<jsPDF, Flow>();

/**
 * Shared table look: the document's font, the primary colour on the head, emphasis by the font's bold style.
 *
 * Every block of the estimate is one table whose head is its heading, and a page breaks only between blocks: a block
 * that fits on a page is never split (it starts the next page when the rest of this one is too short), and one longer
 * than a page starts here only when its heading, column heads and first row fit, so a heading is never left alone at
 * the foot of a page (autotable alone checks only the head).
 */
function table(doc: jsPDF, font: PdfFont, opts: UserOptions) {
  const t = __createTable(doc, {
    theme: 'striped',
    margin: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM },
    styles: { font: font.family, fontStyle: 'normal', fontSize: FONT_SIZE, cellPadding: CELL_PADDING, textColor: 20 },
    headStyles: { fillColor: PRIMARY, textColor: 255, fontStyle: font.bold },
    footStyles: { fillColor: [235, 237, 242], textColor: 20, fontStyle: font.bold },
    ...opts,
  });
  const head = t.getHeadHeight(t.columns);
  const body = t.body.reduce((sum, r) => sum + r.height, 0);
  const whole = head + body + t.getFootHeight(t.columns);
  const page = A4.height - MARGIN - BOTTOM;
  const flow = flows.get(doc);
  const index = flow?.blocks.length ?? -1;
  const keep = flow?.keep?.index === index ? flow.keep.height : 0;
  const needed = whole + keep <= page ? whole + keep : whole <= page ? whole : head + (t.body[0]?.height ?? 0);
  const moved = t.settings.startY + needed > A4.height - BOTTOM;
  if (moved) t.settings.pageBreak = 'always';
  __drawTable(doc, t);
  flow?.blocks.push({ page: t.startPageNumber ?? 0, moved, height: whole });
  return lastTableEnd(doc);
}

function vehicle(doc: jsPDF, invoice: Invoice, font: PdfFont, y: number) {
  const pairs = invoice.vehicle;
  const body: RowInput[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const a = pairs[i];
    const b = pairs[i + 1];
    body.push([a.label, a.value, b?.label ?? '', b?.value ?? '']);
  }
  return table(doc, font, {
    startY: y,
    theme: 'plain',
    body,
    styles: { font: font.family, fontStyle: 'normal', fontSize: 9, cellPadding: 2.5, textColor: 20 },
    columnStyles: { 0: { textColor: MUTED, cellWidth: 90 }, 2: { textColor: MUTED, cellWidth: 90 } },
  });
}

/** The vehicle photo under the vehicle header, scaled to at most 260 × 195 pt; nothing when there is none or it is unreadable. */
function photo(doc: jsPDF, invoice: Invoice, font: PdfFont, image: Buffer | null | undefined, y: number) {
  const format = image ? imageFormat(image) : null;
  if (!image || !format) return y;
  let size: { width: number; height: number };
  try {
    const { width, height } = doc.getImageProperties(image);
    const scale = Math.min(260 / width, 195 / height);
    size = { width: width * scale, height: height * scale };
  } catch {
    return y;
  }
  const pad = 4;
  return table(doc, font, {
    startY: y + 14,
    theme: 'plain',
    head: [[{ content: invoice.labels.vehicle_photo, styles: { fontSize: 11 } }]],
    body: [['']],
    bodyStyles: { minCellHeight: size.height + 2 * pad, cellPadding: pad },
    rowPageBreak: 'avoid',
    didDrawCell: (data) => {
      if (data.section === 'body') doc.addImage(image, format, data.cell.x + pad, data.cell.y + pad, size.width, size.height);
    },
  });
}

/** The assessor's comments as typed, line breaks kept; nothing when there are none. */
function comments(doc: jsPDF, invoice: Invoice, font: PdfFont, y: number) {
  if (!invoice.comments) return y;
  return table(doc, font, {
    startY: y + 14,
    theme: 'plain',
    head: [[{ content: invoice.labels.comments, styles: { fontSize: 11 } }]],
    body: [[invoice.comments]],
  });
}

/** A new-damage-only quote: its note, and the damaged panels it leaves at 0 as pre-existing. */
function newDamage(doc: jsPDF, invoice: Invoice, font: PdfFont, y: number) {
  const nd = invoice.new_damage;
  if (!nd) return y;
  y = table(doc, font, { startY: y + 14, theme: 'plain', body: [[{ content: nd.note, styles: { fontSize: 11, fontStyle: font.bold } }]] });
  if (!nd.pre_existing.length) return y;
  return table(doc, font, {
    startY: y + 6,
    head: [[{ content: invoice.labels.pre_existing, colSpan: 2, styles: { fontSize: 11 } }]],
    body: nd.pre_existing.map((p) => [p.panel, p.total]),
    // As wide as its widest cell: an amount, or 'Only its new damage is priced' on one line.
    columnStyles: { 1: { halign: 'right', cellWidth: 'wrap' } },
  });
}

/** A supplement's block: each added, removed and changed line with its amount, and the grand total before and after. */
function supplement(doc: jsPDF, block: SupplementBlock | null | undefined, font: PdfFont, y: number) {
  if (!block) return y;
  return table(doc, font, {
    startY: y + 14,
    head: [[{ content: block.title, colSpan: 3, styles: { fontSize: 11 } }], block.head],
    body: block.rows,
    foot: [
      [
        { content: block.total[0], colSpan: 2 },
        { content: block.total[1], styles: { halign: 'right' } },
      ],
    ],
    columnStyles: { 0: { cellWidth: 130 }, 2: { halign: 'right', cellWidth: 90 } },
  });
}

/** A money column's narrowest width, and the description's (three surcharges take five money columns). */
const MONEY_WIDTH = 62;
const DESCRIPTION_WIDTH = 70;

/**
 * The width of the sections' money columns: MONEY_WIDTH, or the widest amount of any section (in the bold of the
 * totals row) when that is wider, so that no amount wraps and every section's columns still line up. The panel column
 * gives up what the description then lacks.
 */
function sectionWidths(doc: jsPDF, invoice: Invoice, font: PdfFont) {
  doc.setFont(font.family, font.bold);
  doc.setFontSize(FONT_SIZE);
  const amounts = invoice.sections.flatMap((s) => [
    s.total,
    ...s.lines.flatMap((l) => [l.repair_fee, l.aluminium_fee, l.metallic_fee, l.pearl_fee, l.total]),
  ]);
  const widest = Math.max(0, ...amounts.map((a) => doc.getTextWidth(a)));
  const money = Math.max(MONEY_WIDTH, Math.ceil(widest + 2 * CELL_PADDING + 1));
  return { money, panel: Math.max(90, Math.min(130, CONTENT_WIDTH - DESCRIPTION_WIDTH - 5 * money)) };
}

function sections(doc: jsPDF, invoice: Invoice, font: PdfFont, y: number) {
  const { labels } = invoice;
  const widths = sectionWidths(doc, invoice, font);
  const money = { halign: 'right' as const, cellWidth: widths.money };
  for (const section of invoice.sections) {
    if (!section.lines.length) continue;
    const fees = section.surcharges.map((s) => `${s}_fee` as const);
    const row = (l: InvoiceLine) => [l.panel, l.description, l.repair_fee, ...fees.map((f) => l[f]), l.total];
    const moneyColumns = Object.fromEntries(Array.from({ length: fees.length + 2 }, (_, i) => [i + 2, money]));
    const lastMoney = fees.length + 3;
    y = table(doc, font, {
      startY: y + 14,
      head: [
        [{ content: section.title, colSpan: fees.length + 4, styles: { fontSize: 11 } }],
        [section.subject, labels.description, labels.repair_fee, ...fees.map((f) => labels[f]), labels.amount],
      ],
      body: section.lines.map(row),
      foot: [
        [
          { content: labels.totals[section.key], colSpan: fees.length + 3 },
          { content: section.total, styles: { halign: 'right' } },
        ],
      ],
      // Every section's columns line up: the panel a fixed width, the money columns theirs, the description what is left.
      columnStyles: { 0: { cellWidth: widths.panel }, ...moneyColumns },
      rowPageBreak: 'avoid',
      didParseCell: (data) => {
        if (data.section === 'head' && data.row.index === 1 && data.column.index >= 2 && data.column.index <= lastMoney)
          data.cell.styles.halign = 'right';
      },
    });
  }
  return y;
}

function productsAndParts(doc: jsPDF, invoice: Invoice, font: PdfFont, y: number) {
  const { labels } = invoice;
  if (invoice.products.length)
    y = table(doc, font, {
      startY: y + 14,
      head: [[{ content: labels.products, colSpan: 2, styles: { fontSize: 11 } }], [labels.product, labels.price]],
      body: invoice.products.map((p) => [p.name, p.price]),
      columnStyles: { 1: { halign: 'right', cellWidth: 90 } },
      didParseCell: (data) => {
        if (data.section === 'head' && data.row.index === 1 && data.column.index === 1) data.cell.styles.halign = 'right';
      },
    });
  if (invoice.parts.length)
    y = table(doc, font, {
      startY: y + 14,
      head: [[labels.parts]],
      body: invoice.parts.map((p) => [p]),
    });
  return y;
}

function totals(doc: jsPDF, invoice: Invoice, font: PdfFont, y: number) {
  const width = 240;
  return table(doc, font, {
    startY: y + TOTALS_GAP,
    theme: 'plain',
    tableWidth: width,
    margin: { top: MARGIN, left: A4.width - MARGIN - width, right: MARGIN, bottom: BOTTOM },
    // Its heading, so the block reads on its own wherever the page breaks.
    head: [[{ content: invoice.labels.totals_title, colSpan: 2, styles: { fontSize: 11 } }]],
    body: invoice.totals.map((t) => [t.label, t.amount]),
    columnStyles: { 1: { halign: 'right' } },
    didParseCell: (data) => {
      if (data.section !== 'body') return;
      const key = invoice.totals[data.row.index]?.key;
      if (key === 'sub_total' || key === 'grand_total') data.cell.styles.fontStyle = font.bold;
      if (key === 'grand_total') {
        data.cell.styles.fontSize = 12;
        data.cell.styles.fillColor = [235, 237, 242];
      }
    },
  });
}

/** Page numbers and the estimate's title at the foot of every page. */
function footers(doc: jsPDF, invoice: Invoice, font: PdfFont) {
  const pages = doc.getNumberOfPages();
  doc
    .setFont(font.family, 'normal')
    .setFontSize(8)
    .setTextColor(...MUTED);
  for (let p = 1; p <= pages; p++) {
    doc.setPage(p);
    doc.text(invoice.title, MARGIN, A4.height - MARGIN / 2);
    doc.text(`${p} / ${pages}`, A4.width - MARGIN, A4.height - MARGIN / 2, { align: 'right' });
  }
}

/**
 * The quote's PDF: the estimate invoice on A4 in the invoice's language. The totals block is never left alone on the
 * last page: when it had to start a page of its own, the document is laid out again with the block before it kept on
 * the same page as the totals (when the two fit on one).
 */
export async function renderQuotePdf(invoice: Invoice, assets: QuotePdfAssets = {}): Promise<Buffer> {
  const first = layout(invoice, assets);
  const blocks = first.flow.blocks;
  const totalsBlock = blocks.at(-1);
  const before = blocks.at(-2);
  if (totalsBlock?.moved && before && !before.moved && before.page === totalsBlock.page - 1)
    return pdfBytes(layout(invoice, assets, { index: blocks.length - 2, height: totalsBlock.height + TOTALS_GAP }).doc);
  return pdfBytes(first.doc);
}

function layout(invoice: Invoice, assets: QuotePdfAssets, keep?: Flow['keep']) {
  const block = assets.supplement;
  const texts = block
    ? [...invoiceTexts(invoice), block.title, ...block.head, ...block.rows.flat(), ...block.total]
    : invoiceTexts(invoice);
  const { doc, font } = createPdf({ texts, title: invoice.title, language: invoice.language });
  const flow: Flow = { blocks: [], keep };
  flows.set(doc, flow);
  let y = header(doc, invoice, font, assets);
  y = vehicle(doc, invoice, font, y);
  y = photo(doc, invoice, font, assets.photo, y);
  y = newDamage(doc, invoice, font, y);
  y = supplement(doc, block, font, y);
  y = sections(doc, invoice, font, y);
  y = productsAndParts(doc, invoice, font, y);
  y = comments(doc, invoice, font, y);
  totals(doc, invoice, font, y);
  footers(doc, invoice, font);
  return { doc, flow };
}
