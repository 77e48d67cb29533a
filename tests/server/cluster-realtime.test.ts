import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Channel } from 'pusher-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ScanEvent } from '../../server/realtime/broadcaster';
import { createTestContext, secondInstance, type TestContext } from './helper';
import { collect as collectEvents, disconnectAll, pusherClient, scanEvents, subscribed } from './pusher-clients';

/**
 * Live events across instances. Two instances of the app on one database (A and B, each its own hub and
 * connection pool); real pusher-js clients connect to B and receive what A publishes, through PostgreSQL LISTEN/NOTIFY.
 */
const KEY = 'cluster-app-key';
const SECRET = 'cluster-app-secret-0123456789abcdef';

let t: TestContext;
let b: FastifyInstance;
let portA: number;
let portB: number;
let admin: string;
let agentA: number;
let agentB: number;
let agentUserA: string;
let deviceKeyA: string;
let deviceA: number;

async function listen(app: FastifyInstance) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return address.port;
}

beforeAll(async () => {
  // A long token cache: only the bus can make B forget a token signed out on A in time.
  t = await createTestContext({ REALTIME_APP_KEY: KEY, REALTIME_APP_SECRET: SECRET, AUTH_CACHE_SECONDS: '60' });
  b = (await secondInstance(t)).app;
  portA = await listen(t.app);
  portB = await listen(b);
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  const client = await t.build.client();
  agentA = (await t.build.agent({ name: 'Cluster agent A', default_client_id: client.id })).id;
  agentB = (await t.build.agent({ name: 'Cluster agent B' })).id;
  const site = await t.build.location({ agent_id: agentA });
  deviceA = (await t.build.device({ agent_id: agentA, location_id: site.id, default_client_id: client.id })).id;
  const agentUser = await t.build.user({ roles: ['Agent'], agents: [agentA] });
  agentUserA = await t.login(agentUser.email);
  deviceKeyA = (await t.as(admin, { method: 'GET', url: `/api/user/users/${agentUser.id}/apikey` })).json().data.token;
});

afterEach(disconnectAll);

/** pusher-js connected to instance B's WebSocket; its subscriptions signed by `authPort`'s instance. */
const pusherOnB = (token?: string, authPort = portA) =>
  pusherClient(token, { key: KEY, wsPort: portB, authBase: `http://127.0.0.1:${authPort}` });

/** Events across instances get more time than within one. */
const collect = <T>(channel: Channel, event: string) => collectEvents<T>(channel, event, 10_000);

const scan = scanEvents('CL', 5000, () => ({ agent_id: agentA }));

