import { chromium } from '@playwright/test';
import { type BenchCheck } from './report';
import { CHROMIUM, CHROMIUM_FLAGS, type RunningServer } from './server';
import { lighthouseMedian, loadBytes, type Preset } from './web';

/** The scan page's targets: Lighthouse performance (median of 3) and cumulative layout shift of that run. */
export const SCAN_PAGE_TARGETS = { desktop: 95, mobile: 90, cls: 0.05 } as const;

/** Lighthouse's mobile preset's screen (Moto G Power), for the bytes a phone receives. */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;

/** The first uploaded demo scan of `type` with images, through the API as the signed-in user. */
async function demoScan(server: RunningServer, token: string, type: string): Promise<number> {
  const get = async (path: string) => {
    const res = await fetch(`${server.url}/api/scan/${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
    return (await res.json()) as { data?: unknown; items?: unknown };
  };
  const { items } = (await get(`scans?type=${type}&status=uploaded&per_page=25&page=1`)) as { items: { id: number }[] };
  for (const { id } of items) {
    const { data } = await get(`scans/${id}`);
    if ((JSON.stringify(data).match(/\/api\/user\/files\/[0-9a-f]{32}\.(png|jpg|webp)/g) ?? []).length > 3) return id;
  }
  throw new Error(`no uploaded demo ${type} scan with images`);
}

/**
 * `/scans/{id}` of a demo arch scan and a demo tyre scan on the production server, signed in as the demo admin: the
 * bytes a desktop and a phone receive on a cold cache, and Lighthouse desktop and mobile with LCP and CLS.
 */
export async function benchScanPage(server: RunningServer, user: Record<string, unknown> & { token: string }, log: (s: string) => void) {
  const checks: BenchCheck[] = [];
  const scans = [
    { name: 'arch scan', id: await demoScan(server, user.token, 'arch') },
    { name: 'tyre scan', id: await demoScan(server, user.token, 'tire') },
  ];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    for (const scan of scans) {
      const path = `/scans/${scan.id}`;
      for (const [device, options] of [
        ['desktop', {}],
        ['phone', PHONE],
      ] as const) {
        const b = await loadBytes(
          browser,
          server,
          path,
          user,
          (tab) => tab.getByRole('heading', { name: 'Car Details' }).waitFor(),
          options,
        );
        log(`  ${scan.name} ${path} ${device.padEnd(7)} ${kb(b.total).padStart(7)} in ${b.requests} requests (images ${kb(b.image)})`);
      }
    }
  } finally {
    await browser.close();
  }
  for (const scan of scans) {
    for (const preset of ['desktop', 'mobile'] as Preset[]) {
      const path = `/scans/${scan.id}`;
      const { scores, mid } = await lighthouseMedian(server, path, preset, user, log);
      const target = SCAN_PAGE_TARGETS[preset];
      log(
        `  ${scan.name} ${preset.padEnd(7)} ${String(mid.score).padStart(3)}  (runs ${scores.join(', ')}; LCP ${Math.round(mid.lcpMs)} ms, ` +
          `CLS ${mid.cls.toFixed(3)}, TBT ${Math.round(mid.tbtMs)} ms, ${kb(mid.bytes)})  target >= ${target}, CLS < ${SCAN_PAGE_TARGETS.cls}`,
      );
      checks.push({
        name: `${scan.name} lighthouse ${preset}`,
        value: String(mid.score),
        target: `>= ${target}`,
        met: mid.score >= target,
      });
      checks.push({
        name: `${scan.name} CLS ${preset}`,
        value: mid.cls.toFixed(3),
        target: `< ${SCAN_PAGE_TARGETS.cls}`,
        met: mid.cls < SCAN_PAGE_TARGETS.cls,
      });
    }
  }
  return checks;
}
