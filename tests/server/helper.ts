import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, HTTPMethods, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { buildApp } from '../../server/app';
import { loadDefinitions } from '../../server/lib/definitions';
import type { ResourceDefinition } from '../../src/resources/define';
import { loadConfig } from '../../server/config';
import { createDatabase, type Database } from '../../server/db/database';
import { hashPassword } from '../../server/services/user/auth-service';
import { createMailer, type Mailer } from '../../server/lib/mail-outbox';
import { hashToken, newToken } from '../../server/lib/tokens';

export const PASSWORD = 'test-password-1';

/** A client's dent price row for one part, as the tests that price a quote use it. */
export const DENT_PRICE_ROW = {
  light: 100,
  medium: 150,
  heavy: 200,
  severe: 250,
  oversize: 300,
  p2p: 80,
  aluminium: 20,
  conventional: 400,
  replacement: 900,
};

/** An inject call with its method and URL spelled out, to name it in a failure message. */
export type Call = InjectOptions & { method: HTTPMethods; url: string };
let passwordHash: Promise<string> | null = null;

export interface TestContext {
  app: FastifyInstance;
  db: Database;
  mailer: Mailer;
  url: string;
  /** The settings the app was built with. */
  configEnv: Record<string, string>;
  /** Signs in through the real login route and returns the bearer token. */
  login(email: string, password?: string): Promise<string>;
  /** app.inject with a bearer token. */
  as(token: string, opts: InjectOptions): Promise<LightMyRequestResponse>;
  build: ReturnType<typeof builders>;
  /** Waits for the work requests started after replying (forgot-password's mail). */
  settled(): Promise<void>;
}

/** Builds the real app on a fresh database copied from the migrated template; closed after the file's tests. */
export async function createTestContext(
  env: Record<string, string> = {},
  mailer?: (db: Database) => Mailer,
  logStream?: { write(line: string): void },
  /** A scratch resource: its definitions beside the real ones, and the SQL making its table (run before the app starts). */
  scratch?: { definitions: readonly ResourceDefinition[]; sql: string },
): Promise<TestContext> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template scanquote_template`);
  await admin.end();
  const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
  // Uploaded files go to a directory of the file's own, never the project's data/.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanquote-test-files-'));
  const configEnv = {
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    DATABASE_URL: url,
    STATIC_DIR: 'does-not-exist',
    APP_URL: 'http://app.test',
    DATA_DIR: dataDir,
    // Tests write rows behind the app's back and read them at once: pages are cached only where a test asks
    // (tests/server/page-cache.test.ts).
    PAGE_CACHE_SECONDS: '0',
    ...env,
  };
  const config = loadConfig(configEnv);
  const db = createDatabase(url, 5);
  const outbox = mailer ? mailer(db) : createMailer(db, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
  if (scratch) await sql.raw(scratch.sql).execute(db);
  const definitions = scratch ? [...(await loadDefinitions()), ...scratch.definitions] : undefined;
  const app = await buildApp({ config, db, mailer: outbox, logStream, definitions });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await db.destroy();
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`drop database if exists ${name} with (force)`);
    await a.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const ctx: TestContext = {
    app,
    db,
    mailer: outbox,
    url,
    configEnv,
    async login(email, password = PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
      return res.json().data.token as string;
    },
    as(token, opts) {
      return app.inject({ ...opts, headers: { ...(opts.headers ?? {}), authorization: `Bearer ${token}` } });
    },
    build: builders(db),
    settled: () => app.background.settled(),
  };
  return ctx;
}

let seq = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++seq}`;

