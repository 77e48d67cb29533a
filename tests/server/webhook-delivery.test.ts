import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverDueWebhooks, isInternalAddress, MAX_ATTEMPTS } from '../../server/services/agent/webhook-delivery';
import { createTestContext, type TestContext } from './helper';

/** A real receiver on loopback: records what arrives and answers with `answer`. */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let answer = 204;
/** Paths that answer a status of their own. */
const receiverPaths = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.writeHead(receiverPaths.get(req.url ?? '') ?? answer).end();
  });
});
let endpoint = '';

let t: TestContext;
let admin: string;
let agentA: number;
let agentB: number;
let deviceKey: string;
let device: number;

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  const client = await t.build.client();
  agentA = (await t.build.agent({ name: 'Delivery agent A', default_client_id: client.id })).id;
  agentB = (await t.build.agent({ name: 'Delivery agent B' })).id;
  const site = await t.build.location({ agent_id: agentA });
  device = (await t.build.device({ agent_id: agentA, location_id: site.id, default_client_id: client.id })).id;
  const scanner = await t.build.user({ roles: ['Agent'], agents: [agentA] });
  deviceKey = (await t.as(admin, { method: 'GET', url: `/api/user/users/${scanner.id}/apikey` })).json().data.token;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));
beforeEach(async () => {
  received.length = 0;
  answer = 204;
  await sql`delete from webhook_deliveries`.execute(t.db);
  await sql`delete from webhooks`.execute(t.db);
});

const hook = async (agent_id: number, events: string[], url = endpoint) =>
  (await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: { agent_id, endpoint: url, events } })).json().data as {
    id: number;
    secret: string;
  };
const ingest = (scan_id: string) =>
  t.as(deviceKey, {
    method: 'POST',
    url: '/api/scan/ingest/scans',
    payload: { scan_id, device_id: device, type: 'arch', licensePlate: 'HOOK01' },
  });
const deliveries = async () =>
  (
    await sql<{
      event: string;
      status: string;
      attempts: number;
      last_status: number | null;
      last_error: string | null;
      webhook_id: number;
    }>`
  select event, status, attempts, last_status, last_error, webhook_id from webhook_deliveries order by id`.execute(t.db)
  ).rows;
const due = () => sql`update webhook_deliveries set next_attempt_at = now() where status = 'pending'`.execute(t.db);
const deliver = () => deliverDueWebhooks(t.db, { allowPrivate: true });

