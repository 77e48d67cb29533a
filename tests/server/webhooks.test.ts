import { createHmac, randomBytes } from 'node:crypto';
import dns from 'node:dns';
import fs from 'node:fs';
import os from 'node:os';
import type { InjectOptions } from 'fastify';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate } from '../../server/db/migrate';
import { signWebhook } from '../../server/services/agent/webhook-delivery';
import { createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
let agentA: number;
let agentB: number;
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  agentA = (await t.build.agent({ name: 'Hook agent A' })).id;
  agentB = (await t.build.agent({ name: 'Hook agent B' })).id;
});

const body = (over: Record<string, unknown> = {}) => ({
  agent_id: agentA,
  endpoint: 'https://hooks.example.test/scans',
  description: 'Job board',
  events: ['scan.created'],
  ...over,
});
const countHooks = async () =>
  (
    await t.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

describe('webhooks', () => {
  it('lists the events a webhook may subscribe to', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/agent/webhooks/events' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { text: 'Scan created', value: 'scan.created' },
      { text: 'Scan updated', value: 'scan.updated' },
      { text: 'New damage since the last scan', value: 'scan.new_damage' },
      { text: 'Quote generated', value: 'quote.generated' },
      { text: 'Quote sent for approval', value: 'quote.sent' },
      { text: 'Quote approval link opened', value: 'quote.viewed' },
      { text: 'Quote approved (wholly or in part)', value: 'quote.approved' },
      { text: 'Quote declined', value: 'quote.declined' },
      { text: 'Quote approval link expired', value: 'quote.expired' },
    ]);
  });

  it('creates with a server-made secret, ignoring one in the body; updates keep it', async () => {
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/agent/webhooks',
      payload: body({ secret: 'whsec_mine', events: ['scan.created', 'quote.generated'] }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const hook = res.json().data;
    expect(hook).toMatchObject({
      agent_id: agentA,
      endpoint: 'https://hooks.example.test/scans',
      description: 'Job board',
      events: ['scan.created', 'quote.generated'],
    });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await t.db.selectFrom('webhooks').select('secret').where('id', '=', hook.id).executeTakeFirstOrThrow()).secret).toBe(
      hook.secret,
    );

    const other = (await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: body() })).json().data;
    expect(other.secret).not.toBe(hook.secret);

    const updated = await t.as(admin, {
      method: 'PUT',
      url: `/api/agent/webhooks/${hook.id}`,
      payload: body({ endpoint: 'http://hooks.example.test/v2', events: ['scan.updated'], secret: 'whsec_mine' }),
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ endpoint: 'http://hooks.example.test/v2', events: ['scan.updated'], secret: hook.secret });
    expect((await t.as(admin, { method: 'GET', url: `/api/agent/webhooks/${hook.id}` })).json()).toEqual({ data: updated.json().data });

    expect((await t.as(admin, { method: 'DELETE', url: `/api/agent/webhooks/${hook.id}` })).statusCode).toBe(200);
    const gone = await t.as(admin, { method: 'GET', url: `/api/agent/webhooks/${hook.id}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: `No query results for model [Webhook] ${hook.id}` });
  });

  it("pages an agent's webhooks with agent_id, and searches", async () => {
    const a1 = await t.build.webhook({ agent_id: agentA, endpoint: 'https://a.example.test/one' });
    const b1 = await t.build.webhook({ agent_id: agentB, endpoint: 'https://b.example.test/one' });
    const forA = (await t.as(admin, { method: 'GET', url: `/api/agent/webhooks?agent_id=${agentA}&per_page=100` })).json();
    expect(forA.items.map((h: { id: number }) => h.id)).toContain(a1.id);
    expect(forA.items.length).toBeGreaterThan(0);
    expect(forA.items.every((h: { agent_id: number }) => h.agent_id === agentA)).toBe(true);
    const forB = (await t.as(admin, { method: 'GET', url: `/api/agent/webhooks?agent_id=${agentB}` })).json();
    expect(forB).toEqual({ items: [expect.objectContaining({ id: b1.id })], total: 1 });
    expect((await t.as(admin, { method: 'GET', url: '/api/agent/webhooks?q=b.example' })).json().total).toBe(1);
    const bad = await t.as(admin, { method: 'GET', url: '/api/agent/webhooks?agent_id=abc' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().error)).toEqual(['agent_id']);
  });

  it('answers 422 for a missing or non-http(s) endpoint, no or unknown events, a missing agent; stores nothing', async () => {
    const before = await countHooks();
    const empty = await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: { events: [] } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({
      error: { agent_id: 'Agent is required', endpoint: 'Endpoint is required', events: 'Events is required' },
    });
    for (const endpoint of ['ftp://hooks.example.test/x', 'javascript:alert(1)', 'not a url', 'https://']) {
      const res = await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: body({ endpoint }) });
      expect(res.json(), endpoint).toEqual({ error: { endpoint: 'Endpoint must be a valid URL' } });
    }
    const unknown = await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: body({ events: ['scan.deleted'] }) });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual({ error: { events: 'The selected events is invalid' } });
    const noAgent = await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: body({ agent_id: 99999999 }) });
    expect(noAgent.json()).toEqual({ error: { agent_id: 'The selected agent is invalid' } });
    expect(await countHooks()).toBe(before);
  });

  it('refuses an endpoint on this host or a private network when saved, in every spelling, and stores nothing', async () => {
    const created = (await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: body() })).json().data;
    const before = await countHooks();
    // A name that resolves to this machine, through the system's own resolver: this host's name.
    const ownName = os.hostname();
    expect((await dns.promises.lookup(ownName, { all: true })).length, `${ownName} resolves here`).toBeGreaterThan(0);
    const internal = [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'https://api.localhost./hook',
      'http://2130706433/hook', // 127.0.0.1 as one number
      'http://0x7f.1/hook',
      'http://[::1]/hook',
      'http://[::ffff:10.0.0.1]/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://192.168.1.20/hook',
      'http://10.1.2.3/hook',
      'http://[fe80::1]/hook',
      `http://${ownName}:8080/hook`,
      `https://${ownName.toUpperCase()}./hook`,
    ];
    const error = { error: { endpoint: 'Endpoint must be a public address, not this server or a private network' } };
    for (const endpoint of internal) {
      const res = await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: body({ endpoint }) });
      expect(res.statusCode, endpoint).toBe(422);
      expect(res.json(), endpoint).toEqual(error);
      const edit = await t.as(admin, { method: 'PUT', url: `/api/agent/webhooks/${created.id}`, payload: body({ endpoint }) });
      expect(edit.json(), endpoint).toEqual(error);
    }
    expect(await countHooks()).toBe(before);
    const kept = await t.as(admin, { method: 'GET', url: `/api/agent/webhooks/${created.id}` });
    expect(kept.json().data.endpoint).toBe(created.endpoint);
    // Public addresses and names are taken; a name is checked again on each delivery, where it resolves.
    for (const endpoint of ['https://93.184.216.34/hook', 'https://[2606:4700::1111]/hook', 'https://hooks.example.test/ok']) {
      const res = await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: body({ endpoint }) });
      expect(res.statusCode, endpoint).toBe(201);
    }
  });

  it('answers 403 on every webhook route to a user without `agent`', async () => {
    const hook = await t.build.webhook({ agent_id: agentA });
    const token = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA] })).email);
    const calls: (InjectOptions & { url: string })[] = [
      { method: 'GET', url: '/api/agent/webhooks' },
      { method: 'GET', url: '/api/agent/webhooks/events' },
      { method: 'GET', url: '/api/agent/webhooks/lists' },
      { method: 'GET', url: `/api/agent/webhooks/${hook.id}` },
      { method: 'POST', url: '/api/agent/webhooks', payload: body() },
      { method: 'PUT', url: `/api/agent/webhooks/${hook.id}`, payload: body({ endpoint: 'https://evil.example.test' }) },
      { method: 'DELETE', url: `/api/agent/webhooks/${hook.id}` },
    ];
    const before = await countHooks();
    for (const call of calls) expect((await t.as(token, call)).statusCode, `${call.method} ${call.url}`).toBe(403);
    expect(await countHooks()).toBe(before);
  });

  it("keeps Agent users to their agents' webhooks and Client users, even holding agent, to none (no signing secret)", async () => {
    const client = (await t.build.client({ name: 'Hook client' })).id;
    const served = (await t.build.agent({ name: 'Hook served agent', default_client_id: client })).id;
    const mine = await t.build.webhook({ agent_id: agentA, endpoint: 'https://scope.example.test/a' });
    const theirs = await t.build.webhook({ agent_id: agentB, endpoint: 'https://scope.example.test/b' });
    const servedHook = await t.build.webhook({ agent_id: served, endpoint: 'https://scope.example.test/served' });
    const agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA], permissions: ['agent'] })).email);
    const clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [client], permissions: ['agent'] })).email);
    const ids = async (token: string) =>
      (await t.as(token, { method: 'GET', url: '/api/agent/webhooks?q=scope.example&per_page=100' }))
        .json()
        .items.map((h: { id: number }) => h.id);
    expect(await ids(agentUser)).toEqual([mine.id]);
    expect(await ids(clientUser)).toEqual([]);
    expect((await t.as(agentUser, { method: 'GET', url: `/api/agent/webhooks/${theirs.id}` })).statusCode).toBe(404);
    for (const url of [`/api/agent/webhooks/${servedHook.id}`, `/api/agent/webhooks/lists?agent_id=${served}`]) {
      const read = await t.as(clientUser, { method: 'GET', url });
      expect(read.body, url).not.toContain('whsec_');
    }
    expect((await t.as(clientUser, { method: 'GET', url: `/api/agent/webhooks/${servedHook.id}` })).statusCode).toBe(404);
    // A user of both sides reads the webhooks of their own agents, as they change them, whatever their clients.
    const bothSides = await t.login(
      (await t.build.user({ roles: ['Agent', 'Client'], agents: [agentA], clients: [client], permissions: ['agent'] })).email,
    );
    expect(await ids(bothSides)).toEqual([mine.id]);
    const before = await countHooks();
    const foreignAgent = await t.as(agentUser, { method: 'POST', url: '/api/agent/webhooks', payload: body({ agent_id: agentB }) });
    expect(foreignAgent.statusCode).toBe(422);
    expect(foreignAgent.json()).toEqual({ error: { agent_id: 'The selected agent is invalid' } });
    expect(await countHooks()).toBe(before);
    expect((await t.as(agentUser, { method: 'POST', url: '/api/agent/webhooks', payload: body() })).statusCode).toBe(201);
  });
});

