import { chromium } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS, type RunningServer } from './server';
import { loadBytes } from './web';

/** Lighthouse's mobile preset's screen (Moto G Power), for the bytes a phone receives. */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;

/** The first uploaded demo scan of `type` with images, through the API as the signed-in user. */
export async function demoScan(server: RunningServer, token: string, type: string): Promise<number> {
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
 * bytes a desktop and a phone receive on a cold cache (the screens bench gives their Lighthouse scores and CLS).
 */
export async function scanPageBytes(server: RunningServer, user: Record<string, unknown> & { token: string }, log: (s: string) => void) {
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
}
