import Pusher from 'pusher-js';
import type { Channel } from 'pusher-js';
import type { ScanEvent } from '../../server/realtime/broadcaster';
import { createTestContext } from './helper';

/**
 * Real pusher-js clients for the real-time tests (one instance and the cluster): their Node build (faye-websocket and
 * an XMLHttpRequest shim for the 'ajax' authoriser), subscriptions, collected events and scan events to publish.
 */

const open: { disconnect(): void }[] = [];

/** Keeps a connection to close after the test (`disconnectAll`, in an `afterEach`). */
export const track = (connection: { disconnect(): void }) => {
  open.push(connection);
};

export function disconnectAll() {
  while (open.length) open.pop()!.disconnect();
}

export interface PusherOptions {
  key: string;
  /** The port of the instance whose WebSocket the client opens. */
  wsPort: number;
  /** `http://host:port` of the instance that signs the subscriptions. */
  authBase: string;
  headers?: Record<string, string>;
}

/** pusher-js connected to `wsPort`, its private channels authorised at `authBase` with the bearer token, if any. */
export function pusherClient(token: string | undefined, { key, wsPort, authBase, headers }: PusherOptions) {
  const p = new Pusher(key, {
    wsHost: '127.0.0.1',
    wsPort,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
    cluster: '',
    channelAuthorization: {
      endpoint: `${authBase}/api/broadcasting/auth`,
      transport: 'ajax',
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    },
  });
  track(p);
  return p;
}

export type Outcome = { ok: true; channel: Channel } | { ok: false; status: number | undefined; error: unknown };

/** Subscribes and tells how it went: the channel, or the refusal's status. */
export function subscribe(p: Pusher, name: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const channel = p.subscribe(name);
    channel.bind('pusher:subscription_succeeded', () => resolve({ ok: true, channel }));
    channel.bind('pusher:subscription_error', (e: { status?: number; error?: unknown }) =>
      resolve({ ok: false, status: e.status, error: e.error }),
    );
  });
}

/** The subscribed channel; a refusal fails the test. */
export async function subscribed(p: Pusher, name: string) {
  const o = await subscribe(p, name);
  if (!o.ok) throw new Error(`subscription to ${name} refused: ${o.status} ${String(o.error)}`);
  return o.channel;
}

/** Collects an event's payloads; `until(n)` waits for the n-th, at most `timeoutMs`. */
export function collect<T = Record<string, unknown>>(channel: Channel, event: string, timeoutMs = 5000) {
  const got: T[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  channel.bind(event, (data: T) => {
    got.push(data);
    for (const w of waiters.filter((x) => got.length >= x.n)) w.resolve();
  });
  return {
    got,
    until: (n: number) =>
      new Promise<T[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${got.length} of ${n} '${event}' events arrived`)), timeoutMs);
        const done = () => {
          clearTimeout(timer);
          resolve(got);
        };
        if (got.length >= n) done();
        else waiters.push({ n, resolve: done });
      }),
  };
}

/**
 * Scan events to publish: ids counting up from `start`, registrations `<plate><id>`, a white Toyota Corolla in VIC;
 * `defaults` (read at each call, after the test's records exist) and then `over` replace fields.
 */
export function scanEvents(plate: string, start: number, defaults: () => Partial<ScanEvent>) {
  let seq = start;
  return (over: Partial<ScanEvent> = {}): ScanEvent => {
    seq += 1;
    return {
      id: seq,
      agent_id: null,
      client_id: null,
      status: 'metadata',
      type: 'arch',
      carColor: 'White',
      licensePlate: `${plate}${seq}`,
      make: 'Toyota',
      model: 'Corolla',
      client_name: null,
      body_type: 'Sedan',
      valuation: 21000,
      location_state: 'VIC',
      ...defaults(),
      ...over,
    };
  };
}

/**
 * A test app serving the embedded real-time endpoint under `key` (its secret derived from it), listening on a free
 * port for real WebSocket clients. Called in a file's beforeAll, like createTestContext, which closes it.
 */
export async function listeningContext(key: string) {
  const t = await createTestContext({ REALTIME_APP_KEY: key, REALTIME_APP_SECRET: `${key}-secret-0123456789abcdef` });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return { t, port: address.port };
}