describe('migration 010: Standard Webhooks secrets', () => {
  const MIGRATIONS = new URL('../../server/db/migrations/', import.meta.url);

  it('turns a stored whsec_<hex> secret into whsec_<base64> of the same key: old receivers and the official verifier both accept', async () => {
    // A database as it stood before 010, holding a secret made by the old generator and old free-text failures.
    const adminUrl = inject('pgAdminUrl');
    const name = `m_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
    const db = new pg.Client({ connectionString: url });
    try {
      await db.connect();
      await db.query('create table schema_migrations (version text primary key, applied_at timestamptz not null default now())');
      for (const file of fs
        .readdirSync(MIGRATIONS)
        .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f) && f < '010')
        .sort()) {
        await db.query(fs.readFileSync(new URL(file, MIGRATIONS), 'utf8'));
        await db.query('insert into schema_migrations (version) values ($1)', [file]);
      }
      const hex = randomBytes(32).toString('hex');
      const agent = (await db.query<{ id: number }>("insert into agents (name) values ('Before 010') returning id")).rows[0].id;
      const hookId = (
        await db.query<{ id: number }>(
          "insert into webhooks (agent_id, endpoint, secret, events) values ($1, 'https://old.example.test/in', $2, '{scan.created}') returning id",
          [agent, `whsec_${hex}`],
        )
      ).rows[0].id;
      const failures = [
        ['127.0.0.1:8080 refused the connection', null, 'unreachable'],
        ['refused: 10.0.0.1 is a private or internal address', null, 'refused'],
        ['answered 503', 503, 'http'],
        ['answered 301', 301, 'redirect'],
        ['no answer within 10 s', null, 'timeout'],
        ['receiver.example.test has no valid TLS certificate (CERT_HAS_EXPIRED)', null, 'tls'],
      ] as const;
      for (const [i, [text, status]] of failures.entries())
        await db.query(
          "insert into webhook_deliveries (message_id, webhook_id, event, payload, attempts, last_status, last_error) values ($1, $2, 'scan.created', '{}', 1, $3, $4)",
          [`msg_${i}`, hookId, status, text],
        );

      expect(await migrate(url)).toContain('010_webhooks_standard.sql');

      const secret = (await db.query<{ secret: string }>('select secret from webhooks where id = $1', [hookId])).rows[0].secret;
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toEqual(Buffer.from(hex, 'hex'));
      const body = '{"type":"scan.created","data":{"id":1}}';
      const ts = Math.floor(Date.now() / 1000);
      const signature = signWebhook(secret, 'msg_after_010', ts, body);
      // The official verifier, with the secret as the panel now shows it.
      expect(
        new Webhook(secret).verify(body, {
          'webhook-id': 'msg_after_010',
          'webhook-timestamp': String(ts),
          'webhook-signature': signature,
        }),
      ).toEqual({ type: 'scan.created', data: { id: 1 } });
      // A receiver written to the old instructions (hex-decoded key) still verifies: the key bytes did not change.
      const oldWay = createHmac('sha256', Buffer.from(hex, 'hex')).update(`msg_after_010.${ts}.${body}`).digest('base64');
      expect(signature).toBe(`v1,${oldWay}`);

      const classes = await db.query<{ last_error: string }>('select last_error from webhook_deliveries order by message_id');
      expect(classes.rows.map((r) => r.last_error)).toEqual(failures.map((f) => f[2]));
      // Already converted: running the conversion again changes nothing.
      const again = fs.readFileSync(new URL('010_webhooks_standard.sql', MIGRATIONS), 'utf8').split('-- 2.')[0];
      await db.query(again);
      expect((await db.query<{ secret: string }>('select secret from webhooks where id = $1', [hookId])).rows[0].secret).toBe(secret);
    } finally {
      await db.end().catch(() => {});
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
