/**
 * A minimal PDF writer for text-only documents (scan reports): A4 pages, the standard Helvetica fonts
 * (no embedding), lines laid out top to bottom with a new page when one fills. pdfmake is not a dependency;
 * this is enough for a report of figures and keeps the server free of a font toolchain.
 */
export interface PdfLine {
  text: string;
  /** Font size in points (default 11). */
  size?: number;
  bold?: boolean;
  /** Extra space before the line, in points. */
  gap?: number;
  /** Indent from the left margin, in points. */
  indent?: number;
}

const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 56;

/** WinAnsi text in a PDF string literal: parentheses and backslashes escaped, anything outside Latin-1 as '?'. */
const pdfString = (s: string) => {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '(' || ch === ')' || ch === '\\') out += `\\${ch}`;
    else if (code === 0x20ac) out += '\\200';
    else if (code < 0x20 || code > 0xff) out += '?';
    else if (code > 0x7e) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return `(${out})`;
};

/** Lays the lines out on pages and returns the PDF file's bytes. */
export function textPdf(lines: PdfLine[], opts: { title?: string } = {}): Buffer {
  const pages: string[][] = [[]];
  let y = PAGE_HEIGHT - MARGIN;
  for (const line of lines) {
    const size = line.size ?? 11;
    const step = size * 1.35 + (line.gap ?? 0);
    if (y - step < MARGIN) {
      pages.push([]);
      y = PAGE_HEIGHT - MARGIN;
    }
    y -= step;
    const font = line.bold ? '/F2' : '/F1';
    pages[pages.length - 1].push(
      `BT ${font} ${size} Tf ${(MARGIN + (line.indent ?? 0)).toFixed(2)} ${y.toFixed(2)} Td ${pdfString(line.text)} Tj ET`,
    );
  }

  // Objects: 1 catalog, 2 page tree, 3 and 4 fonts, 5 info, then a page and its content stream per page.
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 6 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] = `<< /Producer (ScanQuote) ${opts.title ? `/Title ${pdfString(opts.title)}` : ''} >>`;
  pages.forEach((ops, i) => {
    const content = ops.join('\n');
    objects[pageIds[i]] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`;
    objects[pageIds[i] + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });

  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
