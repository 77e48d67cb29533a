import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from './tests/chromium';
import { e2eServers } from './tests/e2e/server-env';

/**
 * Two servers, each on its own throw-away demo database, each with one worker running its specs in order: the specs
 * of one server never see another server's writes (live counts, totals, "the newest quote"), and the two halves run
 * side by side (about 10 minutes in one line before, issue 8's 15-minute budget for `npm test`). A server's specs
 * still run one after another, as they always did. New spec files go to server B unless listed for A.
 */
const servers = e2eServers;
/**
 * Server A's specs (about half of the time): the live lists, counts and the portal, the axe audit of every route, and
 * the specs that only read (every route's fit, layout shifts, image sizes).
 */
const SERVER_A = ['a11y', 'scans', 'dashboard', 'portal', 'customer-portal', 'quotes', 'fit', 'layout-shift', 'scan-images'].map(
  (name) => `**/${name}.spec.ts`,
);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    locale: 'en-AU',
    timezoneId: 'Australia/Melbourne',
    screenshot: 'only-on-failure',
    // The app honours a user's wish for less motion (src/theme.ts): dialogs and menus open at once, so no step of a
    // test waits for an animation to end. The specs that measure layout shifts load the screens with full motion.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: servers.map((s) => ({
    name: `server-${s.name}`,
    workers: 1,
    use: { baseURL: `http://127.0.0.1:${s.port}` },
    ...(s.name === 'a' ? { testMatch: SERVER_A } : { testIgnore: SERVER_A }),
  })),
  webServer: servers.map((s) => ({
    command: `rm -rf ${s.dataDir} && npx tsx server/server.ts`,
    url: `http://127.0.0.1:${s.port}/api/ready`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(s.port),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(s.pgPort),
      DATA_DIR: s.dataDir,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      DATABASE_URL: '',
      // The vehicles spec's webhook receiver listens on this machine.
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // Every spec's calls come from one address, one test after another: on a fast machine a server's specs send
      // more than a person's 600 a minute. The limit itself is tested in tests/server/rate-limit.test.ts.
      RATE_LIMIT_PER_MINUTE: '100000',
    },
  })),
});
