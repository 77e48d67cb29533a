import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { NODE_RUNTIME_FLAGS } from '../../server/runtime';

/** A port free on 127.0.0.1 now (the system's pick). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
}

/** `npm start`'s command (server/server.ts under tsx) as a child process on 127.0.0.1, with `env` over a quiet base. */
export function startServerProcess(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, [...NODE_RUNTIME_FLAGS, '--import', 'tsx', 'server/server.ts'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      STATIC_DIR: 'does-not-exist',
      SEED_DEMO: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, base: `http://127.0.0.1:${env.PORT}`, output: () => out, exited };
}

/** Milliseconds until `base`/api/ready answers 200, asked every 100 ms; throws after `withinMs` or if the process ends. */
export async function waitReady(p: ServerProcess, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (p.child.exitCode !== null || p.child.signalCode !== null)
      throw new Error(`the server exited (${p.child.exitCode ?? p.child.signalCode}):\n${p.output()}`);
    const ok = await fetch(`${p.base}/api/ready`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready within ${withinMs} ms:\n${p.output()}`);
}
