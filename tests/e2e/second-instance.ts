import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { e2eDatabaseUrl, e2eServerAt } from './server-env';

/** A free TCP port on 127.0.0.1, asked of the system. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface SecondInstance {
  baseURL: string;
  stop(): Promise<void>;
}

/**
 * A second instance of the app (as `npm run cluster` runs several) on the database and files of the e2e server at
 * `of` (the test's baseURL), with settings of its own: how a test changes a setting read once at start (e.g. the plate
 * provider) without restarting the shared server. Stopped with SIGTERM (a graceful shutdown).
 */
export async function startSecondInstance(of: string, env: Record<string, string>, timeoutMs = 90_000): Promise<SecondInstance> {
  const server = e2eServerAt(of);
  const port = await freePort();
  const child: ChildProcess = spawn('npx', ['tsx', 'server/server.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: e2eDatabaseUrl(server),
      DATA_DIR: server.dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // The process group: npx, tsx and the server.
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the second instance exited (${child.exitCode}): ${stderr}`);
    try {
      if ((await fetch(`${baseURL}/api/ready`)).ok) return { baseURL, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop();
  throw new Error(`the second instance did not get ready in ${timeoutMs / 1000} s: ${stderr}`);
}