describe('webhook delivery', () => {
  it("posts a device scan to the agent's subscribed webhooks, signed the Standard Webhooks way, and nowhere else", async () => {
    const created = await hook(agentA, ['scan.created']);
    await hook(agentA, ['quote.generated']);
    await hook(agentB, ['scan.created', 'scan.updated']);
    const res = await ingest(`hook-${Date.now()}`);
    expect(res.statusCode, res.body).toBe(201);
    const scan = res.json().data as { id: number };
    expect(await deliveries()).toEqual([
      { event: 'scan.created', status: 'pending', attempts: 0, last_status: null, last_error: null, webhook_id: created.id },
    ]);

    expect(await deliver()).toBe(1);
    expect(received).toHaveLength(1);
    const [msg] = received;
    const payload = JSON.parse(msg.body);
    expect(payload).toMatchObject({
      type: 'scan.created',
      data: { id: scan.id, licensePlate: 'HOOK01', agent_id: agentA, status: 'metadata' },
    });
    expect(msg.headers['content-type']).toBe('application/json');
    expect(msg.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    const ts = Number(msg.headers['webhook-timestamp']);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(60);
    // What a receiver computes from the secret it copied from the webhook panel.
    const expected = createHmac('sha256', Buffer.from(created.secret.slice('whsec_'.length), 'hex'))
      .update(`${msg.headers['webhook-id']}.${ts}.${msg.body}`)
      .digest('base64');
    expect(msg.headers['webhook-signature']).toBe(`v1,${expected}`);
    expect(await deliveries()).toMatchObject([{ status: 'delivered', attempts: 1, last_status: 204 }]);
    // Nothing more is due.
    expect(await deliver()).toBe(0);
    expect(received).toHaveLength(1);
  });

  it('queues scan.updated on a status change, and retries with back-off until the receiver takes it', async () => {
    await hook(agentA, ['scan.updated']);
    const scan = (await ingest(`hook-upd-${Date.now()}`)).json().data as { id: number };
    expect(await deliveries()).toEqual([]);
    expect(
      (await t.as(deviceKey, { method: 'POST', url: `/api/scan/ingest/scans/${scan.id}/status`, payload: { status: 'ready' } })).statusCode,
    ).toBe(200);
    expect(await deliveries()).toMatchObject([{ event: 'scan.updated', status: 'pending' }]);

    answer = 503;
    expect(await deliver()).toBe(0);
    expect(await deliveries()).toMatchObject([{ status: 'pending', attempts: 1, last_status: 503, last_error: 'answered 503' }]);
    const next = (
      await sql<{ wait: number }>`select extract(epoch from next_attempt_at - now())::int as wait from webhook_deliveries`.execute(t.db)
    ).rows[0].wait;
    expect(next).toBeGreaterThan(20);
    // Not due yet: nothing is sent.
    expect(await deliver()).toBe(0);
    expect(received).toHaveLength(1);

    answer = 200;
    await due();
    expect(await deliver()).toBe(1);
    expect(received).toHaveLength(2);
    // The same message id on every attempt, so a receiver can drop a duplicate.
    expect(received[1].headers['webhook-id']).toBe(received[0].headers['webhook-id']);
    expect(JSON.parse(received[1].body)).toMatchObject({ type: 'scan.updated', data: { id: scan.id, status: 'ready' } });
    expect(await deliveries()).toMatchObject([{ status: 'delivered', attempts: 2, last_status: 200 }]);
  });

  it(`gives up after ${MAX_ATTEMPTS} failed attempts`, async () => {
    await hook(agentA, ['scan.created']);
    await ingest(`hook-fail-${Date.now()}`);
    answer = 500;
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await due();
      await deliver();
    }
    expect(await deliveries()).toMatchObject([{ status: 'failed', attempts: MAX_ATTEMPTS, last_status: 500 }]);
    await due();
    await deliver();
    expect(received).toHaveLength(MAX_ATTEMPTS);
  });

  it('refuses private, loopback and link-local receivers unless allowed, by the address it would connect to', async () => {
    await hook(agentA, ['scan.created']);
    await hook(agentA, ['scan.created'], endpoint.replace('127.0.0.1', 'localhost'));
    await ingest(`hook-ssrf-${Date.now()}`);
    expect(await deliverDueWebhooks(t.db, { allowPrivate: false })).toBe(0);
    expect(received).toHaveLength(0);
    const rows = await deliveries();
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'pending', attempts: 1, last_status: null });
      expect(r.last_error).toMatch(/^refused: .* is a private or internal address/);
    }
  });

  it('says why a receiver could not be reached', async () => {
    // A port nobody listens on, and a name that does not resolve (.invalid never does).
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await hook(agentA, ['scan.created'], `http://127.0.0.1:${port}/in`);
    await hook(agentA, ['scan.created'], 'https://receiver.example.invalid/in');
    await ingest(`hook-why-${Date.now()}`);
    await deliver();
    expect((await deliveries()).map((d) => d.last_error).sort()).toEqual([
      `127.0.0.1:${port} refused the connection`,
      'cannot find receiver.example.invalid',
    ]);
  });

  it('knows which addresses are internal', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      'not-an-ip',
    ]) {
      expect(isInternalAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '203.0.113.9', '2606:4700::1111', '::ffff:1.1.1.1']) expect(isInternalAddress(a), a).toBe(false);
  });
  it("lists the latest delivery of each of an agent's webhooks, inside the user's scope", async () => {
    const good = await hook(agentA, ['scan.created']);
    const bad = await hook(agentA, ['scan.created'], endpoint.replace('/hooks', '/broken'));
    const quiet = await hook(agentA, ['quote.generated']);
    await ingest(`hook-list-${Date.now()}`);
    answer = 204;
    // The receiver answers 404 for the broken path.
    receiverPaths.set('/broken', 404);
    await deliver();
    const res = await t.as(admin, { method: 'GET', url: `/api/agent/webhooks/deliveries?agent_id=${agentA}` });
    expect(res.statusCode, res.body).toBe(200);
    const byHook = new Map((res.json().data as { webhook_id: number }[]).map((d) => [d.webhook_id, d]));
    expect(byHook.get(good.id)).toMatchObject({
      event: 'scan.created',
      status: 'delivered',
      attempts: 1,
      last_status: 204,
      last_error: null,
    });
    expect(byHook.get(bad.id)).toMatchObject({
      event: 'scan.created',
      status: 'pending',
      attempts: 1,
      last_status: 404,
      last_error: 'answered 404',
    });
    expect(byHook.has(quiet.id)).toBe(false);

    const otherAgentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentB], permissions: ['agent'] })).email);
    expect((await t.as(otherAgentUser, { method: 'GET', url: `/api/agent/webhooks/deliveries?agent_id=${agentA}` })).json()).toEqual({
      data: [],
    });
    const missing = await t.as(admin, { method: 'GET', url: '/api/agent/webhooks/deliveries' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ error: { agent_id: 'Agent is required' } });
    const noPermission = await t.login((await t.build.user({ permissions: ['scan'] })).email);
    expect((await t.as(noPermission, { method: 'GET', url: `/api/agent/webhooks/deliveries?agent_id=${agentA}` })).statusCode).toBe(403);
  });
});
