import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { migrate } from '../../server/db/migrate';

describe('loadConfig', () => {
  const refused = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as Error).message;
    }
    throw new Error(`accepted ${JSON.stringify(env)}`);
  };

  it.each(['abc', '0', '70000', '80.5'])('refuses PORT=%s and names it', (port) => {
    expect(refused({ PORT: port })).toMatch(/^\s*PORT: /m);
  });

  it.each(['mysql://db/app', 'localhost:5432/app', 'http://x'])('refuses DATABASE_URL=%s and names it', (url) => {
    expect(refused({ DATABASE_URL: url })).toMatch(/^\s*DATABASE_URL: must start with postgres/m);
  });

  it.each(['http://mail.example.test', 'mail.example.test:25'])('refuses SMTP_URL=%s and names it', (url) => {
    expect(refused({ SMTP_URL: url })).toMatch(/^\s*SMTP_URL: must start with smtp/m);
  });

  it.each(['0', '31', '2.5', 'soon'])('refuses WEBHOOK_TIMEOUT_SECONDS=%s and names it', (v) => {
    expect(refused({ WEBHOOK_TIMEOUT_SECONDS: v })).toMatch(/^\s*WEBHOOK_TIMEOUT_SECONDS: /m);
  });

  it('gives webhook receivers 5 s unless told', () => {
    expect(loadConfig({}).WEBHOOK_TIMEOUT_SECONDS).toBe(5);
    expect(loadConfig({ WEBHOOK_TIMEOUT_SECONDS: '12' }).WEBHOOK_TIMEOUT_SECONDS).toBe(12);
  });

  it.each(['', 'soon', '30,,60', '30 60', '-5', '1.5', Array(51).fill('1').join(',')])(
    'refuses WEBHOOK_RETRY_SECONDS=%s and names it',
    (v) => {
      // An empty value means unset (the default schedule).
      if (v === '') return expect(loadConfig({ WEBHOOK_RETRY_SECONDS: v }).WEBHOOK_RETRY_SECONDS).toBeUndefined();
      expect(refused({ WEBHOOK_RETRY_SECONDS: v })).toMatch(/^\s*WEBHOOK_RETRY_SECONDS: must be 1 to 50 whole numbers/m);
    },
  );

  it('reads a webhook retry schedule and claim margin', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SECONDS: '0,5,60' }).WEBHOOK_RETRY_SECONDS).toEqual([0, 5, 60]);
    expect(loadConfig({}).WEBHOOK_CLAIM_MARGIN_SECONDS).toBe(30);
    expect(loadConfig({ WEBHOOK_CLAIM_MARGIN_SECONDS: '2' }).WEBHOOK_CLAIM_MARGIN_SECONDS).toBe(2);
    expect(refused({ WEBHOOK_CLAIM_MARGIN_SECONDS: '0' })).toMatch(/^\s*WEBHOOK_CLAIM_MARGIN_SECONDS: /m);
  });

  it.each([
    ['PLATE_LOOKUP_URL', 'ftp://plates.example.test'],
    ['PLATE_LOOKUP_URL', 'plates'],
    ['PLATE_LOOKUP_TIMEOUT_MS', '50'],
    ['PLATE_LOOKUP_TIMEOUT_MS', 'soon'],
  ])('refuses %s=%s and names it', (name, v) => {
    expect(refused({ [name]: v })).toMatch(new RegExp(`^\\s*${name}: `, 'm'));
  });

  it('looks plates up in the registrations table unless PLATE_LOOKUP_URL is set, waiting 5 s for a provider', () => {
    expect(loadConfig({}).PLATE_LOOKUP_URL).toBeUndefined();
    expect(loadConfig({}).PLATE_LOOKUP_TIMEOUT_MS).toBe(5000);
    const c = loadConfig({ PLATE_LOOKUP_URL: 'https://plates.example.test/v1', PLATE_LOOKUP_KEY: 'k', PLATE_LOOKUP_TIMEOUT_MS: '1500' });
    expect([c.PLATE_LOOKUP_URL, c.PLATE_LOOKUP_KEY, c.PLATE_LOOKUP_TIMEOUT_MS]).toEqual(['https://plates.example.test/v1', 'k', 1500]);
  });

  it('names every bad setting at once', () => {
    const message = refused({ PORT: 'x', SMTP_URL: 'nope', LOG_LEVEL: 'loud' });
    for (const name of ['PORT', 'SMTP_URL', 'LOG_LEVEL']) expect(message).toContain(`${name}:`);
    expect(message).not.toContain('DATABASE_URL');
  });

  it('defaults PORT to 8080 and derives APP_URL from it', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.APP_URL).toBe('http://localhost:8080');
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SMTP_URL).toBeUndefined();
    expect(c.RESET_TOKEN_TTL_MINUTES).toBe(10);
    expect(c.LOGIN_MAX_FAILURES).toBe(5);
    expect(loadConfig({ PORT: '3000' }).APP_URL).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '3000', APP_URL: 'https://scan.example.test' }).APP_URL).toBe('https://scan.example.test');
  });

  it('treats an empty setting as unset and accepts good URLs', () => {
    expect(loadConfig({ PORT: '', SMTP_URL: '' }).PORT).toBe(8080);
    const c = loadConfig({ DATABASE_URL: 'postgresql://u:p@db:5432/app', SMTP_URL: 'smtps://u:p@mail:465', TRUST_PROXY: '1' });
    expect(c).toMatchObject({ DATABASE_URL: 'postgresql://u:p@db:5432/app', SMTP_URL: 'smtps://u:p@mail:465', TRUST_PROXY: true });
  });
});

