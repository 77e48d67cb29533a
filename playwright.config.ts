import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_FLAGS } from './tests/chromium';

const port = Number(process.env.E2E_PORT ?? 18080);
const pgPort = Number(process.env.E2E_PG_PORT ?? 18432);
const dataDir = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';

/** Browser tests: Debian's Chromium (never a downloaded browser) against the real server on a fresh demo database. */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'en-AU',
    timezoneId: 'Australia/Melbourne',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_FLAGS,
    },
  },
  webServer: {
    command: `rm -rf ${dataDir} && npx tsx server/server.ts`,
    url: `http://127.0.0.1:${port}/api/ready`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(pgPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      DATABASE_URL: '',
    },
  },
});
