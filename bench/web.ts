import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM, CHROMIUM_FLAGS, type RunningServer } from './server';

/** Lighthouse performance targets, median of 3 runs on this machine. */
export const LIGHTHOUSE_TARGETS = {
  login: { desktop: 98, mobile: 90 },
  dashboard: { desktop: 95, mobile: 75 },
} as const;
const RUNS = 3;

export type Page = keyof typeof LIGHTHOUSE_TARGETS;
type Preset = 'desktop' | 'mobile';

export interface WireBytes {
  page: Page;
  /** Bytes received as the browser counts them (headers + body as sent, i.e. compressed), every request of the load. */
  total: number;
  /** The same for JavaScript only. */
  script: number;
  requests: number;
  /** Responses whose body was 1 kB or more and came without a Content-Encoding (images excepted). */
  uncompressed: string[];
}

export interface LighthouseResult {
  page: Page;
  preset: Preset;
  scores: number[];
  median: number;
  target: number;
  met: boolean;
  /** Lighthouse's total-byte-weight of the median run. */
  bytes: number;
  lcpMs: number;
  tbtMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * What Chromium receives for /login (signed out) and for the dashboard (signed in: `currentUser` in local storage,
 * as the app keeps it), on a cold cache: Network.loadingFinished's encodedDataLength of every request, which counts
 * the bytes as they came over the connection.
 */
export async function measureWireBytes(server: RunningServer, user: Record<string, unknown>): Promise<WireBytes[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const results: WireBytes[] = [];
    for (const page of ['login', 'dashboard'] as const) {
      const context = await browser.newContext();
      if (page === 'dashboard') await context.addInitScript((stored) => localStorage.setItem('currentUser', stored), JSON.stringify(user));
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Network.enable');
      const seen = new Map<string, { url: string; type: string; encoding?: string; mime: string; length: number }>();
      const result: WireBytes = { page, total: 0, script: 0, requests: 0, uncompressed: [] };
      cdp.on('Network.responseReceived', (e) => {
        const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
        seen.set(e.requestId, {
          url: e.response.url,
          type: e.type,
          encoding: headers['content-encoding'],
          mime: e.response.mimeType,
          length: Number(headers['content-length'] ?? NaN),
        });
      });
      cdp.on('Network.loadingFinished', (e) => {
        const r = seen.get(e.requestId);
        result.total += e.encodedDataLength;
        result.requests++;
        if (r?.type === 'Script') result.script += e.encodedDataLength;
        // Without Content-Length (chunked), the bytes received less a generous allowance for the headers.
        const body = r && Number.isFinite(r.length) ? r.length : e.encodedDataLength - 1024;
        if (r && !r.encoding && body >= 1024 && !r.mime.startsWith('image/')) result.uncompressed.push(new URL(r.url).pathname);
      });
      await tab.goto(`${server.url}${page === 'login' ? '/login' : '/'}`, { waitUntil: 'networkidle' });
      await tab
        .getByRole(page === 'login' ? 'button' : 'heading')
        .first()
        .waitFor();
      await tab.waitForTimeout(1000);
      results.push(result);
      await context.close();
    }
    return results;
  } finally {
    await browser.close();
  }
}

/** One Lighthouse navigation in a fresh Chromium (empty cache); signed in by writing `currentUser` first. */
async function lighthouseOnce(server: RunningServer, page: Page, preset: Preset, user: Record<string, unknown>) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS] });
  try {
    if (page === 'dashboard') {
      // Local storage is per origin: set it on a page of the origin that loads none of the app's files.
      const cdpBrowser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const tab = await cdpBrowser.contexts()[0].newPage();
      await tab.goto(`${server.url}/api/health`);
      await tab.evaluate((stored) => localStorage.setItem('currentUser', stored), JSON.stringify(user));
      await tab.close();
      await cdpBrowser.close();
    }
    const result = await lighthouse(
      `${server.url}${page === 'login' ? '/login' : '/'}`,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: page === 'dashboard' },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    const lhr = result?.lhr;
    if (!lhr || lhr.runtimeError) throw new Error(`lighthouse ${page} ${preset}: ${lhr?.runtimeError?.message ?? 'no result'}`);
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      bytes: lhr.audits['total-byte-weight']?.numericValue ?? NaN,
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      finalUrl: lhr.finalDisplayedUrl,
    };
  } finally {
    chrome.kill();
  }
}

/** Lighthouse (performance only), desktop and mobile presets, median of 3, for /login and the signed-in dashboard. */
export async function benchLighthouse(server: RunningServer, user: Record<string, unknown>, log: (s: string) => void) {
  const results: LighthouseResult[] = [];
  for (const page of ['login', 'dashboard'] as const) {
    for (const preset of ['desktop', 'mobile'] as const) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        // Lighthouse now and then loses the trace on a busy machine (NO_NAVSTART): such a run is repeated, twice at most.
        for (let attempt = 1; ; attempt++) {
          try {
            runs.push(await lighthouseOnce(server, page, preset, user));
            break;
          } catch (e) {
            if (attempt === 3) throw e;
            log(`  (${page} ${preset}: ${(e as Error).message}; again)`);
          }
        }
      }
      const wrongPage = runs.find((r) => new URL(r.finalUrl).pathname !== (page === 'login' ? '/login' : '/'));
      if (wrongPage) throw new Error(`lighthouse ${page} ${preset} ended on ${wrongPage.finalUrl}`);
      const scores = runs.map((r) => r.score);
      const mid = runs.find((r) => r.score === median(scores))!;
      const target = LIGHTHOUSE_TARGETS[page][preset];
      const r: LighthouseResult = {
        page,
        preset,
        scores,
        median: mid.score,
        target,
        met: mid.score >= target,
        bytes: mid.bytes,
        lcpMs: mid.lcpMs,
        tbtMs: mid.tbtMs,
      };
      log(
        `  ${page.padEnd(9)} ${preset.padEnd(7)} ${String(r.median).padStart(3)}  (runs ${scores.join(', ')}; LCP ${Math.round(r.lcpMs)} ms, ` +
          `TBT ${Math.round(r.tbtMs)} ms, ${(r.bytes / 1024).toFixed(0)} kB)  target >= ${target}: ${r.met ? 'met' : 'NOT MET'}`,
      );
      results.push(r);
    }
  }
  return results;
}
