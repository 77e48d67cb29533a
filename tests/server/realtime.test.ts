import type { FastifyInstance } from 'fastify';
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { buildApp } from '../../server/app';
import { ConfigError, loadConfig } from '../../server/config';
import type { PortalScanEvent, ScanEvent } from '../../server/realtime/broadcaster';
import { channelAuth, messageText, PusherHub } from '../../server/realtime/embedded';
import { externalBroadcaster, type PusherClient } from '../../server/realtime/external';
import { hash } from '@node-rs/argon2';
import { createTestContext, type TestContext } from './helper';
import { collect, disconnectAll, pusherClient, scanEvents, subscribe, subscribed, track } from './pusher-clients';

const KEY = 'test-app-key';
const SECRET = 'test-app-secret-0123456789abcdef';

let t: TestContext;
let port: number;
let base: string;
let admin: string;
let agentA: number;
let agentB: number;
let clientA: number;
let clientB: number;
let agentUserA: string;
let clientUserA: string;
let noScanUser: string;

beforeAll(async () => {
  t = await createTestContext({ REALTIME_APP_KEY: KEY, REALTIME_APP_SECRET: SECRET });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  port = address.port;
  base = `http://127.0.0.1:${port}`;
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  agentA = (await t.build.agent({ name: 'RT Agent A' })).id;
  agentB = (await t.build.agent({ name: 'RT Agent B' })).id;
  clientA = (await t.build.client({ name: 'RT Client A' })).id;
  clientB = (await t.build.client({ name: 'RT Client B' })).id;
  agentUserA = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA] })).email);
  clientUserA = await t.login((await t.build.user({ roles: ['Client'], clients: [clientA] })).email);
  noScanUser = await t.login((await t.build.user({ permissions: ['location'] })).email);
});

const scan = scanEvents('RT', 1000, () => ({ agent_id: agentA, client_id: clientA, client_name: 'RT Client A' }));

// ---- clients -------------------------------------------------------------------------------------

afterEach(disconnectAll);

/** The real pusher-js client on this instance (or another port, key or auth base). */
const pusher = (token?: string, opts: { wsPort?: number; authBase?: string; key?: string; headers?: Record<string, string> } = {}) =>
  pusherClient(token, { key: opts.key ?? KEY, wsPort: opts.wsPort ?? port, authBase: opts.authBase ?? base, headers: opts.headers });

