import { chromium } from '@playwright/test';
import { loadAverage, type BenchCheck } from './report';
import { demoScan } from './scan-page';
import { CHROMIUM, CHROMIUM_FLAGS, type RunningServer } from './server';
import { lighthouseMedian, signedIn, THROTTLING, type VisitorStorage } from './web';

/** Every main screen's targets: Lighthouse performance (median of 3) and the cumulative layout shift of that run. */
export const SCREEN_TARGETS = { desktop: 95, mobile: 90, cls: 0.05 } as const;
/** The scan page's first damage chip, on a desktop screen without throttling (median of 3). */
export const FIRST_CHIP_TARGET_MS = 1000;
const RUNS = 3;

type User = Record<string, unknown> & { token: string };

interface Screen {
  name: string;
  path: string;
  /** Local storage the screen's visitor has (the signed-in user, a kiosk token). */
  storage: VisitorStorage;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function api<T>(server: RunningServer, token: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${server.url}/api/${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status}`);
  return (await res.json()) as T;
}

/** A demo arch scan and tyre scan with images, and a saved quote. */
async function demoRecords(server: RunningServer, token: string) {
  const { items } = await api<{ items: { id: number; scan_id: number }[] }>(server, token, 'quote/quotes?per_page=1&page=1');
  if (!items.length) throw new Error('no demo quote');
  return { arch: await demoScan(server, token, 'arch'), tyre: await demoScan(server, token, 'tire'), quote: items[0] };
}

/** A kiosk token for the demo agent's customer portal, as the pincode dialog stores it. */
async function kioskToken(server: RunningServer, agentId: number) {
  const res = await fetch(`${server.url}/api/agent/agents/${agentId}/portal/enrol`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pincode: '246810' }),
  });
  if (!res.ok) throw new Error(`portal enrol: ${res.status}`);
  const { data } = (await res.json()) as { data: { kiosk_token: string; expires_at: string } };
  return JSON.stringify({ token: data.kiosk_token, expires_at: data.expires_at });
}

/**
 * The screens a user spends the day in, each as its visitor has it: the demo admin with the terms accepted on every
 * signed-in screen, and an untouched demo user on the dashboard with the terms dialog over it.
 */
export async function mainScreens(server: RunningServer, admin: User, newcomer: User): Promise<Screen[]> {
  await api(server, admin.token, 'user/auth/consent', { method: 'POST', body: '{}' });
  const admitted = signedIn({ ...admin, consent: 1 });
  const { arch, tyre, quote } = await demoRecords(server, admin.token);
  return [
    { name: 'dashboard', path: '/', storage: admitted },
    { name: 'dashboard, terms dialog', path: '/', storage: signedIn(newcomer) },
    { name: 'scans', path: '/scans', storage: admitted },
    { name: 'scan page (arch)', path: `/scans/${arch}`, storage: admitted },
    { name: 'scan page (tyres)', path: `/scans/${tyre}`, storage: admitted },
    { name: 'Quote Generation', path: `/quotes/${quote.scan_id}`, storage: admitted },
    { name: 'quotes', path: '/quotes', storage: admitted },
    { name: 'invoice', path: `/quotes/${quote.id}/invoice`, storage: admitted },
    { name: 'customer portal', path: '/customer-portal/1', storage: { 'kioskToken.1': await kioskToken(server, 1) } },
  ];
}

/** Time from navigation to the scan page's first damage chip on screen, desktop, no throttling, cold cache. */
async function firstChipMs(server: RunningServer, screen: Screen) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1350, height: 940 } });
      await context.addInitScript((entries) => entries.forEach(([k, v]) => localStorage.setItem(k, v)), Object.entries(screen.storage));
      const tab = await context.newPage();
      await tab.goto(`${server.url}${screen.path}`, { waitUntil: 'commit' });
      // A chip is a button named '<panel>: <n> dent(s)' or '… scratch(es)'.
      const at = await tab.waitForFunction(
        () => {
          const chip = [...document.querySelectorAll('button[aria-label]')].find((b) =>
            /: \d+ (dent|scratch)/.test(b.getAttribute('aria-label') ?? ''),
          );
          return chip && chip.getBoundingClientRect().height > 0 ? performance.now() : null;
        },
        null,
        { polling: 'raf', timeout: 30_000 },
      );
      times.push((await at.jsonValue()) ?? NaN);
      await context.close();
    }
    return median(times);
  } finally {
    await browser.close();
  }
}

/** Lighthouse desktop and mobile (median of 3, with CLS) for every main screen, and the scan page's first chip. */
export async function benchScreens(server: RunningServer, all: Screen[], log: (s: string) => void): Promise<BenchCheck[]> {
  const checks: BenchCheck[] = [];
  // BENCH_SCREENS=portal,scans keeps the screens whose name contains one of the words (all by default).
  const words = (process.env.BENCH_SCREENS ?? '').split(',').filter(Boolean);
  const screens = words.length ? all.filter((s) => words.some((w) => s.name.includes(w))) : all;
  log(`  (${loadAverage()}; Lighthouse throttling: ${THROTTLING})`);
  for (const screen of screens) {
    for (const preset of ['desktop', 'mobile'] as const) {
      const { scores, mid } = await lighthouseMedian(server, screen.path, preset, screen.storage, log);
      const target = SCREEN_TARGETS[preset];
      const met = mid.score >= target && mid.cls < SCREEN_TARGETS.cls;
      log(
        `  ${screen.name.padEnd(24)} ${preset.padEnd(7)} ${String(mid.score).padStart(3)} (target >= ${target})  CLS ${mid.cls.toFixed(3)} ` +
          `(target < ${SCREEN_TARGETS.cls})  LCP ${Math.round(mid.lcpMs)} ms  TBT ${Math.round(mid.tbtMs)} ms  runs ${scores.join(', ')}  ${met ? 'met' : 'NOT MET'}`,
      );
      checks.push({
        name: `${screen.name} ${preset}`,
        value: `${mid.score}, CLS ${mid.cls.toFixed(3)}`,
        target: `>= ${target}, CLS < ${SCREEN_TARGETS.cls}`,
        met,
      });
    }
  }
  for (const screen of screens.filter((s) => s.name === 'scan page (arch)')) {
    const chip = await firstChipMs(server, screen);
    const met = chip <= FIRST_CHIP_TARGET_MS;
    log(
      `  ${screen.name} first damage chip on a desktop: ${Math.round(chip)} ms (target <= ${FIRST_CHIP_TARGET_MS} ms)  ${met ? 'met' : 'NOT MET'}`,
    );
    checks.push({
      name: `${screen.name} first damage chip`,
      value: `${Math.round(chip)} ms`,
      target: `<= ${FIRST_CHIP_TARGET_MS} ms`,
      met,
    });
  }
  return checks;
}
