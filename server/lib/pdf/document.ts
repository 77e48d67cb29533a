import { readFileSync } from 'node:fs';
import { jsPDF } from 'jspdf';
import { readTrueType, subsetTrueType, type TrueTypeFont } from './truetype';

/**
 * The server's PDFs (quotes, scan reports) on jspdf + jspdf-autotable: an A4 document in points with the font its text
 * needs. Text that the standard Helvetica can print (Windows-1252) uses it, with nothing embedded; anything else
 * (Japanese, other scripts) uses IPAex Gothic (server/assets/fonts/ipaexg.ttf, IPA licence beside it), embedded as a
 * subset of the glyphs used. The font file is read and parsed once per process, not once per document.
 */

/** A4 in points. */
export const A4 = { width: 595.28, height: 841.89 } as const;

/** The font family and the style for emphasis: IPAex Gothic has one weight, so its emphasis is size and colour. */
export interface PdfFont {
  family: string;
  bold: 'bold' | 'normal';
  embedded: boolean;
}

const HELVETICA: PdfFont = { family: 'helvetica', bold: 'bold', embedded: false };
const IPAEX: PdfFont = { family: 'IPAexGothic', bold: 'normal', embedded: true };

const FONT_FILE = new URL('../../assets/fonts/ipaexg.ttf', import.meta.url);
const VFS_NAME = 'ipaexg.ttf';

// Windows-1252's characters beyond Latin-1, which jspdf maps for the standard fonts.
const CP1252_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Whether Helvetica (WinAnsi) prints every character of these texts. */
export function winAnsiPrintable(texts: readonly string[]): boolean {
  for (const t of texts)
    for (const ch of t) {
      const c = ch.codePointAt(0)!;
      if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || c === 0x0a || CP1252_EXTRAS.has(ch)) continue;
      return false;
    }
  return true;
}

/** What jspdf's TrueType support keeps of a font (its metrics and, per document, the glyphs used). */
interface JspdfTrueType {
  glyIdsUsed: number[];
  toUnicode: Record<number, number>;
  Unicode: { encoding: object; kerning: object; widths: unknown[] };
  subset: { encode(glyphIds: number[], indexToLocFormat: number): Uint8Array | Buffer };
}
interface JspdfTrueTypeApi {
  TTFFont: { open(file: Uint8Array): JspdfTrueType; __scanquote?: true };
}

let parsed: { metrics: JspdfTrueType; font: TrueTypeFont } | null = null;

/** IPAex Gothic parsed once: jspdf's metrics (cmap, widths) and our table directory for the subset. */
function ipaex(open: (file: Uint8Array) => JspdfTrueType) {
  if (!parsed) {
    const data = readFileSync(FONT_FILE);
    parsed = { metrics: open(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)), font: readTrueType(data) };
  }
  return parsed;
}

// jspdf reads a font from its virtual file system on every addFont: it decodes and parses all 6 MB each time. The file
// we give it is this marker (it starts with the TrueType signature, so jspdf takes it as binary); its font parser,
// handed the marker, answers a per-document view of the font parsed once, with our subset writer.
const MARKER = '\x00\x01\x00\x00scanquote:ipaexg';
const isMarker = (file: Uint8Array) =>
  file.length === MARKER.length && Array.prototype.every.call(file, (b: number, i: number) => b === MARKER.charCodeAt(i));

function installFontLoader() {
  const api = jsPDF.API as unknown as JspdfTrueTypeApi;
  if (api.TTFFont.__scanquote) return;
  const open = api.TTFFont.open.bind(api.TTFFont);
  api.TTFFont.open = (file: Uint8Array) => {
    if (!isMarker(file)) return open(file);
    const { metrics, font } = ipaex(open);
    // A shallow copy sharing the parsed tables (jspdf checks some with hasOwnProperty), with its own glyph bookkeeping.
    const view: JspdfTrueType = Object.assign(Object.create(Object.getPrototypeOf(metrics) as object) as JspdfTrueType, metrics, {
      glyIdsUsed: [0],
      toUnicode: {},
      Unicode: { encoding: {}, kerning: {}, widths: [] },
      subset: { encode: (ids: number[]) => subsetTrueType(font, ids) },
    });
    return view;
  };
  api.TTFFont.__scanquote = true;
}

export interface PdfDocument {
  doc: jsPDF;
  font: PdfFont;
}

/**
 * A new A4 document whose font prints all of `texts` (every text it will write). `title` goes in the document's
 * properties; `language` ('en', 'ja') too.
 */
export function createPdf(opts: { texts: readonly string[]; title: string; language?: string }): PdfDocument {
  const doc = new jsPDF({ unit: 'pt', format: 'a4', compress: true, putOnlyUsedFonts: true });
  let font = HELVETICA;
  if (!winAnsiPrintable([opts.title, ...opts.texts])) {
    installFontLoader();
    doc.addFileToVFS(VFS_NAME, MARKER);
    doc.addFont(VFS_NAME, IPAEX.family, 'normal');
    font = IPAEX;
  }
  doc.setFont(font.family, 'normal');
  // jspdf-autotable asks for the font list for every cell it styles, and jspdf rebuilds it on each call; the fonts are
  // all added by now, so this document answers the same list every time.
  const fonts = doc.getFontList();
  doc.getFontList = () => fonts;
  doc.setProperties({ title: opts.title, creator: 'ScanQuote' });
  if (opts.language) doc.setLanguage(opts.language as Parameters<jsPDF['setLanguage']>[0]);
  return { doc, font };
}

/** The document's bytes. */
export function pdfBytes(doc: jsPDF): Buffer {
  return Buffer.from(doc.output('arraybuffer'));
}