describe('migrate', () => {
  const adminUrl = inject('pgAdminUrl');
  const made: string[] = [];
  const freshDatabase = async () => {
    const name = `m_${randomBytes(6).toString('hex')}`;
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`create database ${name}`);
    await a.end();
    made.push(name);
    return adminUrl.replace(/\/[^/]*$/, `/${name}`);
  };
  const query = async (url: string, text: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return (await c.query(text)).rows;
    } finally {
      await c.end();
    }
  };
  afterAll(async () => {
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    for (const name of made) await a.query(`drop database if exists ${name} with (force)`);
    await a.end();
  });

  // Every numbered file on disk, in order: new migrations do not need this test edited.
  const MIGRATION_FILES = fs
    .readdirSync(new URL('../../server/db/migrations/', import.meta.url))
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort();

  it('applies the numbered files once', async () => {
    const url = await freshDatabase();
    const first = await migrate(url);
    expect(first).toEqual(MIGRATION_FILES);
    expect(first.slice(0, 2)).toEqual(['001_foundation.sql', '002_reference_data.sql']);
    expect(await migrate(url)).toEqual([]);
    const versions = await query(url, 'select version from schema_migrations order by version');
    expect(versions.map((r) => r.version)).toEqual(first);
  });

  it('migrates an empty database once when two instances start together: the second waits on the lock, then finds nothing to do', async () => {
    const url = await freshDatabase();
    const logs: string[][] = [[], []];
    const [a, b] = await Promise.all([migrate(url, (m) => logs[0].push(m)), migrate(url, (m) => logs[1].push(m))]);
    // One of them applied every file, the other none (without the lock both would run 001 and one would fail).
    expect([a, b].sort((x, y) => y.length - x.length)).toEqual([MIGRATION_FILES, []]);
    expect(logs.flat()).toHaveLength(MIGRATION_FILES.length);
    const versions = await query(url, 'select version, count(*)::int as n from schema_migrations group by version order by version');
    expect(versions).toEqual(MIGRATION_FILES.map((version) => ({ version, n: 1 })));
  });

  it('rejects naming the failing file, records nothing of it and leaves none of its tables', async () => {
    const url = await freshDatabase();
    await query(url, 'create table roles (id int)');
    await expect(migrate(url)).rejects.toThrow(/^Migration 001_foundation\.sql failed: .*roles.* already exists/);
    expect(await query(url, 'select version from schema_migrations')).toEqual([]);
    // The file ran in a transaction: what it created before the failure is gone too.
    expect(await query(url, "select to_regclass('public.users') as t")).toEqual([{ t: null }]);
    // A later run, once the obstacle is gone, applies everything.
    await query(url, 'drop table roles');
    expect(await migrate(url)).toEqual(MIGRATION_FILES);
  });
});