describe('live events across instances', () => {
  it('a scan ingested through A reaches a pusher-js client connected to B', async () => {
    const created = collect<ScanEvent>(await subscribed(pusherOnB(admin), 'private-scan'), 'created');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/scan/ingest/scans',
      headers: { authorization: `Bearer ${deviceKeyA}` },
      payload: { scan_id: `cluster-${Date.now()}`, device_id: deviceA, type: 'arch', licensePlate: 'XINST1' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [event] = await created.until(1);
    expect(event).toMatchObject({ id: res.json().data.id, licensePlate: 'XINST1', agent_id: agentA });
  });

  it("keeps each subscriber's scope on the other instance: an Agent user of A on B gets A's scans, not B's", async () => {
    const got = collect<ScanEvent>(await subscribed(pusherOnB(agentUserA, portB), 'private-scan'), 'created');
    await t.app.broadcaster.scanCreated(scan({ agent_id: agentB, licensePlate: 'OTHER' }));
    await t.app.broadcaster.scanCreated(scan({ agent_id: null, licensePlate: 'NOBODY' }));
    await t.app.broadcaster.scanCreated(scan({ agent_id: agentA, licensePlate: 'MINE' }));
    // In order per channel: once MINE is here, the two before it would have been too.
    expect((await got.until(1)).map((s) => s.licensePlate)).toEqual(['MINE']);
  });

  it('delivers in publication order, from both instances, to clients on either', async () => {
    const onB = collect<ScanEvent>(await subscribed(pusherOnB(admin), 'private-scan'), 'created');
    const sent = Array.from({ length: 40 }, (_, i) => scan({ licensePlate: `ORD${i}` }));
    await Promise.all(sent.map((s) => t.app.broadcaster.scanCreated(s)));
    expect((await onB.until(40)).map((s) => s.licensePlate)).toEqual(sent.map((s) => s.licensePlate));
    const more = Array.from({ length: 10 }, (_, i) => scan({ licensePlate: `FROMB${i}` }));
    await Promise.all(more.map((s) => b.broadcaster.scanCreated(s)));
    expect((await onB.until(50)).slice(40).map((s) => s.licensePlate)).toEqual(more.map((s) => s.licensePlate));
  });

  it('carries an event over NOTIFY’s 8 kB limit by id through bus_messages', async () => {
    const got = collect<ScanEvent>(await subscribed(pusherOnB(admin), 'private-scan'), 'updated');
    const big = scan({ model: 'M'.repeat(20_000) });
    const small = scan({ licensePlate: 'AFTER-BIG' });
    const before = Number((await sql<{ n: number }>`select count(*)::int as n from bus_messages`.execute(t.db)).rows[0].n);
    await t.app.broadcaster.scanUpdated(big);
    await t.app.broadcaster.scanUpdated(small);
    const events = await got.until(2);
    expect(events[0]).toEqual(big);
    expect(events[1].licensePlate).toBe('AFTER-BIG');
    const after = Number((await sql<{ n: number }>`select count(*)::int as n from bus_messages`.execute(t.db)).rows[0].n);
    expect(after).toBe(before + 1);
  });

  it('delivers portal saved events published on A to an open portal client on B', async () => {
    const agent = await t.build.agent({ is_enabled: 1, portal_mode: 'open' });
    const got = collect<{ licensePlate: string }>(await subscribed(pusherOnB(), `agent.${agent.id}.scans`), 'saved');
    await t.app.broadcaster.portalScanSaved(agent.id, {
      id: 1,
      licensePlate: 'PORTAL-X',
      timestamp: new Date(),
      has_quote: false,
      status: 'uploaded',
      type: 'arch',
      damageCount: 0,
      dentCount: 0,
      scratchCount: 0,
    });
    expect((await got.until(1))[0].licensePlate).toBe('PORTAL-X');
  });
});

describe('the checked-token cache across instances', () => {
  it('B refuses a token signed out through A at once, though it had it cached for 60 s', async () => {
    const user = await t.build.user({ roles: ['Super Admin'] });
    const token = await t.login(user.email);
    // The sign-in is a user-service write too: its own clear reaches B first.
    await new Promise((r) => setTimeout(r, 300));
    const me = () => b.inject({ method: 'GET', url: '/api/user/auth/user', headers: { authorization: `Bearer ${token}` } });
    expect((await me()).statusCode).toBe(200);
    expect(b.accessCache.size).toBeGreaterThan(0);
    const out = await t.as(token, { method: 'POST', url: '/api/user/auth/logout' });
    expect(out.statusCode, out.body).toBeLessThan(300);
    // The clear travels over NOTIFY: a few milliseconds.
    const until = Date.now() + 2000;
    let status = (await me()).statusCode;
    while (status === 200 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
      status = (await me()).statusCode;
    }
    expect(status).toBe(401);
  });
});

describe('revoked access across instances', () => {
  const states = (p: ReturnType<typeof pusherOnB>) => {
    const seen: string[] = [];
    p.connection.bind('state_change', (c: { current: string }) => seen.push(c.current));
    return seen;
  };
  const until = async (test: () => boolean) => {
    for (let i = 0; i < 250 && !test(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(test()).toBe(true);
  };

  it('a sign-out through A closes the socket held on B, and pusher-js stays closed', async () => {
    const token = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA] })).email);
    const p = pusherOnB(token);
    await subscribed(p, 'private-scan');
    const seen = states(p);
    expect((await t.as(token, { method: 'POST', url: '/api/user/auth/logout' })).statusCode).toBe(200);
    await until(() => seen.includes('disconnected') || seen.includes('failed'));
    expect(seen).not.toContain('connected');
  });

  it('a user moved to another agent through A: pusher-js on B reconnects, is signed anew, and hears only the new agent', async () => {
    const user = await t.build.user({ roles: ['Agent'], agents: [agentA] });
    const p = pusherOnB(await t.login(user.email));
    const got = collect<ScanEvent>(await subscribed(p, 'private-scan'), 'created');
    const seen = states(p);
    const res = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/users/${user.id}`,
      payload: { first_name: 'Moved', last_name: 'Across', email: user.email, roles: ['Agent'], agents: [agentB] },
    });
    expect(res.statusCode, res.body).toBe(200);
    await until(() => seen.includes('connected'));
    // Re-subscribed on the new connection (pusher-js does it itself) before the next events.
    await until(() => p.channel('private-scan')?.subscribed === true);
    await t.app.broadcaster.scanCreated(scan({ agent_id: agentA, licensePlate: 'OLDAGENT' }));
    await t.app.broadcaster.scanCreated(scan({ agent_id: agentB, licensePlate: 'NEWAGENT' }));
    expect((await got.until(1)).map((e) => e.licensePlate)).toEqual(['NEWAGENT']);
  });
});
