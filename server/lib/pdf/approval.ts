import { autoTable } from 'jspdf-autotable';
import { A4, createPdf, pdfBytes } from './document';

/**
 * The signed "Approved estimate": the lines the customer approved and declined (with the reasons), the approved
 * total, the signer's typed name, the time and the drawn signature. English only: it records the customer's answer
 * as given, beside the estimate's own PDF in the agent's language.
 */

const MARGIN = 40;
const PRIMARY: [number, number, number] = [12, 24, 57];

export interface ApprovedEstimate {
  quoteId: number;
  agentName: string | null;
  registration: string | null;
  vehicle: string;
  lines: { label: string; repairType: string; amount: string; decision: 'approved' | 'declined'; reason: string | null }[];
  totals: { label: string; amount: string }[];
  signerName: string;
  /** The time of the answer as printed (Melbourne wall clock with its zone). */
  signedAt: string;
  signature: Buffer;
}

export function renderApprovedEstimatePdf(e: ApprovedEstimate): Buffer {
  const title = `Approved estimate #${e.quoteId}`;
  const texts = [
    e.agentName ?? '',
    e.registration ?? '',
    e.vehicle,
    e.signerName,
    e.signedAt,
    ...e.lines.flatMap((l) => [l.label, l.repairType, l.amount, l.reason ?? '']),
    ...e.totals.flatMap((t) => [t.label, t.amount]),
  ];
  const { doc, font } = createPdf({ texts, title, language: 'en' });
  doc
    .setFont(font.family, font.bold)
    .setFontSize(18)
    .setTextColor(...PRIMARY);
  doc.text('Approved estimate', MARGIN, MARGIN + 12);
  doc.setFont(font.family, 'normal').setFontSize(10).setTextColor(20);
  const facts = [
    `Estimate #${e.quoteId}${e.agentName ? ` from ${e.agentName}` : ''}`,
    `Vehicle: ${[e.registration, e.vehicle].filter(Boolean).join(' – ')}`,
  ];
  facts.forEach((t, i) => doc.text(t, MARGIN, MARGIN + 34 + i * 14));
  autoTable(doc, {
    startY: MARGIN + 34 + facts.length * 14 + 6,
    margin: { left: MARGIN, right: MARGIN },
    styles: { font: font.family, fontStyle: 'normal', fontSize: 9, cellPadding: 4, textColor: 20 },
    headStyles: { fillColor: PRIMARY, textColor: 255, fontStyle: font.bold },
    head: [['Line', 'Repair', 'Amount', 'Decision', 'Reason']],
    body: e.lines.map((l) => [l.label, l.repairType, l.amount, l.decision === 'approved' ? 'Approved' : 'Declined', l.reason ?? '']),
    columnStyles: { 2: { halign: 'right' } },
  });
  autoTable(doc, {
    theme: 'plain',
    tableWidth: 240,
    margin: { left: A4.width - MARGIN - 240, right: MARGIN },
    styles: { font: font.family, fontStyle: 'normal', fontSize: 10, cellPadding: 3, textColor: 20 },
    body: e.totals.map((t) => [t.label, t.amount]),
    columnStyles: { 1: { halign: 'right' } },
  });
  let y = (doc as unknown as { lastAutoTable: { finalY: number } }).lastAutoTable.finalY + 24;
  if (y + 140 > A4.height - MARGIN) {
    doc.addPage();
    y = MARGIN;
  }
  doc.setFont(font.family, 'normal').setFontSize(10);
  doc.text(`Signed by: ${e.signerName}`, MARGIN, y);
  doc.text(`Signed at: ${e.signedAt}`, MARGIN, y + 14);
  try {
    doc.addImage(e.signature, 'PNG', MARGIN, y + 24, 200, 80);
  } catch {
    // An image jspdf cannot read leaves the typed name and the time as the record.
  }
  return pdfBytes(doc);
}