/** Record builders: each test makes the rows it needs. */
export function builders(db: Database) {
  return {
    async client(over: Partial<{ name: string; currency: string }> = {}) {
      return db
        .insertInto('clients')
        .values({ name: unique('Client'), ...over })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
    },
    async agent(
      over: Partial<{
        name: string;
        default_client_id: number | null;
        is_enabled: number;
        pincode_hash: string | null;
        logo: string | null;
        portal_mode: 'enrolled' | 'open';
      }> = {},
    ) {
      return db
        .insertInto('agents')
        .values({ name: unique('Agent'), ...over })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
    },
    async location(over: Partial<{ name: string; state: string; agent_id: number | null }> = {}) {
      return db
        .insertInto('locations')
        .values({ name: unique('Location'), state: 'VIC', ...over })
        .returning(['id', 'name', 'agent_id'])
        .executeTakeFirstOrThrow();
    },
    async device(over: { location_id: number; agent_id: number; default_client_id: number; type?: string; serial?: string }) {
      return db
        .insertInto('devices')
        .values({ type: 'arch', serial: String(Date.now()).slice(-10), ...over })
        .returning('id')
        .executeTakeFirstOrThrow();
    },
    async panelGroup(over: Partial<{ name: string; image: string | null; position: number }> = {}) {
      return db
        .insertInto('panel_groups')
        .values({ name: unique('Panel group'), position: 1, ...over })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
    },
    async webhook(over: { agent_id: number; endpoint?: string; events?: string[] }) {
      return db
        .insertInto('webhooks')
        .values({
          endpoint: 'https://hooks.example.test/in',
          events: ['scan.created'],
          secret: `whsec_${randomBytes(32).toString('base64')}`,
          ...over,
        })
        .returning(['id', 'secret'])
        .executeTakeFirstOrThrow();
    },
    async product(over: Partial<{ name: string; type: string | null; price: number }> = {}) {
      return db
        .insertInto('products')
        .values({ name: unique('Product'), price: 10, ...over })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
    },
    async part(over: Partial<{ name: string; type: string | null }> = {}) {
      return db
        .insertInto('parts')
        .values({ name: unique('Part'), type: 'arch', ...over })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
    },
    /** A panel in the given group (panel_groups rows come from 004). */
    async panel(over: {
      panel_group_id: number;
      name?: string;
      label?: string;
      position?: number;
      part_id?: number | null;
      car_panel?: string | null;
    }) {
      return db
        .insertInto('panels')
        .values({ name: unique('Panel'), label: 'P', position: 1, ...over })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
    },
    async emailTemplate(over: Partial<{ template_name: string; template_body: string }> = {}) {
      return db
        .insertInto('email_templates')
        .values({ template_name: unique('Template'), template_body: '<p>Hello</p>', ...over })
        .returning(['id', 'template_name'])
        .executeTakeFirstOrThrow();
    },
    /** A scan of the given agent (scan_id, type arch and status uploaded unless given). */
    async scan(over: {
      agent_id: number;
      client_id?: number | null;
      location_id?: number | null;
      device_id?: number | null;
      scan_id?: string;
      type?: string;
      status?: string;
      license_plate?: string | null;
      make?: string | null;
      model?: string | null;
      car_color?: string | null;
      scanned_at?: Date | string;
    }) {
      return db
        .insertInto('scans')
        .values({ scan_id: unique('scan').toLowerCase(), type: 'arch', status: 'uploaded', ...over })
        .returning(['id', 'scan_id'])
        .executeTakeFirstOrThrow();
    },
    /** A vehicle holding these scans (their vehicle_id), with a fresh registration unless given. */
    async vehicle(scanIds: number[], over: { registration?: string; state?: string | null; vin?: string | null } = {}) {
      const v = await db
        .insertInto('vehicles')
        .values({
          registration: unique('V')
            .replace(/[^A-Z0-9]/gi, '')
            .toUpperCase()
            .slice(-20),
          first_seen: new Date(),
          last_seen: new Date(),
          ...over,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (scanIds.length) await db.updateTable('scans').set({ vehicle_id: v.id }).where('id', 'in', scanIds).execute();
      return v.id;
    },
    /** A saved image of a scan (scan_annotates); its src names no stored file unless given. */
    async annotate(over: { scan_id: number; src?: string; vehicle_photo?: boolean }) {
      return db
        .insertInto('scan_annotates')
        .values({ src: '/api/user/files/00000000000000000000000000000000.jpg', ...over })
        .returning(['id', 'src'])
        .executeTakeFirstOrThrow();
    },
    /** A tyre side of a scan (row 1, left, outer unless given) with a flat tread profile. */
    async tyre(over: { scan_id: number; row?: number; direction?: 'L' | 'R'; position?: 'I' | 'O'; label?: string }) {
      return db
        .insertInto('scan_tyres')
        .values({ row: 1, direction: 'L', position: 'O', label: 'FRONT LEFT', depths: [8, 8, 8], ...over })
        .returning('id')
        .executeTakeFirstOrThrow();
    },
    /** A registration the built-in plate look-up knows. */
    async registration(
      over: Partial<{
        number: string;
        state: string;
        make: string;
        model: string;
        colour: string;
        body_type: string;
        valuation: number;
      }> = {},
    ) {
      return db
        .insertInto('registrations')
        .values({
          number: unique('REG')
            .replace(/[^A-Z0-9]/gi, '')
            .toUpperCase()
            .slice(-12),
          state: 'VIC',
          make: 'Toyota',
          model: 'Corolla',
          colour: 'Silver',
          body_type: 'Hatchback',
          valuation: 18500,
          ...over,
        })
        .returning(['id', 'number', 'state'])
        .executeTakeFirstOrThrow();
    },
    /** A quote of a scan (priced at 0, no items), as a saved one is stored; agent and client the scan's. */
    async quote(scanId: number, over: Partial<{ grant_total: number; created_at: string }> = {}) {
      const r = await sql<{
        id: number;
      }>`insert into quotes (scan_id, agent_id, client_id, client_snapshot, gst_percent, grant_total, created_at)
        select s.id, s.agent_id, s.client_id, jsonb_build_object('id', c.id, 'name', c.name, 'currency', c.currency, 'sc_metallic', 0,
            'sc_pearl', 0, 'sc_p2p', 0, 'tyre_repair', 0, 'tyre_replace', 0, 'logo', null, 'phone', null, 'address', null, 'email', null, 'abn', null),
          10, ${over.grant_total ?? 0}, ${over.created_at ?? new Date().toISOString()}::timestamptz
        from scans s join clients c on c.id = s.client_id where s.id = ${scanId} returning id`.execute(db);
      return r.rows[0];
    },
    /** An open approval link of the quote, as sending makes it; returns its token. */
    async approvalLink(quoteId: number) {
      const token = newToken();
      await sql`insert into quote_approvals (quote_id, token_hash, recipient, expires_at)
        values (${quoteId}, ${hashToken(token)}, 'link@example.test', now() + interval '1 day')`.execute(db);
      await sql`update quotes set status = 'sent' where id = ${quoteId}`.execute(db);
      return token;
    },
    /** A user with the given roles (by name), agents and clients; password PASSWORD. */
    async user(over: { roles?: string[]; agents?: number[]; clients?: number[]; email?: string; permissions?: string[] } = {}) {
      passwordHash ??= hashPassword(PASSWORD);
      const email = over.email ?? `${unique('user')}@example.test`;
      const user = await db
        .insertInto('users')
        .values({ email, first_name: 'Test', last_name: 'User', password_hash: await passwordHash })
        .returning(['id', 'email'])
        .executeTakeFirstOrThrow();
      const roleNames = [...(over.roles ?? [])];
      if (over.permissions) {
        // A role of its own holding exactly these permissions.
        const role = await db
          .insertInto('roles')
          .values({ name: unique('role') })
          .returning(['id', 'name'])
          .executeTakeFirstOrThrow();
        const perms = over.permissions.length
          ? await db.selectFrom('permissions').select('id').where('name', 'in', over.permissions).execute()
          : [];
        if (perms.length)
          await db
            .insertInto('role_permissions')
            .values(perms.map((p) => ({ role_id: role.id, permission_id: p.id })))
            .execute();
        roleNames.push(role.name);
      }
      if (roleNames.length) {
        const roles = await db.selectFrom('roles').select('id').where('name', 'in', roleNames).execute();
        await db
          .insertInto('user_roles')
          .values(roles.map((r) => ({ user_id: user.id, role_id: r.id })))
          .execute();
      }
      for (const agent_id of over.agents ?? []) await db.insertInto('user_agents').values({ user_id: user.id, agent_id }).execute();
      for (const client_id of over.clients ?? []) await db.insertInto('user_clients').values({ user_id: user.id, client_id }).execute();
      return user;
    },
  };
}

/** A multipart/form-data body for app.inject: text fields, and files as { data, filename, type }. */
type FilePart = { data: Buffer | string; filename: string; type?: string };
/** A multipart body: a field given a list of files sends one part for each. */
export async function formData(fields: Record<string, string | number | FilePart | FilePart[]>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (typeof one === 'object')
        form.append(
          name,
          new Blob([typeof one.data === 'string' ? one.data : new Uint8Array(one.data)], { type: one.type ?? 'application/octet-stream' }),
          one.filename,
        );
      else form.append(name, String(one));
    }
  }
  const res = new Response(form);
  return { payload: Buffer.from(await res.arrayBuffer()), headers: { 'content-type': res.headers.get('content-type')! } };
}

/**
 * Another instance of the app on the same database (its own connection pool, broadcaster, caches), as a second process
 * behind a load balancer would be; closed after the file's tests.
 */
export async function secondInstance(t: TestContext, env: Record<string, string> = {}) {
  const config = loadConfig({ ...t.configEnv, ...env });
  const db = createDatabase(t.url, 5);
  const mailer = createMailer(db, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
  const app = await buildApp({ config, db, mailer, storage: t.app.storage });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await db.destroy();
  });
  return { app, db, mailer, config };
}
