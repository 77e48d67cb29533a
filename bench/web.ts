import { chromium, type Browser, type BrowserContextOptions, type Page as PlaywrightPage } from '@playwright/test';
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
export type Preset = 'desktop' | 'mobile';

export interface WireBytes extends LoadBytes {
  page: Page;
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

/** Bytes a cold-cache load of a page received: every request's count, all of them and by kind. */
export interface LoadBytes {
  total: number;
  script: number;
  image: number;
  requests: number;
  /** Responses whose body was 1 kB or more and came without a Content-Encoding (images excepted). */
  uncompressed: string[];
}

/**
 * What Chromium receives loading `path` on a cold cache (signed in when `user` is given: `currentUser` in local
 * storage, as the app keeps it), in a context made with `device`, until `ready` resolves and a second more has passed: Network.loadingFinished's
 * encodedDataLength of every request, which counts the bytes as they came over the connection.
 */
export async function loadBytes(
  browser: Browser,
  server: RunningServer,
  path: string,
  user: Record<string, unknown> | null,
  ready: (tab: PlaywrightPage) => Promise<unknown>,
  device: BrowserContextOptions = {},
): Promise<LoadBytes> {
  const context = await browser.newContext(device);
  try {
    if (user) await context.addInitScript((stored) => localStorage.setItem('currentUser', stored), JSON.stringify(user));
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Network.enable');
    const seen = new Map<string, { url: string; type: string; encoding?: string; mime: string; length: number }>();
    const result: LoadBytes = { total: 0, script: 0, image: 0, requests: 0, uncompressed: [] };
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
      if (r?.type === 'Image' || r?.mime.startsWith('image/')) result.image += e.encodedDataLength;
      // Without Content-Length (chunked), the bytes received less a generous allowance for the headers.
      const body = r && Number.isFinite(r.length) ? r.length : e.encodedDataLength - 1024;
      if (r && !r.encoding && body >= 1024 && !r.mime.startsWith('image/') && !r.mime.startsWith('video/'))
        result.uncompressed.push(new URL(r.url).pathname);
    });
    await tab.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
    await ready(tab);
    await tab.waitForTimeout(1000);
    return result;
  } finally {
    await context.close();
  }
}

/** What Chromium receives for /login (signed out) and for the dashboard (signed in), on a cold cache. */
export async function measureWireBytes(server: RunningServer, user: Record<string, unknown>): Promise<WireBytes[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const results: WireBytes[] = [];
    for (const page of ['login', 'dashboard'] as const) {
      const bytes = await loadBytes(browser, server, page === 'login' ? '/login' : '/', page === 'login' ? null : user, (tab) =>
        tab
          .getByRole(page === 'login' ? 'button' : 'heading')
          .first()
          .waitFor(),
      );
      results.push({ page, ...bytes });
    }
    return results;
  } finally {
    await browser.close();
  }
}

/** One Lighthouse run's figures. */
export interface LighthouseRun {
  score: number;
  bytes: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  finalUrl: string;
}

/** Local storage a visitor has: none when signed out; `currentUser` as the app keeps it when signed in; a kiosk token. */
export type VisitorStorage = Record<string, string>;
export const signedIn = (user: Record<string, unknown>): VisitorStorage => ({ currentUser: JSON.stringify(user) });

/**
 * Lighthouse's throttling: 'simulate' (its default, which the targets are judged on) or, with
 * BENCH_LIGHTHOUSE_THROTTLING=devtools, the slowed CPU and network applied to the page as it loads, a reference for
 * how much of a simulated figure comes from this machine's load (docs/performance.md).
 */
export const THROTTLING = process.env.BENCH_LIGHTHOUSE_THROTTLING === 'devtools' ? 'devtools' : 'simulate';

/** One Lighthouse navigation to `path` in a fresh Chromium (empty cache), with the visitor's local storage written first. */
export async function lighthouseOnce(server: RunningServer, path: string, preset: Preset, storage: VisitorStorage): Promise<LighthouseRun> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS] });
  const stored = Object.entries(storage);
  try {
    if (stored.length) {
      // Local storage is per origin: set it on a page of the origin that loads none of the app's files.
      const cdpBrowser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const tab = await cdpBrowser.contexts()[0].newPage();
      await tab.goto(`${server.url}/api/health`);
      await tab.evaluate((entries) => entries.forEach(([k, v]) => localStorage.setItem(k, v)), stored);
      await tab.close();
      await cdpBrowser.close();
    }
    const result = await lighthouse(
      `${server.url}${path}`,
      {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        disableStorageReset: stored.length > 0,
        throttlingMethod: THROTTLING,
      },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    const lhr = result?.lhr;
    if (!lhr || lhr.runtimeError) throw new Error(`lighthouse ${path} ${preset}: ${lhr?.runtimeError?.message ?? 'no result'}`);
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      bytes: lhr.audits['total-byte-weight']?.numericValue ?? NaN,
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
      finalUrl: lhr.finalDisplayedUrl,
    };
  } finally {
    chrome.kill();
  }
}

/** `RUNS` Lighthouse runs of `path`, each repeated up to twice when Lighthouse loses the trace; the run of the median score. */
export async function lighthouseMedian(
  server: RunningServer,
  path: string,
  preset: Preset,
  storage: VisitorStorage,
  log: (s: string) => void,
) {
  const runs: LighthouseRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Lighthouse now and then loses the trace on a busy machine (NO_NAVSTART): such a run is repeated, twice at most.
    for (let attempt = 1; ; attempt++) {
      try {
        runs.push(await lighthouseOnce(server, path, preset, storage));
        break;
      } catch (e) {
        if (attempt === 3) throw e;
        log(`  (${path} ${preset}: ${(e as Error).message}; again)`);
      }
    }
  }
  const wrongPage = runs.find((r) => new URL(r.finalUrl).pathname !== path);
  if (wrongPage) throw new Error(`lighthouse ${path} ${preset} ended on ${wrongPage.finalUrl}`);
  const scores = runs.map((r) => r.score);
  return { scores, mid: runs.find((r) => r.score === median(scores))! };
}

/** Lighthouse (performance only), desktop and mobile presets, median of 3, for /login and the signed-in dashboard. */
export async function benchLighthouse(server: RunningServer, user: Record<string, unknown>, log: (s: string) => void) {
  const results: LighthouseResult[] = [];
  for (const page of ['login', 'dashboard'] as const) {
    for (const preset of ['desktop', 'mobile'] as const) {
      const { scores, mid } = await lighthouseMedian(
        server,
        page === 'login' ? '/login' : '/',
        preset,
        page === 'login' ? {} : signedIn(user),
        log,
      );
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
