import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A PDF's text as a reader sees it: poppler's `pdftotext -layout` (Debian poppler-utils; scripts/test-all.sh installs
 * it), a row's cells on one line. Each line is trimmed, runs of spaces become one and none is kept around a slash
 * (pdftotext keeps or drops those by the glyphs' spacing). With `page`, that page's text alone (counted from 1).
 */
export function pdfLines(pdf: Buffer, page?: number): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-text-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, pdf);
    const pages = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
    return execFileSync('pdftotext', ['-layout', ...pages, file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .split('\n')
      .map((l) =>
        l
          .trim()
          .replace(/\s+/g, ' ')
          .replace(/ ?\/ ?/g, '/'),
      )
      .filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
