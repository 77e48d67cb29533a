import type { jsPDF } from 'jspdf';
import { autoTable, type RowInput, type UserOptions } from 'jspdf-autotable';
import { invoiceTexts, type Invoice, type InvoiceLine } from '../../../src/domain/invoice';
import { A4, createPdf, pdfBytes, type PdfFont } from './document';

/**
 * The quote's PDF (issue 10 "The PDF"): the estimate invoice on A4, laid out from the invoice model alone
 * (src/domain/invoice.ts), so it shows the same lines and figures as the invoice screen. In the invoice's language;
 * Japanese text embeds IPAex Gothic (./document.ts).
 */

const MARGIN = 40;
const PRIMARY: [number, number, number] = [12, 24, 57]; // #0C1839 (DECISIONS: primary colour)
const MUTED: [number, number, number] = [90, 90, 90];
const CONTENT_WIDTH = A4.width - 2 * MARGIN;

/** The agent's logo for the PDF: PNG or JPEG bytes (./logo.ts makes them); without one the agent's name is printed. */
export interface QuotePdfAssets {
  logo?: Buffer | null;
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

/** Shared table look: the document's font, the primary colour on the head, emphasis by the font's bold style. */
function table(doc: jsPDF, font: PdfFont, opts: UserOptions) {
  autoTable(doc, {
    theme: 'striped',
    margin: { left: MARGIN, right: MARGIN, bottom: MARGIN + 14 },
    styles: { font: font.family, fontStyle: 'normal', fontSize: 9, cellPadding: 4, textColor: 20 },
    headStyles: { fillColor: PRIMARY, textColor: 255, fontStyle: font.bold },
    footStyles: { fillColor: [235, 237, 242], textColor: 20, fontStyle: font.bold },
    ...opts,
  });
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

function sections(doc: jsPDF, invoice: Invoice, font: PdfFont, y: number) {
  const { labels } = invoice;
  const fees = invoice.surcharges.map((s) => `${s}_fee` as const);
  const money = { halign: 'right' as const, cellWidth: 62 };
  for (const section of invoice.sections) {
    if (!section.lines.length) continue;
    const row = (l: InvoiceLine) => [l.panel, l.description, l.repair_fee, ...fees.map((f) => l[f]), l.total];
    const moneyColumns = Object.fromEntries(Array.from({ length: fees.length + 2 }, (_, i) => [i + 2, money]));
    const lastMoney = fees.length + 3;
    y = table(doc, font, {
      startY: y + 14,
      head: [
        [{ content: section.title, colSpan: fees.length + 4, styles: { fontSize: 11 } }],
        [labels.panel, labels.description, labels.repair_fee, ...fees.map((f) => labels[f]), labels.amount],
      ],
      body: section.lines.map(row),
      foot: [
        [
          { content: labels.totals[section.key], colSpan: fees.length + 3 },
          { content: section.total, styles: { halign: 'right' } },
        ],
      ],
      // Every section's columns line up: the panel a fixed width, the description what is left.
      columnStyles: { 0: { cellWidth: 130 }, ...moneyColumns },
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
    startY: y + 16,
    theme: 'plain',
    tableWidth: width,
    margin: { left: A4.width - MARGIN - width, right: MARGIN, bottom: MARGIN + 14 },
    body: invoice.totals.map((t) => [t.label, t.amount]),
    columnStyles: { 1: { halign: 'right' } },
    pageBreak: 'avoid',
    didParseCell: (data) => {
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

/** The quote's PDF: the estimate invoice on A4 in the invoice's language. */
export async function renderQuotePdf(invoice: Invoice, assets: QuotePdfAssets = {}): Promise<Buffer> {
  const { doc, font } = createPdf({ texts: invoiceTexts(invoice), title: invoice.title, language: invoice.language });
  let y = header(doc, invoice, font, assets);
  y = vehicle(doc, invoice, font, y);
  y = sections(doc, invoice, font, y);
  y = productsAndParts(doc, invoice, font, y);
  totals(doc, invoice, font, y);
  footers(doc, invoice, font);
  return pdfBytes(doc);
}
