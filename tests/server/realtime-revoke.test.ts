import { hash } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { messageText } from '../../server/realtime/embedded';
import { PASSWORD, type TestContext } from './helper';
import { listeningContext, scanEvents } from './pusher-clients';

const KEY = 'revoke-app-key';

let t: TestContext;
let port: number;
let admin: string;
let agentA: number;
let agentB: number;
let clientA: number;
const open: WebSocket[] = [];

beforeAll(async () => {
  ({ t, port } = await listeningContext(KEY));
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  agentA = (await t.build.agent({ name: 'Revoke Agent A' })).id;
  agentB = (await t.build.agent({ name: 'Revoke Agent B' })).id;
  clientA = (await t.build.client({ name: 'Revoke Client A' })).id;
});

afterAll(() => {
  for (const ws of open) ws.terminate();
});

const scan = scanEvents('RV', 1000, () => ({ agent_id: agentA, client_id: clientA, client_name: 'Revoke Client A' }));

type Frame = { event: string; channel?: string; data: Record<string, unknown> };

/** A raw protocol client holding one channel, signed at the auth route with the bearer token or kiosk token given. */
async function subscriber(channel: string, who: { bearer?: string; kiosk?: string }) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${KEY}?protocol=7`);
  open.push(ws);
  const frames: Frame[] = [];
  const waiters: { test: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  ws.on('message', (buf) => {
    const m = JSON.parse(messageText(buf)) as { event: string; channel?: string; data: string };
    const f = { event: m.event, channel: m.channel, data: JSON.parse(m.data) as Record<string, unknown> };
    frames.push(f);
    for (const w of [...waiters])
      if (w.test(f)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(f);
      }
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const next = (test: (f: Frame) => boolean) =>
    new Promise<Frame>((resolve, reject) => {
      const hit = frames.find(test);
      if (hit) return resolve(hit);
      waiters.push({ test, resolve });
      setTimeout(() => reject(new Error('frame not received')), 5000).unref();
    });
  const hello = await next((f) => f.event === 'pusher:connection_established');
  let signed: { auth?: string; channel_data?: string } = {};
  if (channel.startsWith('private-')) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/broadcasting/auth',
      headers: {
        ...(who.bearer ? { authorization: `Bearer ${who.bearer}` } : {}),
        ...(who.kiosk ? { 'x-kiosk-token': who.kiosk } : {}),
      },
      payload: { socket_id: String(hello.data.socket_id), channel_name: channel },
    });
    expect(res.statusCode, res.body).toBe(200);
    signed = res.json<{ auth: string; channel_data?: string }>();
  }
  ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, ...signed } }));
  await next((f) => f.event === 'pusher_internal:subscription_succeeded' && f.channel === channel);
  let state: number | 'open' = 'open';
  void closed.then((code) => (state = code));
  return { frames, next, closed, state: () => state };
}

describe('live subscriptions end with what authorised them', () => {
  it("logging out closes that sign-in's sockets with 4009 (no reconnect); another sign-in of the same user stays", async () => {
    const email = (await t.build.user({ roles: ['Agent'], agents: [agentA] })).email;
    const [first, second] = [await t.login(email), await t.login(email)];
    const a = await subscriber('private-scan', { bearer: first });
    const b = await subscriber(`private-scan.agent.${agentA}`, { bearer: second });
    expect((await t.as(first, { method: 'POST', url: '/api/user/auth/logout' })).statusCode).toBe(200);
    expect(await a.closed).toBe(4009);
    await t.app.broadcaster.scanCreated(scan({ licensePlate: 'AFTER' }));
    expect((await b.next((f) => f.event === 'created')).data.licensePlate).toBe('AFTER');
    expect(b.state()).toBe('open');
  });

  it("a password change closes the other sign-ins' sockets", async () => {
    const email = (await t.build.user({ roles: ['Agent'], permissions: ['user'], agents: [agentA] })).email;
    const [keep, other] = [await t.login(email), await t.login(email)];
    const kept = await subscriber('private-scan', { bearer: keep });
    const gone = await subscriber('private-scan', { bearer: other });
    const res = await t.as(keep, {
      method: 'PUT',
      url: '/api/user/auth/profile',
      payload: { first_name: 'Pat', last_name: 'Keep', email, password: 'a-new-password-1', current_password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await gone.closed).toBe(4009);
    expect(kept.state()).toBe('open');
  });

  it('moving a user to another agent closes their sockets with 4200 (reconnect and sign again); others keep theirs', async () => {
    const moved = await t.build.user({ roles: ['Agent'], agents: [agentA] });
    const stays = await t.build.user({ roles: ['Agent'], agents: [agentA] });
    const s = await subscriber('private-scan', { bearer: await t.login(moved.email) });
    const kept = await subscriber('private-scan', { bearer: await t.login(stays.email) });
    const res = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/users/${moved.id}`,
      payload: { first_name: 'Moved', last_name: 'User', email: moved.email, roles: ['Agent'], agents: [agentB] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await s.closed).toBe(4200);
    await t.app.broadcaster.scanCreated(scan({ licensePlate: 'STILL' }));
    expect((await kept.next((f) => f.event === 'created')).data.licensePlate).toBe('STILL');
    expect(s.frames.some((f) => f.event === 'created')).toBe(false);
  });

  it("changing a role's permissions closes the sockets of the users holding it, and only theirs", async () => {
    const holder = await t.build.user({ permissions: ['scan'] });
    const role = await t.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['roles.id', 'roles.name'])
      .where('user_roles.user_id', '=', holder.id)
      .executeTakeFirstOrThrow();
    const s = await subscriber('private-scan', { bearer: await t.login(holder.email) });
    const other = await subscriber('private-scan', { bearer: await t.login((await t.build.user({ roles: ['Super Admin'] })).email) });
    const res = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/roles/${role.id}`,
      payload: { name: role.name, permissions: ['location'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await s.closed).toBe(4200);
    await t.app.broadcaster.scanCreated(scan({ licensePlate: 'OTHER' }));
    expect((await other.next((f) => f.event === 'created')).data.licensePlate).toBe('OTHER');
  });

  it('deleting a user closes their sockets', async () => {
    const gone = await t.build.user({ roles: ['Agent'], agents: [agentA] });
    const s = await subscriber(`private-scan.agent.${agentA}`, { bearer: await t.login(gone.email) });
    expect((await t.as(admin, { method: 'DELETE', url: `/api/user/users/${gone.id}` })).statusCode).toBe(200);
    expect(await s.closed).toBe(4200);
  });

  it("a new pincode closes the agent's kiosk sockets; switching an open portal to enrolled closes its public subscribers", async () => {
    const enrolled = await t.build.agent({ is_enabled: 1, pincode_hash: await hash('482913') });
    const enrol = await t.app.inject({
      method: 'POST',
      url: `/api/agent/agents/${enrolled.id}/portal/enrol`,
      payload: { pincode: '482913' },
      remoteAddress: '10.98.0.1',
    });
    expect(enrol.statusCode, enrol.body).toBe(200);
    const kiosk = await subscriber(`private-agent.${enrolled.id}.scans`, { kiosk: enrol.json().data.kiosk_token as string });
    const openAgent = await t.build.agent({ is_enabled: 1, portal_mode: 'open' });
    const visitor = await subscriber(`agent.${openAgent.id}.scans`, {});

    const edit = (id: number, over: Record<string, unknown>) =>
      t.as(admin, {
        method: 'POST',
        url: `/api/agent/agents/${id}?_method=PUT`,
        payload: {
          name: `Portal ${id}`,
          phone: '0352001234',
          email: 'desk@portal.test',
          address: '1 Portal St, Geelong VIC 3220',
          portal_email_address: 'portal@portal.test',
          abn: '51824753556',
          pincode: '',
          default_client_id: clientA,
          language: 'en',
          ...over,
        },
      });
    expect((await edit(enrolled.id, { portal_mode: 'enrolled', pincode: '111222' })).statusCode).toBe(200);
    expect(await kiosk.closed).toBe(4200);
    expect(visitor.state()).toBe('open');
    expect((await edit(openAgent.id, { portal_mode: 'enrolled' })).statusCode).toBe(200);
    expect(await visitor.closed).toBe(4200);
  });
});
