import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { renderQuotePdf } from '../server/lib/pdf/quote';
import { buildInvoice, type Invoice } from '../src/domain/invoice';
import { toCents } from '../src/domain/money';
import { priceQuote } from '../src/domain/pricing';
import { fortyPanelQuote } from './pricing';
import { timing } from './report';

/**
 * The quote's PDF (target: saving a quote with its PDF p95 < 300 ms): `renderQuotePdf` alone, from the
 * invoice model to the bytes, for the pricing bench's 40-panel quote (54 lines, all surcharges, four products) with
 * the agent's logo, in English (Helvetica) and in Japanese (IPAex Gothic subset embedded). The PDF gets at most half of the
 * save's budget, so the target here is p95 < 150 ms; the save itself (database, storage) is the quote service's.
 */

export const QUOTE_PDF_P95_TARGET_MS = 150;

export interface QuotePdfBenchResult {
  language: string;
  p50: number;
  p95: number;
  bytes: number;
  met: boolean;
}

function fortyPanelInvoice(language: 'en' | 'ja'): Invoice {
  const input = fortyPanelQuote();
  const pricing = {
    ...input,
    panels: input.panels.map((p, i) => ({ ...p, label: language === 'ja' ? `パネル ${i + 1}` : `Panel ${i + 1}` })),
    products: input.products.map((p, i) => ({ text: language === 'ja' ? `商品 ${i + 1}` : `Product ${i + 1}`, price: toCents(p.price) })),
  };
  return buildInvoice({
    number: 123456,
    date: new Date(),
    language,
    currency: language === 'ja' ? '¥' : '$',
    agent: {
      name: language === 'ja' ? '東京デントリペア' : 'Dent Doctors',
      phone: '0412345678',
      abn: '51824460393',
      address: '1 Collins St, Melbourne VIC 3000',
      email: 'quotes@dentdoctors.example',
    },
    vehicle: { registration: 'ABC123', make: 'Toyota', model: 'Corolla', colour: 'White', body_type: 'Sedan', scanned_at: new Date() },
    assessor: 'Alex Assessor',
    client: 'Acme Insurance',
    pricing,
    result: priceQuote(input),
    parts: ['Clip', 'Emblem', 'Moulding'],
  });
}

export async function benchQuotePdf(opts: { runs?: number; log?: (s: string) => void } = {}): Promise<QuotePdfBenchResult[]> {
  const { runs = 60, log = console.log } = opts;
  // The logo as pdfLogo (server/lib/pdf/logo.ts) prepares an uploaded one: a JPEG flattened on white.
  const logo = await sharp({ create: { width: 400, height: 120, channels: 4, background: { r: 12, g: 24, b: 57, alpha: 1 } } })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 90 })
    .toBuffer();
  const results: QuotePdfBenchResult[] = [];
  for (const language of ['en', 'ja'] as const) {
    const invoice = fortyPanelInvoice(language);
    // Warm up (the first Japanese document also reads and parses the font once for the process).
    let bytes = 0;
    for (let i = 0; i < 5; i++) bytes = (await renderQuotePdf(invoice, { logo })).length;
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await renderQuotePdf(invoice, { logo });
      samples.push(performance.now() - t0);
    }
    const { p50, p95 } = timing(samples);
    const r = { language, p50, p95, bytes, met: p95 < QUOTE_PDF_P95_TARGET_MS };
    log(
      `  renderQuotePdf, 40 panels, ${language === 'ja' ? 'Japanese (IPAex subset)' : 'English (Helvetica)'}: p50 ${r.p50.toFixed(1)} ms, ` +
        `p95 ${r.p95.toFixed(1)} ms over ${runs} runs, ${(bytes / 1024).toFixed(0)} kB  (target p95 < ${QUOTE_PDF_P95_TARGET_MS} ms: ${r.met ? 'met' : 'NOT MET'})`,
    );
    results.push(r);
  }
  return results;
}

// `npx tsx bench/quote-pdf.ts` runs this section alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchQuotePdf();