/** A raw protocol client, to see exact frames. */
async function raw(path = `/app/${KEY}?protocol=7&client=js&version=8.6.0`) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
  const frames: { event: string; channel?: string; data: Record<string, unknown> }[] = [];
  const waiters: { test: (f: (typeof frames)[number]) => boolean; resolve: (f: (typeof frames)[number]) => void }[] = [];
  ws.on('message', (buf) => {
    const m = JSON.parse(messageText(buf)) as { event: string; channel?: string; data: string | Record<string, unknown> };
    const f = {
      event: m.event,
      channel: m.channel,
      data: typeof m.data === 'string' ? (JSON.parse(m.data) as Record<string, unknown>) : m.data,
    };
    frames.push(f);
    for (const w of [...waiters])
      if (w.test(f)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(f);
      }
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const next = (test: (f: (typeof frames)[number]) => boolean) =>
    new Promise<(typeof frames)[number]>((resolve, reject) => {
      const hit = frames.find(test);
      if (hit) return resolve(hit);
      const timer = setTimeout(() => reject(new Error('frame did not arrive')), 5000);
      waiters.push({
        test,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  const send = (event: string, data: unknown) => ws.send(JSON.stringify({ event, data }));
  track({ disconnect: () => ws.close() });
  return { ws, frames, next, send, closed };
}

const authFor = (token: string, socketId: string, channel: string) =>
  t.as(token, {
    method: 'POST',
    url: '/api/broadcasting/auth',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ socket_id: socketId, channel_name: channel }).toString(),
  });

// ---- tests ---------------------------------------------------------------------------------------

describe('GET /api/broadcasting/config', () => {
  it('tells the browser the embedded key, the host and port it came to, and the auth endpoint, publicly, without the secret', async () => {
    const res = await fetch(`${base}/api/broadcasting/config`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({
      data: { key: KEY, wsHost: '127.0.0.1', wsPort: port, wssPort: port, forceTLS: false, authEndpoint: '/api/broadcasting/auth' },
    });
    expect(body).not.toContain(SECRET);
    const odd = await t.app.inject({ method: 'GET', url: '/api/broadcasting/config', headers: { host: 'scanquote.example:8443' } });
    expect(odd.json().data).toMatchObject({ wsHost: 'scanquote.example', wsPort: 8443 });
  });

  it('generates a key per process when none is configured', async () => {
    const other = await createTestContext();
    const key = (await other.app.inject({ method: 'GET', url: '/api/broadcasting/config' })).json().data.key;
    expect(key).toMatch(/^[0-9a-f]{20}$/);
    expect(key).not.toBe(KEY);
  });
});

describe('the embedded Pusher protocol endpoint', () => {
  it('establishes a pusher-js connection with a Pusher socket id', async () => {
    const p = pusher(admin);
    await new Promise<void>((resolve) => p.connection.bind('connected', () => resolve()));
    expect(p.connection.socket_id).toMatch(/^\d+\.\d+$/);
  });

  it('sends pusher:connection_established with socket_id and activity_timeout, and answers pusher:ping with pusher:pong', async () => {
    const c = await raw();
    const hello = await c.next((f) => f.event === 'pusher:connection_established');
    expect(hello.data).toEqual({ socket_id: expect.stringMatching(/^\d+\.\d+$/), activity_timeout: 30 });
    c.send('pusher:ping', {});
    await c.next((f) => f.event === 'pusher:pong');
  });

  it('keeps a pusher-js connection alive through its own pings (activity timeout shortened)', async () => {
    const p = new Pusher(KEY, {
      wsHost: '127.0.0.1',
      wsPort: port,
      forceTLS: false,
      enabledTransports: ['ws'],
      disableStats: true,
      cluster: '',
      activityTimeout: 100,
      pongTimeout: 500,
    });
    track(p);
    const states: string[] = [];
    let pongs = 0;
    p.connection.bind('state_change', (s: { current: string }) => states.push(s.current));
    p.connection.bind('message', (m: { event: string }) => {
      if (m.event === 'pusher:pong') pongs++;
    });
    await new Promise<void>((resolve) => p.connection.bind('connected', () => resolve()));
    await new Promise((r) => setTimeout(r, 1200));
    // Without our pongs pusher-js would have dropped and reconnected after 600 ms.
    expect(states).toEqual(['connected']);
    expect(pongs).toBeGreaterThanOrEqual(3);
  });

  it('drops a connection that stops answering the heartbeat and keeps one that answers', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    const log = t.app.log;
    const hub = new PusherHub({ key: KEY, secret: SECRET, activityTimeout: 0.15, portalMode: () => Promise.resolve('open' as const), log });
    wss.on('connection', (ws) => hub.accept(ws, KEY, '7'));
    await new Promise((r) => wss.once('listening', r));
    const { port: hubPort } = wss.address() as { port: number };
    const silent = new WebSocket(`ws://127.0.0.1:${hubPort}`, { autoPong: false });
    const lively = new WebSocket(`ws://127.0.0.1:${hubPort}`);
    const silentClosed = new Promise<void>((r) => silent.on('close', () => r()));
    await Promise.all([silent, lively].map((ws) => new Promise((r) => ws.once('message', r))));
    expect(hub.connectionCount).toBe(2);
    await silentClosed;
    await new Promise((r) => setTimeout(r, 300));
    expect(lively.readyState).toBe(WebSocket.OPEN);
    expect(hub.connectionCount).toBe(1);
    lively.close();
    await hub.close();
    await new Promise((r) => wss.close(r));
  });

  it('refuses a wrong app key with pusher:error 4001 and closes', async () => {
    const c = await raw('/app/not-the-key?protocol=7');
    const err = await c.next((f) => f.event === 'pusher:error');
    expect(err.data).toMatchObject({ code: 4001 });
    expect(await c.closed).toBe(4001);
  });

  it('refuses a forged, replayed or widened signature, and accepts the genuine one', async () => {
    const c = await raw();
    const socketId = (await c.next((f) => f.event === 'pusher:connection_established')).data.socket_id as string;
    // The n-th refusal on a channel (each subscribe attempt answers once).
    const refused = (channel: string, n = 1) =>
      c.next(
        (f) =>
          f.event === 'pusher:subscription_error' &&
          f.channel === channel &&
          c.frames.filter((g) => g.event === 'pusher:subscription_error' && g.channel === channel).length >= n,
      );

    c.send('pusher:subscribe', { channel: 'private-scan.agent.1', auth: `${KEY}:${'0'.repeat(64)}` });
    expect((await refused('private-scan.agent.1')).data).toMatchObject({ type: 'AuthError', status: 401 });

    // A signature made with another secret, or for another connection, is no better.
    c.send('pusher:subscribe', {
      channel: 'private-scan.agent.2',
      auth: channelAuth(KEY, 'some-other-secret-0123456789', socketId, 'private-scan.agent.2'),
    });
    await refused('private-scan.agent.2');
    c.send('pusher:subscribe', { channel: 'private-scan.agent.3', auth: channelAuth(KEY, SECRET, '1.1', 'private-scan.agent.3') });
    await refused('private-scan.agent.3');

    // An Agent user's real signature for private-scan, with its scope rewritten to "everything".
    const signed = (await authFor(agentUserA, socketId, 'private-scan')).json<{ auth: string; channel_data: string }>();
    expect(JSON.parse(signed.channel_data)).toMatchObject({ agents: [agentA], clients: null });
    c.send('pusher:subscribe', {
      channel: 'private-scan',
      auth: signed.auth,
      channel_data: JSON.stringify({ agents: null, clients: null }),
    });
    await refused('private-scan');
    // Or with the scope dropped (which would read as unrestricted).
    c.send('pusher:subscribe', { channel: 'private-scan', auth: signed.auth });
    await refused('private-scan', 2);

    c.send('pusher:subscribe', { channel: 'private-scan', auth: signed.auth, channel_data: signed.channel_data });
    await c.next((f) => f.event === 'pusher_internal:subscription_succeeded' && f.channel === 'private-scan');
    await t.app.broadcaster.scanCreated(scan({ agent_id: agentB }));
    await t.app.broadcaster.scanCreated(scan({ agent_id: agentA, licensePlate: 'MINE' }));
    const got = await c.next((f) => f.event === 'created');
    expect(got.data.licensePlate).toBe('MINE');
    expect(c.frames.filter((f) => f.event === 'created')).toHaveLength(1);
  });

  it('stops delivering after pusher:unsubscribe', async () => {
    const c = await raw();
    const socketId = (await c.next((f) => f.event === 'pusher:connection_established')).data.socket_id as string;
    const { auth, channel_data } = (await authFor(admin, socketId, 'private-scan')).json<{ auth: string; channel_data: string }>();
    c.send('pusher:subscribe', { channel: 'private-scan', auth, channel_data });
    await c.next((f) => f.event === 'pusher_internal:subscription_succeeded');
    await t.app.broadcaster.scanUpdated(scan({ licensePlate: 'BEFORE' }));
    await c.next((f) => f.event === 'updated');
    c.send('pusher:unsubscribe', { channel: 'private-scan' });
    c.send('pusher:ping', {});
    await c.next((f) => f.event === 'pusher:pong');
    await t.app.broadcaster.scanUpdated(scan({ licensePlate: 'AFTER' }));
    c.send('pusher:ping', {});
    await c.next((f) => f.event === 'pusher:pong' && c.frames.filter((g) => g.event === 'pusher:pong').length === 2);
    expect(c.frames.filter((f) => f.event === 'updated').map((f) => f.data.licensePlate)).toEqual(['BEFORE']);
  });

  it('refuses client events and unknown public channels', async () => {
    const c = await raw();
    await c.next((f) => f.event === 'pusher:connection_established');
    c.send('client-typing', {});
    await c.next((f) => f.event === 'pusher:error');
    c.send('pusher:subscribe', { channel: 'anything-public' });
    expect((await c.next((f) => f.event === 'pusher:subscription_error')).data).toMatchObject({ status: 404 });
  });
});

describe('POST /api/broadcasting/auth', () => {
  it('signs private-scan for an admin, form-encoded as pusher-js sends it', async () => {
    const res = await authFor(admin, '123.456', 'private-scan');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ auth: string; channel_data: string }>();
    expect(body.auth).toBe(channelAuth(KEY, SECRET, '123.456', 'private-scan', body.channel_data));
    expect(JSON.parse(body.channel_data)).toEqual({ agents: null, clients: null, user: expect.any(Number), token: expect.any(Number) });
  });

  it('signs a per-agent channel with its owner as channel_data (HMAC of "socket_id:channel:channel_data")', async () => {
    const res = await authFor(agentUserA, '1.2', `private-scan.agent.${agentA}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ auth: string; channel_data: string }>();
    expect(JSON.parse(body.channel_data)).toEqual({ user: expect.any(Number), token: expect.any(Number) });
    expect(body.auth).toBe(channelAuth(KEY, SECRET, '1.2', `private-scan.agent.${agentA}`, body.channel_data));
  });

  it('answers 401 without a token, 422 naming a missing or bad field', async () => {
    const anon = await t.app.inject({
      method: 'POST',
      url: '/api/broadcasting/auth',
      payload: { socket_id: '1.2', channel_name: 'private-scan' },
    });
    expect(anon.statusCode).toBe(401);
    const missing = await t.as(admin, { method: 'POST', url: '/api/broadcasting/auth', payload: { socket_id: '1.2' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ error: { channel_name: 'Channel Name is required' } });
    const bad = await t.as(admin, {
      method: 'POST',
      url: '/api/broadcasting/auth',
      payload: { socket_id: 'abc', channel_name: 'private-scan' },
    });
    expect(bad.json()).toEqual({ error: { socket_id: 'Socket Id is invalid' } });
  });

  it('answers 403 for a user without `scan`, a foreign agent or client channel, a public or unknown channel', async () => {
    const refusals: [string, string][] = [
      [noScanUser, 'private-scan'],
      [agentUserA, `private-scan.agent.${agentB}`],
      [agentUserA, `private-scan.client.${clientA}`],
      [clientUserA, `private-scan.client.${clientB}`],
      [clientUserA, `private-scan.agent.${agentA}`],
      [admin, `agent.${agentA}.scans`],
      [admin, 'private-something-else'],
      [admin, 'presence-scan'],
    ];
    for (const [token, channel] of refusals) {
      const res = await authFor(token, '1.2', channel);
      expect(res.statusCode, channel).toBe(403);
      expect(res.json()).toEqual({ error: 'This action is unauthorized.' });
    }
    expect((await authFor(clientUserA, '1.2', `private-scan.client.${clientA}`)).statusCode).toBe(200);
    expect((await authFor(agentUserA, '1.2', `private-scan.agent.${agentA}.client.${clientB}`)).statusCode).toBe(200);
  });

  it('tells each user which channels carry their scan events (embedded: private-scan, filtered)', async () => {
    for (const token of [admin, agentUserA, clientUserA]) {
      const res = await t.as(token, { method: 'GET', url: '/api/broadcasting/channels' });
      expect(res.json()).toEqual({ data: { scan: ['private-scan'] } });
    }
    expect((await t.as(noScanUser, { method: 'GET', url: '/api/broadcasting/channels' })).statusCode).toBe(403);
  });
});

describe('scan events with pusher-js', () => {
  it('an admin receives created and updated on private-scan with the live payload', async () => {
    const ch = await subscribed(pusher(admin), 'private-scan');
    const created = collect(ch, 'created');
    const updated = collect(ch, 'updated');
    const s = scan({ agent_id: agentB, client_id: clientB });
    await t.app.broadcaster.scanCreated(s);
    await t.app.broadcaster.scanUpdated({ ...s, status: 'uploaded' });
    expect((await created.until(1))[0]).toEqual(s);
    expect((await updated.until(1))[0]).toMatchObject({ id: s.id, status: 'uploaded' });
  });

  it("an Agent user of A receives A's scans and not B's", async () => {
    const ch = await subscribed(pusher(agentUserA), 'private-scan');
    const got = collect<ScanEvent>(ch, 'created');
    await t.app.broadcaster.scanCreated(scan({ agent_id: agentB, licensePlate: 'B-1' }));
    await t.app.broadcaster.scanCreated(scan({ agent_id: null, licensePlate: 'NONE' }));
    await t.app.broadcaster.scanCreated(scan({ agent_id: agentA, licensePlate: 'A-1' }));
    // Delivery is in order per connection: once A-1 is here, B-1 would have been too.
    expect((await got.until(1)).map((s) => s.licensePlate)).toEqual(['A-1']);
  });

  it("a Client user receives their clients' scans only", async () => {
    const ch = await subscribed(pusher(clientUserA), 'private-scan');
    const got = collect<ScanEvent>(ch, 'updated');
    await t.app.broadcaster.scanUpdated(scan({ agent_id: agentA, client_id: clientB, licensePlate: 'CB' }));
    await t.app.broadcaster.scanUpdated(scan({ agent_id: agentB, client_id: clientA, licensePlate: 'CA' }));
    expect((await got.until(1)).map((s) => s.licensePlate)).toEqual(['CA']);
  });

  it('refuses private-scan to a user without `scan` (403 from the auth endpoint)', async () => {
    const outcome = await subscribe(pusher(noScanUser), 'private-scan');
    expect(outcome).toMatchObject({ ok: false, status: 403 });
  });

  it("refuses a foreign agent's channel and allows the user's own", async () => {
    const p = pusher(agentUserA);
    expect(await subscribe(p, `private-scan.agent.${agentB}`)).toMatchObject({ ok: false, status: 403 });
    // The portal channel is a kiosk's (X-Kiosk-Token), not a signed-in user's.
    expect(await subscribe(p, `private-agent.${agentB}.scans`)).toMatchObject({ ok: false, status: 401 });
    const own = collect<ScanEvent>(await subscribed(p, `private-scan.agent.${agentA}`), 'created');
    await t.app.broadcaster.scanCreated(scan({ agent_id: agentB, licensePlate: 'NOT-MINE' }));
    await t.app.broadcaster.scanCreated(scan({ agent_id: agentA, licensePlate: 'MINE' }));
    expect((await own.until(1)).map((s) => s.licensePlate)).toEqual(['MINE']);
  });

  it('delivers 20 events in the order they were published', async () => {
    const got = collect<ScanEvent>(await subscribed(pusher(agentUserA), 'private-scan'), 'created');
    const sent = Array.from({ length: 20 }, (_, i) => scan({ agent_id: agentA, licensePlate: `ORD${i}` }));
    await Promise.all(sent.map((s) => t.app.broadcaster.scanCreated(s)));
    expect((await got.until(20)).map((s) => s.licensePlate)).toEqual(sent.map((s) => s.licensePlate));
  });

  it("works through laravel-echo: private('scan').listen('.created')", async () => {
    const echo = new Echo({
      broadcaster: 'reverb',
      Pusher,
      key: KEY,
      wsHost: '127.0.0.1',
      wsPort: port,
      forceTLS: false,
      enabledTransports: ['ws'],
      disableStats: true,
      authEndpoint: `${base}/api/broadcasting/auth`,
      auth: { headers: { Authorization: `Bearer ${admin}` } },
    });
    track(echo);
    const got = new Promise<ScanEvent>((resolve) => echo.private('scan').listen('.created', (e: ScanEvent) => resolve(e)));
    await new Promise<void>((resolve) => echo.private('scan').subscribed(() => resolve()));
    await t.app.broadcaster.scanCreated(scan({ licensePlate: 'ECHO1' }));
    expect((await got).licensePlate).toBe('ECHO1');
  });
});

describe('the customer portal channel agent.{id}.scans', () => {
  it('delivers saved with the portal fields only to an anonymous client, for an enabled agent with an open portal', async () => {
    const agent = await t.build.agent({ is_enabled: 1, portal_mode: 'open' });
    const got = collect<PortalScanEvent>(await subscribed(pusher(), `agent.${agent.id}.scans`), 'saved');
    const full = {
      id: 77,
      licensePlate: 'PORT1',
      timestamp: '2025-01-02T03:04:05.000Z',
      has_quote: true,
      status: 'uploaded',
      type: 'arch',
      damageCount: 3,
      dentCount: 2,
      scratchCount: 1,
      client_name: 'Secret Client',
      valuation: 99999,
    };
    await t.app.broadcaster.portalScanSaved(agent.id, full);
    expect((await got.until(1))[0]).toEqual({
      id: 77,
      licensePlate: 'PORT1',
      timestamp: '2025-01-02T03:04:05.000Z',
      has_quote: true,
      status: 'uploaded',
      type: 'arch',
      damageCount: 3,
      dentCount: 2,
      scratchCount: 1,
    });
  });

  it('refuses the channel of a disabled or missing agent, and stops events once an agent is disabled', async () => {
    const disabled = await t.build.agent({ is_enabled: 0 });
    const p = pusher();
    expect(await subscribe(p, `agent.${disabled.id}.scans`)).toMatchObject({ ok: false, status: 404 });
    expect(await subscribe(p, 'agent.999999.scans')).toMatchObject({ ok: false, status: 404 });

    const agent = await t.build.agent({ is_enabled: 1, portal_mode: 'open' });
    const got = collect<PortalScanEvent>(await subscribed(p, `agent.${agent.id}.scans`), 'saved');
    const portal = (id: number): PortalScanEvent => ({
      id,
      licensePlate: `P${id}`,
      timestamp: new Date(),
      has_quote: false,
      status: 'uploaded',
      type: 'tire',
      damageCount: 3,
      dentCount: 2,
      scratchCount: 1,
    });
    await t.db.updateTable('agents').set({ is_enabled: 0 }).where('id', '=', agent.id).execute();
    await t.app.broadcaster.portalScanSaved(agent.id, portal(1));
    await t.db.updateTable('agents').set({ is_enabled: 1 }).where('id', '=', agent.id).execute();
    await t.app.broadcaster.portalScanSaved(agent.id, portal(2));
    expect((await got.until(1)).map((s) => s.id)).toEqual([2]);
  });
});

describe('the enrolled customer portal: private-agent.{id}.scans with a kiosk token', () => {
  const saved = (id: number): PortalScanEvent => ({
    id,
    licensePlate: `K${id}`,
    timestamp: '2025-01-02T03:04:05.000Z',
    has_quote: false,
    status: 'uploaded',
    type: 'tire',
    damageCount: 3,
    dentCount: 2,
    scratchCount: 1,
  });
  const enrol = async (agentId: number, pincode: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/agent/agents/${agentId}/portal/enrol`,
      payload: { pincode },
      remoteAddress: '10.99.0.1',
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.kiosk_token as string;
  };

  it('refuses the public channel and the private one without a token; a kiosk token opens the private one', async () => {
    const agent = await t.build.agent({ is_enabled: 1, pincode_hash: await hash('482913') });
    const anonymous = pusher();
    expect(await subscribe(anonymous, `agent.${agent.id}.scans`)).toMatchObject({ ok: false, status: 401 });
    expect(await subscribe(anonymous, `private-agent.${agent.id}.scans`)).toMatchObject({ ok: false, status: 401 });
    // A signed-in user is no kiosk either, and a made-up token opens nothing.
    expect(await subscribe(pusher(admin), `private-agent.${agent.id}.scans`)).toMatchObject({ ok: false, status: 401 });
    const forged = pusher(undefined, { headers: { 'X-Kiosk-Token': `${agent.id}.1.9999999999.${'A'.repeat(43)}` } });
    expect(await subscribe(forged, `private-agent.${agent.id}.scans`)).toMatchObject({ ok: false, status: 401 });

    const token = await enrol(agent.id, '482913');
    const kiosk = pusher(undefined, { headers: { 'X-Kiosk-Token': token } });
    const got = collect<PortalScanEvent>(await subscribed(kiosk, `private-agent.${agent.id}.scans`), 'saved');
    await t.app.broadcaster.portalScanSaved(agent.id, saved(1));
    expect(await got.until(1)).toEqual([saved(1)]);
    // The token is the agent's own: another agent's portal stays shut.
    const other = await t.build.agent({ is_enabled: 1, pincode_hash: await hash('482913') });
    expect(await subscribe(kiosk, `private-agent.${other.id}.scans`)).toMatchObject({ ok: false, status: 401 });

    // A new pincode voids the token: the next subscription is refused.
    await t.db
      .updateTable('agents')
      .set({ pincode_hash: await hash('111222') })
      .where('id', '=', agent.id)
      .execute();
    const later = pusher(undefined, { headers: { 'X-Kiosk-Token': token } });
    expect(await subscribe(later, `private-agent.${agent.id}.scans`)).toMatchObject({ ok: false, status: 401 });
  });

  it('an open portal needs no token on either channel, and events reach both', async () => {
    const agent = await t.build.agent({ is_enabled: 1, portal_mode: 'open' });
    const p = pusher();
    const privateGot = collect<PortalScanEvent>(await subscribed(p, `private-agent.${agent.id}.scans`), 'saved');
    const publicGot = collect<PortalScanEvent>(await subscribed(p, `agent.${agent.id}.scans`), 'saved');
    await t.app.broadcaster.portalScanSaved(agent.id, saved(2));
    expect(await privateGot.until(1)).toEqual([saved(2)]);
    expect(await publicGot.until(1)).toEqual([saved(2)]);

    // Switched to enrolled: the public channel hears nothing more.
    await t.db.updateTable('agents').set({ portal_mode: 'enrolled' }).where('id', '=', agent.id).execute();
    await t.app.broadcaster.portalScanSaved(agent.id, saved(3));
    await t.app.broadcaster.portalScanSaved(agent.id, saved(4));
    expect((await privateGot.until(3)).map((s) => s.id)).toEqual([2, 3, 4]);
    expect(publicGot.got.map((s) => s.id)).toEqual([2]);
  });

  it('the auth endpoint answers 401 with the kiosk message, 403 for a disabled agent', async () => {
    const agent = await t.build.agent({ is_enabled: 1 });
    const disabled = await t.build.agent({ is_enabled: 0, portal_mode: 'open' });
    const post = (channel: string) =>
      t.app.inject({ method: 'POST', url: '/api/broadcasting/auth', payload: { socket_id: '1.2', channel_name: channel } });
    const refused = await post(`private-agent.${agent.id}.scans`);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ error: 'Kiosk not enrolled: enter the pincode' });
    expect((await post(`private-agent.${disabled.id}.scans`)).statusCode).toBe(403);
  });
});

describe('the external Pusher-compatible implementation', () => {
  it('triggers through the SDK: one call per event to private-scan and the per-scope channels, in order, with one JSON string', async () => {
    const calls: { channels: string[]; event: string; data: unknown }[] = [];
    let release: () => void = () => {};
    const slow = new Promise<void>((r) => {
      release = r;
    });
    const fake: PusherClient = {
      async trigger(channels, event, data) {
        if (calls.length === 0) await slow;
        calls.push({ channels, event, data });
        if (event === 'updated') throw new Error('server down');
      },
      authorizeChannel: () => ({ auth: 'x' }),
    };
    const logged: unknown[] = [];
    const log = { error: (o: unknown) => logged.push(o) } as unknown as Parameters<typeof externalBroadcaster>[1]['log'];
    const b = externalBroadcaster(fake, {
      portalMode: (id: number) => Promise.resolve(id === 5 ? 'open' : id === 7 ? 'enrolled' : null),
      log,
    });
    const first = b.scanCreated(scan({ id: 1, agent_id: 3, client_id: 4 }));
    const second = b.scanUpdated(scan({ id: 2, agent_id: 3, client_id: null }));
    const portalOpen = b.portalScanSaved(5, {
      id: 9,
      licensePlate: 'X',
      timestamp: '2025-01-01T00:00:00.000Z',
      has_quote: false,
      status: 'ready',
      type: 'arch',
      damageCount: 3,
      dentCount: 2,
      scratchCount: 1,
      valuation: 1,
    } as PortalScanEvent);
    const portalClosed = b.portalScanSaved(6, {
      id: 10,
      licensePlate: 'Y',
      timestamp: '2025-01-01T00:00:00.000Z',
      has_quote: false,
      status: 'ready',
      type: 'arch',
      damageCount: 3,
      dentCount: 2,
      scratchCount: 1,
    });
    const portalEnrolled = b.portalScanSaved(7, {
      id: 11,
      licensePlate: 'Z',
      timestamp: '2025-01-01T00:00:00.000Z',
      has_quote: false,
      status: 'ready',
      type: 'arch',
      damageCount: 3,
      dentCount: 2,
      scratchCount: 1,
    });
    release();
    await expect(Promise.all([first, second, portalOpen, portalClosed, portalEnrolled])).resolves.toBeDefined();
    // An enrolled portal's events never go to the public channel, which an external server cannot guard.
    expect(calls.map((c) => [c.event, c.channels])).toEqual([
      ['created', ['private-scan', 'private-scan.agent.3', 'private-scan.client.4', 'private-scan.agent.3.client.4']],
      ['updated', ['private-scan', 'private-scan.agent.3']],
      ['saved', ['private-agent.5.scans', 'agent.5.scans']],
      ['saved', ['private-agent.7.scans']],
    ]);
    expect(typeof calls[0].data).toBe('string');
    expect(JSON.parse(calls[0].data as string)).toMatchObject({ id: 1, agent_id: 3, client_id: 4 });
    expect(JSON.parse(calls[2].data as string)).toEqual({
      id: 9,
      licensePlate: 'X',
      timestamp: '2025-01-01T00:00:00.000Z',
      has_quote: false,
      status: 'ready',
      type: 'arch',
      damageCount: 3,
      dentCount: 2,
      scratchCount: 1,
    });
    expect(logged).toHaveLength(1);
  });

  describe('end to end: the real pusher SDK publishing to this server acting as the external Pusher server', () => {
    let ext: FastifyInstance;
    let extBase: string;
    beforeAll(async () => {
      const config = loadConfig({
        LOG_LEVEL: 'silent',
        NODE_ENV: 'test',
        DATABASE_URL: t.url,
        STATIC_DIR: 'does-not-exist',
        APP_URL: 'http://app.test',
        PUSHER_APP_ID: '42',
        PUSHER_KEY: KEY,
        PUSHER_SECRET: SECRET,
        PUSHER_HOST: '127.0.0.1',
        PUSHER_PORT: String(port),
        PUSHER_SCHEME: 'http',
      });
      ext = await buildApp({ config, db: t.db, mailer: t.mailer });
      await ext.listen({ port: 0, host: '127.0.0.1' });
      const a = ext.server.address();
      if (!a || typeof a === 'string') throw new Error('not listening');
      extBase = `http://127.0.0.1:${a.port}`;
    });
    afterAll(async () => {
      await ext?.close();
    });

    it("returns the external server's settings to the browser", async () => {
      const res = await ext.inject({ method: 'GET', url: '/api/broadcasting/config' });
      expect(res.json()).toEqual({
        data: { key: KEY, wsHost: '127.0.0.1', wsPort: port, wssPort: port, forceTLS: false, authEndpoint: '/api/broadcasting/auth' },
      });
    });

    it('an admin on private-scan receives what the SDK triggers', async () => {
      const ch = await subscribed(pusher(admin, { authBase: extBase }), 'private-scan');
      const got = collect<ScanEvent>(ch, 'created');
      await ext.broadcaster.scanCreated(scan({ licensePlate: 'EXT1' }));
      await ext.broadcaster.scanCreated(scan({ licensePlate: 'EXT2', agent_id: agentB }));
      expect((await got.until(2)).map((s) => s.licensePlate)).toEqual(['EXT1', 'EXT2']);
    });

    it("an Agent user is refused private-scan (no per-subscriber filtering) and follows their agent's channel instead", async () => {
      const channels = await ext.inject({
        method: 'GET',
        url: '/api/broadcasting/channels',
        headers: { authorization: `Bearer ${agentUserA}` },
      });
      expect(channels.json()).toEqual({ data: { scan: [`private-scan.agent.${agentA}`] } });
      const p = pusher(agentUserA, { authBase: extBase });
      expect(await subscribe(p, 'private-scan')).toMatchObject({ ok: false, status: 403 });
      expect(await subscribe(p, `private-scan.agent.${agentB}`)).toMatchObject({ ok: false, status: 403 });
      const got = collect<ScanEvent>(await subscribed(p, `private-scan.agent.${agentA}`), 'updated');
      await ext.broadcaster.scanUpdated(scan({ agent_id: agentB, licensePlate: 'EXT-B' }));
      await ext.broadcaster.scanUpdated(scan({ agent_id: agentA, licensePlate: 'EXT-A' }));
      expect((await got.until(1)).map((s) => s.licensePlate)).toEqual(['EXT-A']);
    });

    it('publishes portal saved events for enabled agents', async () => {
      const agent = await t.build.agent({ is_enabled: 1, portal_mode: 'open' });
      const got = collect<PortalScanEvent>(await subscribed(pusher(), `agent.${agent.id}.scans`), 'saved');
      await ext.broadcaster.portalScanSaved(agent.id, {
        id: 5,
        licensePlate: 'EXTP',
        timestamp: '2025-01-01T00:00:00.000Z',
        has_quote: false,
        status: 'uploaded',
        type: 'tire',
        damageCount: 3,
        dentCount: 2,
        scratchCount: 1,
      });
      expect((await got.until(1))[0].licensePlate).toBe('EXTP');
    });

    it('the HTTP events API refuses a request not signed with the secret', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/apps/42/events?auth_key=test-app-key&auth_timestamp=1&auth_version=1.0&auth_signature=00',
        payload: { name: 'created', channels: ['private-scan'], data: '{}' },
      });
      expect(res.statusCode).toBe(401);
    });
  });
});

describe('configuration', () => {
  it('refuses half a Pusher configuration or half a fixed embedded key pair, naming the missing setting', () => {
    expect(() => loadConfig({ PUSHER_KEY: 'k' })).toThrow(ConfigError);
    expect(() => loadConfig({ PUSHER_KEY: 'k' })).toThrow(/PUSHER_APP_ID: is required/);
    expect(() => loadConfig({ PUSHER_HOST: 'soketi' })).toThrow(/PUSHER_SECRET: is required/);
    expect(() => loadConfig({ REALTIME_APP_KEY: 'abcdefgh' })).toThrow(/REALTIME_APP_SECRET: is required/);
    expect(loadConfig({ PUSHER_APP_ID: '1', PUSHER_KEY: 'k', PUSHER_SECRET: 's', PUSHER_PORT: '6001' }).PUSHER_PORT).toBe(6001);
  });
});
