import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { NODE_RUNTIME_FLAGS } from '../server/runtime';
import { DEMO_PASSWORD, DEMO_USERS } from '../server/seed/demo';
import { toCurrentUser } from '../src/session/currentUser';

export { CHROMIUM, CHROMIUM_FLAGS } from '../tests/chromium';

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

export interface RunningServer {
  url: string;
  /** Signs in through the API: the user (with its token) as the app stores it under `currentUser`. */
  signIn(email?: string): Promise<Record<string, unknown> & { token: string }>;
  stop(): Promise<void>;
}

/**
 * `npm start` as a user runs it, minus the build: `server/server.ts` in a child process on its own embedded
 * PostgreSQL with the demo data, NODE_ENV=production, serving dist/. The API rate limit is raised so that load
 * tests measure the server, not the limiter.
 */
export async function startProductionServer(
  log: (s: string) => void = () => {},
  /** Settings beyond the production defaults (e.g. PAGE_CACHE_SECONDS=0 for the uncached reference). */
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-bench-server-'));
  fs.chmodSync(dir, 0o755);
  const port = Number(process.env.BENCH_PORT) || (await freePort());
  const pgPort = Number(process.env.BENCH_PG_PORT) || (await freePort());
  const child = spawn(process.execPath, [...NODE_RUNTIME_FLAGS, '--import', 'tsx', 'server/server.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      DATA_DIR: dir,
      DATABASE_URL: '',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server stopped: ${stderr}`);
    const ready = await fetch(`${url}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (performance.now() - started > 120_000) throw new Error(`the server did not start in 2 minutes: ${stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  log(`production server on ${url} (embedded PostgreSQL ${pgPort}) ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return {
    url,
    async signIn(email = DEMO_USERS[0].email) {
      const res = await fetch(`${url}/api/user/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: DEMO_PASSWORD }),
      });
      if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
      // Exactly what the app's sign-in stores (authProvider.login): the raw reply differs from it, so the app's first
      // refresh of the user would rewrite it and re-render every signed-in screen at once, which a returning user's
      // visit does not do.
      const user = toCurrentUser(((await res.json()) as { data: unknown }).data);
      if (!user) throw new Error('sign-in: the reply holds no user with a token');
      return { ...user };
    },
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
