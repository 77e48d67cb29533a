import { createHmac } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isInternalAddress, resolvesInward } from '../../server/services/agent/webhook-address';
import { enqueueWebhooks } from '../../server/lib/events';
import { createWebhookDeliverer, deliverDueWebhooks, MAX_ATTEMPTS, signWebhook } from '../../server/services/agent/webhook-delivery';
import { queueScanEvent } from '../../server/services/scan/events';
import { createTestContext, type TestContext } from './helper';

/** A real receiver on loopback: records what arrives and answers with `answer`. */
interface Received {
  url: string;
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
    received.push({ url: req.url ?? '', headers: req.headers, body });
    const status = receiverPaths.get(req.url ?? '') ?? answer;
    res.writeHead(status, status >= 300 && status < 400 ? { location: '/moved-here' } : {}).end();
  });
});
let endpoint = '';
const listen = (server: net.Server, host = '127.0.0.1') =>
  new Promise<number>((r) => server.listen(0, host, () => r((server.address() as AddressInfo).port)));
const close = (server: net.Server) => new Promise<void>((r) => server.close(() => r()));

let t: TestContext;
let admin: string;
let agentA: number;
let agentB: number;
let deviceKey: string;
let device: number;

beforeAll(async () => {
  endpoint = `http://127.0.0.1:${await listen(receiver)}/hooks`;
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  const client = await t.build.client();
  agentA = (await t.build.agent({ name: 'Delivery agent A', default_client_id: client.id })).id;
  agentB = (await t.build.agent({ name: 'Delivery agent B' })).id;
  const site = await t.build.location({ agent_id: agentA });
  device = (await t.build.device({ agent_id: agentA, location_id: site.id, default_client_id: client.id })).id;
  const scanner = await t.build.user({ roles: ['Agent'], agents: [agentA] });
  deviceKey = (await t.as(admin, { method: 'GET', url: `/api/user/users/${scanner.id}/apikey` })).json().data.token;
});
afterAll(() => close(receiver));
beforeEach(async () => {
  received.length = 0;
  answer = 204;
  receiverPaths.clear();
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
/** Webhooks of a new agent written straight to the table (any endpoint text), each with one scan.created queued. */
async function queueTo(endpoints: string[]) {
  const agent = (await t.build.agent()).id;
  for (const url of endpoints) await t.build.webhook({ agent_id: agent, endpoint: url, events: ['scan.created'] });
  await enqueueWebhooks(t.db, agent, 'scan.created', { id: 1 });
}
/** Each queued delivery's endpoint and failure, in the order the webhooks were made. */
const outcomes = async () =>
  (
    await sql<{ endpoint: string; last_error: string | null; attempts: number }>`
    select w.endpoint, d.last_error, d.attempts from webhook_deliveries d join webhooks w on w.id = d.webhook_id order by w.id`.execute(
      t.db,
    )
  ).rows;

describe('webhook delivery', () => {
  it("posts a device scan to the agent's subscribed webhooks, signed so the official Standard Webhooks verifier accepts it", async () => {
    const created = await hook(agentA, ['scan.created']);
    await hook(agentA, ['quote.generated']);
    await hook(agentB, ['scan.created', 'scan.updated']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const res = await ingest(`hook-${Date.now()}`);
    expect(res.statusCode, res.body).toBe(201);
    const scan = res.json().data as { id: number };
    expect(await deliveries()).toEqual([
      { event: 'scan.created', status: 'pending', attempts: 0, last_status: null, last_error: null, webhook_id: created.id },
    ]);

    expect(await deliver()).toBe(1);
    expect(received).toHaveLength(1);
    const [msg] = received;
    expect(msg.headers['content-type']).toBe('application/json');
    expect(msg.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    // What a receiver does with the secret it copied from the webhook panel: the `standardwebhooks` package's verifier.
    const verified = new Webhook(created.secret).verify(msg.body, {
      'webhook-id': String(msg.headers['webhook-id']),
      'webhook-timestamp': String(msg.headers['webhook-timestamp']),
      'webhook-signature': String(msg.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({
      type: 'scan.created',
      data: { id: scan.id, licensePlate: 'HOOK01', agent_id: agentA, status: 'metadata' },
    });
    // A changed byte, or another webhook's secret, does not verify.
    expect(() => new Webhook(created.secret).verify(msg.body.replace('HOOK01', 'HOOK02'), msg.headers as Record<string, string>)).toThrow();
    const other = await hook(agentA, ['scan.created']);
    expect(() => new Webhook(other.secret).verify(msg.body, msg.headers as Record<string, string>)).toThrow();
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
    expect(await deliveries()).toMatchObject([{ status: 'pending', attempts: 1, last_status: 503, last_error: 'http' }]);
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
    expect(await deliveries()).toMatchObject([{ status: 'failed', attempts: MAX_ATTEMPTS, last_status: 500, last_error: 'http' }]);
    await due();
    await deliver();
    expect(received).toHaveLength(MAX_ATTEMPTS);
  });

  it('does not follow a redirect: the attempt fails as `redirect` and the place it points to gets nothing', async () => {
    receiverPaths.set('/hooks', 302);
    await hook(agentA, ['scan.created']);
    await ingest(`hook-302-${Date.now()}`);
    expect(await deliver()).toBe(0);
    expect(received.map((r) => r.url)).toEqual(['/hooks']);
    expect(await deliveries()).toMatchObject([{ status: 'pending', attempts: 1, last_status: 302, last_error: 'redirect' }]);
  });

  it("lists the latest delivery of each of an agent's webhooks, inside the user's scope", async () => {
    const good = await hook(agentA, ['scan.created']);
    const bad = await hook(agentA, ['scan.created'], endpoint.replace('/hooks', '/broken'));
    const quiet = await hook(agentA, ['quote.generated']);
    await ingest(`hook-list-${Date.now()}`);
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
      last_error: 'http',
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

/** This host's own addresses other than loopback (the container's eth0, say): a webhook may not reach them either. */
const ownNonLoopback = Object.values(os.networkInterfaces())
  .flat()
  .filter((a) => a && !a.internal && !a.address.includes('%'))
  .map((a) => a!);

describe('webhook address guard', () => {
  // Every entry reaches this host, a private network or a reserved range; each names its form.
  const internal = [
    '127.0.0.1',
    '127.0.0.2',
    '127.255.255.254',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '198.18.0.1',
    '192.0.0.1',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '192.88.99.1',
    '0.0.0.0',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:127.0.0.1',
    '::FFFF:7F00:0001',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1', // IPv4-compatible
    '::7f00:1',
    '::8.8.8.8', // IPv4-compatible is deprecated whatever it carries
    '::ffff:0:7f00:1', // SIIT
    '64:ff9b::7f00:1', // NAT64
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::7f00:1', // local-use NAT64
    '64:ff9b:1:ffff::808:808',
    '2002:7f00:1::', // 6to4
    '2002:7f00:1::1',
    '2002:a00:1:ffff::1',
    '2002:c0a8:101::',
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1
    '2001::1',
    '2001:2::1', // benchmarking
    '2001:10::1', // ORCHID
    'fe80::5efe:7f00:1', // ISATAP
    '2001:470:1:2:0:5efe:7f00:1',
    '2a00:1450::200:5efe:a00:1',
    '2a00:1450::200:5efe:192.168.0.1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    'ff0e::1',
    '100::1', // discard-only
    '2001:db8::1',
    '3fff::1',
    '5f00::1',
    '4000::1',
    'not-an-ip',
    '127.1',
    '',
  ];
  const external = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '2606:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:1.1.1.1',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2a00:1450::200:5efe:808:808',
  ];

  it(`refuses ${internal.length} internal forms and lets public addresses through`, () => {
    expect(internal.length).toBeGreaterThanOrEqual(50);
    const none = { v4: new Set<string>(), v6: new Set<bigint>() };
    for (const a of internal) expect(isInternalAddress(a, none), a).toBe(true);
    for (const a of external) expect(isInternalAddress(a, none), a).toBe(false);
  });

  it("refuses the host's own addresses in every form, public ones included", () => {
    const own = { v4: new Set(['8.8.4.4']), v6: new Set([BigInt('0x2a001450000000000000000000000099')]) };
    for (const a of ['8.8.4.4', '::ffff:8.8.4.4', '::ffff:808:404', '64:ff9b::808:404', '2002:808:404::1', '2a00:1450::99'])
      expect(isInternalAddress(a, own), a).toBe(true);
    expect(isInternalAddress('8.8.8.8', own)).toBe(false);
    expect(isInternalAddress('2a00:1450::98', own)).toBe(false);
    // And by default, what this machine's interfaces hold.
    for (const a of ownNonLoopback) expect(isInternalAddress(a.address), a.address).toBe(true);
  });

  it('finds a host name that resolves to an internal address, any of its answers; an unknown or silent name is not', async () => {
    const none = { v4: new Set<string>(), v6: new Set<bigint>() };
    const answers: Record<string, string[]> = {
      'inward.example.test': ['10.0.0.5'],
      'mixed.example.test': ['93.184.216.34', '192.168.1.9'],
      'v6.example.test': ['fd00::1'],
      'public.example.test': ['93.184.216.34', '2606:4700::1111'],
    };
    const asked: string[] = [];
    const lookup = async (host: string) => {
      asked.push(host);
      if (host === 'silent.example.test') return new Promise<never>(() => {});
      const list = answers[host];
      if (!list) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return list.map((address) => ({ address }));
    };
    const inward = (endpoint: string) => resolvesInward(endpoint, { lookup, own: none, timeoutMs: 200 });
    expect(await inward('https://inward.example.test/hook')).toBe(true);
    expect(await inward('https://MIXED.example.test./hook')).toBe(true);
    expect(await inward('https://v6.example.test/hook')).toBe(true);
    expect(await inward('https://public.example.test/hook')).toBe(false);
    expect(await inward('https://missing.example.test/hook')).toBe(false);
    const started = performance.now();
    expect(await inward('https://silent.example.test/hook')).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
    // IP literals are `internalEndpoint`'s: no lookup for them.
    expect(await inward('http://10.0.0.1/hook')).toBe(false);
    expect(asked).toEqual([
      'inward.example.test',
      'mixed.example.test',
      'v6.example.test',
      'public.example.test',
      'missing.example.test',
      'silent.example.test',
    ]);
  });

  it('sends nothing to a corpus of 70+ URL forms of this host and private networks: a listener on every local address gets no connection', async () => {
    // Listening on :: takes connections to every address of this host, IPv4 (127.0.0.1, 0.0.0.0, eth0's) and IPv6 alike.
    let connections = 0;
    const trap = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    const port = await listen(trap, '::');
    try {
      const ownForms = ownNonLoopback.flatMap((a) =>
        a.family === 'IPv4' ? [a.address, `[::ffff:${a.address}]`, `[64:ff9b::${a.address}]`] : [`[${a.address}]`],
      );
      const hosts = [
        '127.0.0.1',
        '127.1',
        '127.0.1',
        '2130706433', // decimal
        '0x7f000001', // hex
        '0x7F.0.0.1',
        '0177.0.0.1', // octal
        '017700000001',
        '0x7f.1',
        '127.000.000.001',
        '127.0.0.1.',
        '１２７．０．０．１', // full-width digits and dots
        '127。0。0。1',
        '127.0.0.2',
        '127.255.255.254',
        '0.0.0.0',
        '0',
        '0x0',
        'localhost',
        'LOCALHOST',
        '[::1]',
        '[0:0:0:0:0:0:0:1]',
        '[::]',
        '[::ffff:127.0.0.1]',
        '[::ffff:7f00:1]',
        '[0:0:0:0:0:ffff:127.0.0.1]',
        '[::ffff:0.0.0.0]',
        '[::127.0.0.1]',
        '[::7f00:1]',
        '[::ffff:0:7f00:1]',
        '[64:ff9b::7f00:1]',
        '[64:ff9b::127.0.0.1]',
        '[64:ff9b:1::7f00:1]',
        '[2002:7f00:1::]',
        '[2002:7f00:1::1]',
        '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
        '[fe80::5efe:7f00:1]',
        '[2001:470:1:2:0:5efe:7f00:1]',
        '[2a00:1450::200:5efe:a00:1]',
        '[2002:a00:1::]',
        '[64:ff9b::a9fe:a9fe]',
        '[::ffff:169.254.169.254]',
        '10.0.0.1',
        '172.16.0.1',
        '192.168.0.1',
        '169.254.169.254',
        '100.64.0.1',
        '198.18.0.1',
        '192.0.0.1',
        '192.0.2.1',
        '198.51.100.1',
        '203.0.113.1',
        '224.0.0.1',
        '239.255.255.250',
        '240.0.0.1',
        '255.255.255.255',
        '[fc00::1]',
        '[fd00::1]',
        '[fe80::1]',
        '[fec0::1]',
        '[ff02::1]',
        '[100::1]',
        '[2001:db8::1]',
        '[3fff::1]',
        '[5f00::1]',
        ...ownForms,
      ];
      const urls = hosts.flatMap((h) => [`http://${h}:${port}/in`, `https://${h}:${port}/in`]);
      expect(hosts.length).toBeGreaterThanOrEqual(60);
      await queueTo(urls);
      expect(await deliverDueWebhooks(t.db, { allowPrivate: false, timeoutMs: 3000 })).toBe(0);
      const rows = await outcomes();
      expect(rows).toHaveLength(urls.length);
      for (const r of rows) expect(r, r.endpoint).toMatchObject({ last_error: 'refused', attempts: 1 });
      expect(connections).toBe(0);

      // The same listener does take a delivery when private receivers are allowed: the trap would have caught one.
      await queueTo([`http://127.0.0.1:${port}/in`]);
      await deliverDueWebhooks(t.db, { allowPrivate: true, timeoutMs: 1000 });
      expect(connections).toBe(1);
    } finally {
      await close(trap);
    }
  });

  it('records a failure class only: a closed port, a silent one and a non-HTTP one look alike when refused', async () => {
    const gone = http.createServer();
    const closedPort = await listen(gone);
    await close(gone);
    const sockets: net.Socket[] = [];
    // One reads what comes and never answers, the other greets like an SSH server.
    const silent = net.createServer((s) => sockets.push(s.resume()));
    const chatty = net.createServer((s) => sockets.push(s.resume().end('SSH-2.0-OpenSSH_9.6\r\n')));
    const silentPort = await listen(silent);
    const chattyPort = await listen(chatty);
    try {
      // Refused targets: one class, whatever listens there.
      const urls = [closedPort, silentPort, chattyPort].map((p) => `http://127.0.0.1:${p}/in`);
      await queueTo(urls);
      await deliverDueWebhooks(t.db, { allowPrivate: false, timeoutMs: 1000 });
      expect((await outcomes()).map((d) => d.last_error)).toEqual(['refused', 'refused', 'refused']);

      // Allowed ones (WEBHOOK_ALLOW_PRIVATE): no error text, only unreachable / timeout.
      await sql`delete from webhook_deliveries`.execute(t.db);
      await sql`delete from webhooks`.execute(t.db);
      await queueTo([...urls, 'https://receiver.example.invalid/in']);
      await deliverDueWebhooks(t.db, { allowPrivate: true, timeoutMs: 1000 });
      expect((await outcomes()).map((r) => r.last_error)).toEqual(['unreachable', 'timeout', 'unreachable', 'unreachable']);
    } finally {
      for (const s of sockets) s.destroy();
      await Promise.all([close(silent), close(chatty)]);
    }
  });
});

describe('webhook delivery lanes', () => {
  it('one receiver that never answers holds only its own endpoint: another endpoint is delivered at once', async () => {
    const hanging: http.ServerResponse[] = [];
    const slow = http.createServer((_req, res) => hanging.push(res));
    const slowUrl = `http://127.0.0.1:${await listen(slow)}/slow`;
    try {
      // Three for the silent receiver, queued first, then one for the good one.
      await t.build.webhook({ agent_id: agentB, endpoint: slowUrl, events: ['scan.created'] });
      for (let i = 0; i < 3; i++) await enqueueWebhooks(t.db, agentB, 'scan.created', { n: i });
      await t.build.webhook({ agent_id: agentA, endpoint, events: ['scan.created'] });
      await enqueueWebhooks(t.db, agentA, 'scan.created', { n: 'fast' });

      const deliverer = createWebhookDeliverer(t.db, { allowPrivate: true, timeoutMs: 4000 });
      const started = Date.now();
      await deliverer.tick();
      await expect.poll(() => received.length, { timeout: 3000, interval: 20 }).toBe(1);
      // Well inside the silent receiver's timeout: nothing waited for it.
      expect(Date.now() - started).toBeLessThan(2500);
      // The silent endpoint has one request in flight, never more.
      expect(hanging).toHaveLength(1);
      await deliverer.tick();
      await new Promise((r) => setTimeout(r, 200));
      expect(hanging).toHaveLength(1);

      // Its first delivery times out; the lane frees and the next one goes at once, without waiting for the timer.
      await expect.poll(() => hanging.length, { timeout: 8000, interval: 50 }).toBe(2);
      const first = await sql<{ last_error: string | null; attempts: number }>`
        select last_error, attempts from webhook_deliveries order by id limit 1`.execute(t.db);
      expect(first.rows[0]).toEqual({ last_error: 'timeout', attempts: 1 });
      await deliverer.stop();
      expect(deliverer.delivered).toBe(1);
    } finally {
      slow.closeAllConnections();
      await close(slow);
    }
  });

  it('leaves an endpoint with a delivery claimed by another process alone, and never sends one delivery twice', async () => {
    const other = `${endpoint.replace('/hooks', '/other')}`;
    await t.build.webhook({ agent_id: agentA, endpoint, events: ['scan.created'] });
    await t.build.webhook({ agent_id: agentB, endpoint: other, events: ['scan.created'] });
    for (let i = 0; i < 3; i++) {
      await enqueueWebhooks(t.db, agentA, 'scan.created', { n: i });
      await enqueueWebhooks(t.db, agentB, 'scan.created', { n: i });
    }
    // Another process is sending the oldest delivery of `endpoint`.
    await sql`update webhook_deliveries set claimed_until = now() + interval '1 minute'
      where id = (select min(d.id) from webhook_deliveries d join webhooks w on w.id = d.webhook_id where w.endpoint = ${endpoint})`.execute(
      t.db,
    );
    expect(await deliver()).toBe(3);
    expect(received.map((r) => r.url)).toEqual(['/other', '/other', '/other']);

    // Claim released: two deliverers at once (two processes) send each remaining delivery exactly once.
    await sql`update webhook_deliveries set claimed_until = null`.execute(t.db);
    received.length = 0;
    const results = await Promise.all([deliver(), deliver(), deliver()]);
    expect(results.reduce((a, b) => a + b, 0)).toBe(3);
    expect(received.map((r) => r.headers['webhook-id']).sort()).toEqual([...new Set(received.map((r) => r.headers['webhook-id']))].sort());
    expect(received).toHaveLength(3);
    expect(await deliveries()).toHaveLength(6);
    expect((await deliveries()).every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
  });
});

describe('webhook outbox', () => {
  /** The transaction that last wrote a row: a scan and its delivery share it when they commit together. */
  const xmins = async (scanId: number) => {
    const scan = await sql<{ x: string }>`select xmin::text as x from scans where id = ${scanId}`.execute(t.db);
    const queued = await sql<{ x: string; event: string }>`
      select xmin::text as x, event from webhook_deliveries where payload->'data'->>'id' = ${String(scanId)} order by id desc limit 1`.execute(
      t.db,
    );
    return { scan: scan.rows[0]?.x, delivery: queued.rows[0]?.x, event: queued.rows[0]?.event };
  };
  const expectQueuedWithWrite = async (scanId: number, event: string) => {
    const x = await xmins(scanId);
    expect(x.delivery).toMatch(/^\d+$/);
    expect(x).toEqual({ scan: x.delivery, delivery: x.delivery, event });
  };

  it('queues every scan change in the transaction that writes it: ingestion, results, status, edit, manual scan, refresh', async () => {
    await hook(agentA, ['scan.created', 'scan.updated']);
    const created = await ingest(`hook-tx-${Date.now()}`);
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as number;
    await expectQueuedWithWrite(id, 'scan.created');

    const results = await t.as(deviceKey, {
      method: 'PUT',
      url: `/api/scan/ingest/scans/${id}/results`,
      payload: { damages: [{ id: 'd-1', carPanel: 'bonnet', type: 'dents', level: 'light', width_mm: 10, height_mm: 10 }] },
    });
    expect(results.statusCode, results.body).toBe(200);
    await expectQueuedWithWrite(id, 'scan.updated');

    const status = await t.as(deviceKey, { method: 'POST', url: `/api/scan/ingest/scans/${id}/status`, payload: { status: 'ready' } });
    expect(status.statusCode).toBe(200);
    await expectQueuedWithWrite(id, 'scan.updated');

    const edit = await t.as(admin, { method: 'PUT', url: `/api/scan/scans/${id}`, payload: { carColor: 'Teal' } });
    expect(edit.statusCode, edit.body).toBe(200);
    await expectQueuedWithWrite(id, 'scan.updated');

    // Refresh queues only when the recount changes the totals.
    const before = (await deliveries()).length;
    expect((await t.as(admin, { method: 'POST', url: `/api/scan/scans/${id}/refresh` })).statusCode).toBe(200);
    expect(await deliveries()).toHaveLength(before);
    await sql`update scan_measures set count = count + 2 where scan_id = ${id}`.execute(t.db);
    expect((await t.as(admin, { method: 'POST', url: `/api/scan/scans/${id}/refresh` })).statusCode).toBe(200);
    expect(await deliveries()).toHaveLength(before + 1);
    await expectQueuedWithWrite(id, 'scan.updated');

    const manual = await t.as(admin, { method: 'POST', url: '/api/scan/scans', payload: { agent_id: agentA } });
    expect(manual.statusCode, manual.body).toBe(201);
    const manualId = manual.json().data.id as number;
    // The report written after the commit touches scan_reports, not the scan: the insert's transaction is the delivery's.
    await expectQueuedWithWrite(manualId, 'scan.created');
  });

  it('a write rolled back leaves no delivery; a queue that cannot be written keeps the write from happening', async () => {
    await hook(agentA, ['scan.created', 'scan.updated']);
    const id = (await ingest(`hook-rb-${Date.now()}`)).json().data.id as number;
    await sql`delete from webhook_deliveries`.execute(t.db);

    // Inside the transaction the delivery exists; rolled back, it never did.
    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql`update scans set car_color = 'Rolled back' where id = ${id}`.execute(trx);
        await queueScanEvent(trx, 'updated', id);
        expect((await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries`.execute(trx)).rows[0].n).toBe(1);
        throw new Error('crash before commit');
      }),
    ).rejects.toThrow('crash before commit');
    expect(await deliveries()).toEqual([]);

    // Through the route: the commit fails (a deferred check), so the edit and its delivery go together.
    await sql`create function refuse_commit() returns trigger language plpgsql as $$ begin raise exception 'commit refused'; end $$`.execute(
      t.db,
    );
    await sql`create constraint trigger refuse_commit after update on scans deferrable initially deferred for each row
      when (new.car_color = 'Never') execute function refuse_commit()`.execute(t.db);
    try {
      const res = await t.as(admin, { method: 'PUT', url: `/api/scan/scans/${id}`, payload: { carColor: 'Never' } });
      expect(res.statusCode).toBe(500);
      expect(await deliveries()).toEqual([]);
      expect((await sql<{ c: string | null }>`select car_color as c from scans where id = ${id}`.execute(t.db)).rows[0].c).not.toBe(
        'Never',
      );
    } finally {
      await sql`drop trigger refuse_commit on scans`.execute(t.db);
      await sql`drop function refuse_commit()`.execute(t.db);
    }

    // And the other way round: when the delivery cannot be queued, the scan is not created either.
    await sql`create function refuse_queue() returns trigger language plpgsql as $$ begin raise exception 'outbox down'; end $$`.execute(
      t.db,
    );
    await sql`create trigger refuse_queue before insert on webhook_deliveries for each row execute function refuse_queue()`.execute(t.db);
    try {
      const scanId = `hook-noq-${Date.now()}`;
      expect((await ingest(scanId)).statusCode).toBe(500);
      expect((await sql`select 1 from scans where scan_id = ${scanId}`.execute(t.db)).rows).toEqual([]);
    } finally {
      await sql`drop trigger refuse_queue on webhook_deliveries`.execute(t.db);
      await sql`drop function refuse_queue()`.execute(t.db);
    }
  });
});

describe('webhook signature', () => {
  it('signs with the base64-decoded secret, as the Standard Webhooks verifier reads it', () => {
    const key = Buffer.alloc(32, 7);
    const secret = `whsec_${key.toString('base64')}`;
    const ts = Math.floor(Date.now() / 1000);
    const sig = signWebhook(secret, 'msg_1', ts, '{"a":1}');
    expect(sig).toBe(`v1,${createHmac('sha256', key).update(`msg_1.${ts}.{"a":1}`).digest('base64')}`);
    expect(
      new Webhook(secret).verify('{"a":1}', { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': sig }),
    ).toEqual({ a: 1 });
  });
});
