/** One CSV cell: quoted when needed, and a leading = + - @ neutralised so a spreadsheet never runs it as a formula. */
export function csvCell(v: string | number | null | undefined) {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A CSV file's text: a BOM (spreadsheet programs then read UTF-8 names right), the header, CRLF rows. */
export const csvText = (header: readonly string[], rows: readonly (readonly (string | number | null)[])[]) =>
  `\uFEFF${[header, ...rows].map((cells) => cells.map(csvCell).join(',')).join('\r\n')}\r\n`;
