import { describe, expect, it, vi } from 'vitest';
import { createRealtime, type EchoLike, type RealtimeDeps } from './manager';
import { echoOptions, parseBroadcastingConfig, parseScanChannels, type EchoConnectOptions } from './options';

/** A fake laravel-echo: records connections, subscriptions and listeners; `emit` plays a server event. */
function fakeEcho() {
  type StateListener = (change: { previous: string; current: string }) => void;
  const connections: {
    options: EchoConnectOptions;
    channels: Map<string, Map<string, ((d: unknown) => void)[]>>;
    left: string[];
    closed: boolean;
    states: StateListener[];
  }[] = [];
  const factory = (options: EchoConnectOptions): EchoLike => {
    const conn = {
      options,
      channels: new Map<string, Map<string, ((d: unknown) => void)[]>>(),
      left: [] as string[],
      closed: false,
      states: [] as StateListener[],
    };
    connections.push(conn);
    return {
      private(name) {
        const full = `private-${name}`;
        const listeners = conn.channels.get(full) ?? new Map<string, ((d: unknown) => void)[]>();
        conn.channels.set(full, listeners);
        const channel = {
          listen(event: string, cb: (d: unknown) => void) {
            listeners.set(event, [...(listeners.get(event) ?? []), cb]);
            return channel;
          },
          error: () => channel,
        };
        return channel;
      },
      leaveChannel: (name) => conn.left.push(name),
      disconnect: () => {
        conn.closed = true;
      },
      onStateChange: (callback) => conn.states.push(callback),
    };
  };
  /** Plays a change of the connection's state, as pusher-js reports it. */
  const state = (previous: string, current: string) => connections.at(-1)?.states.forEach((cb) => cb({ previous, current }));
  const emit = (channel: string, event: string, data: unknown) => {
    const conn = connections.at(-1);
    conn?.channels
      .get(channel)
      ?.get(event)
      ?.forEach((cb) => cb(data));
  };
  return { factory, connections, emit, state };
}

