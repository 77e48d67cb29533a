import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { messageText } from '../../server/realtime/embedded';
import { createTestContext, type TestContext } from './helper';

const KEY = 'limits-app-key';

let t: TestContext;
let port: number;
let portalAgent: number;
const open: WebSocket[] = [];

beforeAll(async () => {
  t = await createTestContext({
    REALTIME_APP_KEY: KEY,
    REALTIME_APP_SECRET: 'limits-app-secret-0123456789abcdef',
    REALTIME_MAX_CONNECTIONS_PER_ADDRESS: '4',
    REALTIME_MAX_UNSUBSCRIBED: '3',
    REALTIME_IDLE_TIMEOUT: '1',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  port = address.port;
  portalAgent = (await t.build.agent({ is_enabled: 1, portal_mode: 'open' })).id;
});

afterEach(async () => {
  for (const ws of open.splice(0)) ws.terminate();
  await hubHolds(0);
});

afterAll(() => {
  for (const ws of open) ws.terminate();
});

/** A raw socket: resolves with the first frame (connection_established or the refusal's pusher:error) and its close code. */
function connect() {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${KEY}?protocol=7`);
  open.push(ws);
  const first = new Promise<{ event: string; data: Record<string, unknown> }>((resolve) =>
    ws.once('message', (buf) => {
      const m = JSON.parse(messageText(buf)) as { event: string; data: string };
      resolve({ event: m.event, data: JSON.parse(m.data) as Record<string, unknown> });
    }),
  );
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return { ws, first, closed };
}

const established = async (c: ReturnType<typeof connect>) => expect((await c.first).event).toBe('pusher:connection_established');

async function subscribePortal(c: ReturnType<typeof connect>) {
  const channel = `agent.${portalAgent}.scans`;
  c.ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
  await new Promise<void>((resolve) =>
    c.ws.on('message', (buf) => {
      if ((JSON.parse(messageText(buf)) as { event: string }).event === 'pusher_internal:subscription_succeeded') resolve();
    }),
  );
}

describe('connection limits of the embedded endpoint', () => {
  it('refuses a socket without a subscription beyond REALTIME_MAX_UNSUBSCRIBED with 4100; a subscription frees the place', async () => {
    const held = [connect(), connect(), connect()];
    for (const c of held) await established(c);
    const over = connect();
    expect(await over.first).toEqual({ event: 'pusher:error', data: { code: 4100, message: 'Over capacity' } });
    expect(await over.closed).toBe(4100);
    await subscribePortal(held[0]);
    await established(connect());
  });

  it('refuses a socket beyond REALTIME_MAX_CONNECTIONS_PER_ADDRESS from one address with 4100, subscribed or not', async () => {
    const held: ReturnType<typeof connect>[] = [];
    for (let i = 0; i < 4; i++) {
      const c = connect();
      held.push(c);
      await established(c);
      // Two subscribed, two not: under the unsubscribed cap, at the address cap.
      if (i < 2) await subscribePortal(c);
    }
    const over = connect();
    expect(await over.first).toEqual({ event: 'pusher:error', data: { code: 4100, message: 'Too many connections from this address' } });
    expect(await over.closed).toBe(4100);
    // A closed one gives its place back.
    held[3].ws.close();
    await held[3].closed;
    await hubHolds(3);
    await established(connect());
  });

  it('closes a socket that holds no subscription after REALTIME_IDLE_TIMEOUT with 4100; a subscribed one stays', async () => {
    const idle = connect();
    const busy = connect();
    await established(idle);
    await established(busy);
    await subscribePortal(busy);
    const started = Date.now();
    expect(await idle.closed).toBe(4100);
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    await new Promise((r) => setTimeout(r, 300));
    expect(busy.ws.readyState).toBe(WebSocket.OPEN);
  });
});

/** Waits until the server holds at most `n` sockets (so each test starts from none). */
async function hubHolds(n: number) {
  for (let i = 0; i < 100 && t.app.realtimeHub!.connectionCount > n; i++) await new Promise((r) => setTimeout(r, 20));
}