function setup(overrides: Partial<RealtimeDeps> = {}) {
  const echo = fakeEcho();
  let token: string | null = 'token-a';
  const watchers = new Set<() => void>();
  const fetchJson = vi.fn(async (path: string) =>
    path === 'broadcasting/config'
      ? { data: { key: 'app-key', forceTLS: false, authEndpoint: '/api/broadcasting/auth' } }
      : { data: { scan: ['private-scan'] } },
  );
  const deps: RealtimeDeps = {
    loadEcho: vi.fn(async () => echo.factory),
    fetchJson,
    getToken: () => token,
    watchToken: (cb) => {
      watchers.add(cb);
      return () => watchers.delete(cb);
    },
    apiBase: () => new URL('http://scan.example:8080/api/'),
    log: vi.fn(),
    ...overrides,
  };
  const realtime = createRealtime(deps);
  const setToken = (t: string | null) => {
    token = t;
    watchers.forEach((cb) => cb());
  };
  return { realtime, echo, deps, setToken, watchers, fetchJson };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('realtime connection', () => {
  it('connects with the first subscriber, on private-scan, and hands created/updated events to every subscriber', async () => {
    const { realtime, echo } = setup();
    const a = { created: vi.fn(), updated: vi.fn() };
    const b = { created: vi.fn() };
    realtime.subscribeScan(a);
    realtime.subscribeScan(b);
    await settle();
    expect(echo.connections).toHaveLength(1);
    const [conn] = echo.connections;
    expect(conn.options).toMatchObject({
      broadcaster: 'reverb',
      key: 'app-key',
      wsHost: 'scan.example',
      wsPort: 8080,
      forceTLS: false,
      bearerToken: 'token-a',
    });
    expect(conn.options.authEndpoint).toBe('http://scan.example:8080/api/broadcasting/auth');
    expect([...conn.channels.get('private-scan')!.keys()]).toEqual(['.created', '.updated']);

    echo.emit('private-scan', '.created', { id: 5, licensePlate: 'ABC123' });
    echo.emit('private-scan', '.updated', { id: 5, status: 'ready' });
    expect(a.created).toHaveBeenCalledWith({ id: 5, licensePlate: 'ABC123' });
    expect(b.created).toHaveBeenCalledTimes(1);
    expect(a.updated).toHaveBeenCalledWith({ id: 5, status: 'ready' });
  });

  it('asks every subscriber to resync when the connection comes back after a drop, not on the first connect', async () => {
    const { realtime, echo } = setup();
    const a = { resync: vi.fn() };
    const b = { resync: vi.fn(), created: vi.fn() };
    realtime.subscribeScan(a);
    realtime.subscribeScan(b);
    await settle();
    echo.state('initialized', 'connecting');
    echo.state('connecting', 'connected');
    expect(a.resync).not.toHaveBeenCalled();
    echo.state('connected', 'unavailable');
    echo.state('unavailable', 'connecting');
    expect(a.resync).not.toHaveBeenCalled();
    echo.state('connecting', 'connected');
    expect(a.resync).toHaveBeenCalledTimes(1);
    expect(b.resync).toHaveBeenCalledTimes(1);
    // Once per drop.
    echo.state('connected', 'connected');
    expect(a.resync).toHaveBeenCalledTimes(1);
  });

  it('ignores payloads without a scan id', async () => {
    const { realtime, echo } = setup();
    const created = vi.fn();
    realtime.subscribeScan({ created });
    await settle();
    echo.emit('private-scan', '.created', 'nonsense');
    echo.emit('private-scan', '.created', { licensePlate: 'X' });
    expect(created).not.toHaveBeenCalled();
  });

  it('disconnects after the last subscriber goes, sending no unsubscribe that would follow the close', async () => {
    const { realtime, echo, watchers } = setup();
    const off1 = realtime.subscribeScan({});
    const off2 = realtime.subscribeScan({});
    await settle();
    off1();
    expect(echo.connections[0].closed).toBe(false);
    off2();
    expect(echo.connections[0].left).toEqual([]);
    expect(echo.connections[0].closed).toBe(true);
    expect(watchers.size).toBe(0);
  });

  it('leaves a listened channel while the connection stays, and sends nothing once it closes', async () => {
    const { realtime, echo } = setup();
    const offScans = realtime.subscribeScan({});
    const offAgent = realtime.listen('private-agent.7', 'presence', () => {});
    await settle();
    offAgent();
    await settle();
    expect(echo.connections[0].left).toEqual(['private-agent.7']);
    expect(echo.connections[0].closed).toBe(false);
    const offQuote = realtime.listen('private-quote.3', 'presence', () => {});
    offScans();
    offQuote();
    expect(echo.connections[0].left).toEqual(['private-agent.7']);
    expect(echo.connections[0].closed).toBe(true);
  });

  it('sends no unsubscribe when a page change drops its listener and then the last subscriber in one task', async () => {
    const { realtime, echo } = setup();
    const offLayout = realtime.subscribeScan({});
    const offPresence = realtime.listen('private-editing.42', 'presence', () => {});
    await settle();
    // Quote Generation goes (its presence listener), then the layout around it (the last subscriber).
    offPresence();
    offLayout();
    await settle();
    expect(echo.connections[0].closed).toBe(true);
    expect(echo.connections[0].left).toEqual([]);
  });

  it('reconnects with the new token after impersonation and disconnects on logout', async () => {
    const { realtime, echo, setToken } = setup();
    const created = vi.fn();
    realtime.subscribeScan({ created });
    await settle();
    setToken('token-b');
    expect(echo.connections[0].closed).toBe(true);
    await settle();
    expect(echo.connections).toHaveLength(2);
    expect(echo.connections[1].options.bearerToken).toBe('token-b');
    echo.emit('private-scan', '.created', { id: 9 });
    expect(created).toHaveBeenCalledWith({ id: 9 });

    setToken(null);
    expect(echo.connections[1].closed).toBe(true);
    await settle();
    expect(echo.connections).toHaveLength(2);
  });

  it('keeps the connection when the user is rewritten with the same token', async () => {
    const { realtime, echo, setToken } = setup();
    realtime.subscribeScan({});
    await settle();
    setToken('token-a');
    await settle();
    expect(echo.connections).toHaveLength(1);
    expect(echo.connections[0].closed).toBe(false);
  });

  it('does not connect without a signed-in user', async () => {
    const { realtime, echo, deps } = setup({ getToken: () => null });
    realtime.subscribeScan({});
    await settle();
    expect(deps.loadEcho).not.toHaveBeenCalled();
    expect(echo.connections).toHaveLength(0);
  });

  it('drops a connection whose set-up finishes after everyone left', async () => {
    const { realtime, echo } = setup();
    const off = realtime.subscribeScan({});
    off();
    await settle();
    expect(echo.connections).toHaveLength(0);
  });

  it('subscribes to the per-scope channels the server lists (external Pusher servers)', async () => {
    const { realtime, echo } = setup({
      fetchJson: async (path) =>
        path === 'broadcasting/config'
          ? { data: { key: 'k', wsHost: 'ws.example', wsPort: 6001, forceTLS: false, authEndpoint: '/api/broadcasting/auth' } }
          : { data: { scan: ['private-scan.agent.3', 'private-scan.agent.4'] } },
    });
    const created = vi.fn();
    realtime.subscribeScan({ created });
    await settle();
    const [conn] = echo.connections;
    expect([...conn.channels.keys()]).toEqual(['private-scan.agent.3', 'private-scan.agent.4']);
    expect(conn.options).toMatchObject({ wsHost: 'ws.example', wsPort: 6001 });
    echo.emit('private-scan.agent.4', '.created', { id: 1 });
    expect(created).toHaveBeenCalledTimes(1);
  });

  it('logs and retries with the next subscriber when the config cannot be read', async () => {
    let fail = true;
    const { realtime, echo, deps } = setup({
      fetchJson: async (path) => {
        if (fail) throw new Error('down');
        return path === 'broadcasting/config'
          ? { data: { key: 'k', forceTLS: false, authEndpoint: '/api/broadcasting/auth' } }
          : { data: { scan: ['private-scan'] } };
      },
    });
    const off = realtime.subscribeScan({});
    await settle();
    expect(deps.log).toHaveBeenCalledWith('Live updates are unavailable', expect.any(Error));
    expect(echo.connections).toHaveLength(0);
    fail = false;
    off();
    realtime.subscribeScan({});
    await settle();
    expect(echo.connections).toHaveLength(1);
  });
});

describe('echo options', () => {
  const config = { key: 'k', forceTLS: false, authEndpoint: '/api/broadcasting/auth' };

  it('uses wss on the page port when the app is served over https', () => {
    expect(echoOptions(config, 't', new URL('https://scan.example/api/'))).toMatchObject({
      broadcaster: 'reverb',
      wsHost: 'scan.example',
      wsPort: 443,
      wssPort: 443,
      forceTLS: true,
      enabledTransports: ['wss'],
      authEndpoint: 'https://scan.example/api/broadcasting/auth',
    });
  });

  it('uses the page scheme and port when the server behind a TLS proxy believes it speaks http', () => {
    const options = echoOptions({ ...config, wsHost: 'scan.example', wsPort: 80 }, 't', new URL('https://scan.example/api/'));
    expect(options).toMatchObject({ wsHost: 'scan.example', wsPort: 443, forceTLS: true, enabledTransports: ['wss'] });
  });

  it('keeps an external server on its own host and port', () => {
    const options = echoOptions({ ...config, wsHost: 'ws.example', wsPort: 6001 }, 't', new URL('http://scan.example:8080/api/'));
    expect(options).toMatchObject({ wsHost: 'ws.example', wsPort: 6001, forceTLS: false, enabledTransports: ['ws'] });
  });

  it('talks to hosted Pusher by cluster', () => {
    const options = echoOptions({ ...config, cluster: 'ap4', forceTLS: true }, 't', new URL('http://localhost:8080/api/'));
    expect(options).toMatchObject({ broadcaster: 'pusher', cluster: 'ap4', forceTLS: true });
    expect(options.wsHost).toBeUndefined();
  });

  it('reads the config and channel replies defensively', () => {
    expect(parseBroadcastingConfig({ data: { key: '' } })).toBeNull();
    expect(parseBroadcastingConfig({ data: { key: 'k', wsPort: 'x' } })).toEqual({
      key: 'k',
      forceTLS: false,
      authEndpoint: '/api/broadcasting/auth',
      wsHost: undefined,
      wsPort: undefined,
      cluster: undefined,
    });
    expect(parseScanChannels({ data: { scan: [] } })).toEqual(['private-scan']);
    expect(parseScanChannels({ data: { scan: ['private-scan.client.2', 'evil'] } })).toEqual(['private-scan.client.2']);
  });
});
