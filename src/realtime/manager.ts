import { echoOptions, parseBroadcastingConfig, parseScanChannels, type EchoConnectOptions } from './options';

/** A scan as the `created` / `updated` events carry it (server/realtime/broadcaster.ts ScanEvent: the list row). */
export interface ScanEventPayload {
  id: number;
  [field: string]: unknown;
}

export interface ScanEventHandlers {
  created?(scan: ScanEventPayload): void;
  updated?(scan: ScanEventPayload): void;
  /** The connection came back after a drop: events sent meanwhile were missed, so what is shown should be fetched again. */
  resync?(): void;
}

/** A change of the connection's state, as pusher-js reports it (`connecting`, `connected`, `unavailable`, ...). */
export interface ConnectionStateChange {
  previous: string;
  current: string;
}

/** What this app uses of a laravel-echo channel and instance (kept narrow so tests can pass a fake). */
export interface EchoChannelLike {
  listen(event: string, callback: (data: unknown) => void): unknown;
  error(callback: (error: unknown) => void): unknown;
}
export interface EchoLike {
  private(name: string): EchoChannelLike;
  leaveChannel(name: string): void;
  disconnect(): void;
  /** Calls back on every change of the underlying connection's state. */
  onStateChange(callback: (change: ConnectionStateChange) => void): void;
}
export type EchoFactory = (options: EchoConnectOptions) => EchoLike;

export interface RealtimeDeps {
  /** Loads laravel-echo and pusher-js (a dynamic import in the app) and returns a maker of connections. */
  loadEcho: () => Promise<EchoFactory>;
  /** GET on the API (`broadcasting/config`, `broadcasting/channels`) with the bearer token; resolves with the JSON body. */
  fetchJson: (path: string, token: string) => Promise<unknown>;
  /** The signed-in user's bearer token, or null. */
  getToken: () => string | null;
  /** Calls back when the signed-in user changes (sign-in, impersonation, logout); returns the unsubscribe. */
  watchToken: (onChange: () => void) => () => void;
  /** The API's absolute URL (the embedded endpoint is on its host and port). */
  apiBase: () => URL;
  log?: (message: string, error?: unknown) => void;
}

export interface Realtime {
  /** Listens to the user's scan channels; the connection opens with the first subscriber and closes after the last. */
  subscribeScan(handlers: ScanEventHandlers): () => void;
  /** Listens to one event of another private channel (e.g. `private-editing.7`); the connection is shared as above. */
  listen(channel: string, event: string, callback: (data: unknown) => void): () => void;
  /** Closes the connection now (the next subscriber, or a new token while subscribed, opens another). */
  disconnect(): void;
}

const SCAN_EVENTS = ['created', 'updated'] as const;

const isScanEvent = (data: unknown): data is ScanEventPayload =>
  typeof data === 'object' && data !== null && Number.isSafeInteger((data as { id?: unknown }).id);

/** Echo prefixes `private-` itself: `private('scan')` subscribes to `private-scan`. */
const echoName = (channel: string) => channel.replace(/^private-/, '');

/**
 * One live connection per signed-in user, shared by every screen that listens. A private channel is
 * authorised with the token of the moment, so a new token (impersonation) means a new connection with
 * new subscriptions, and no token (logout) means none.
 */
export function createRealtime(deps: RealtimeDeps): Realtime {
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));
  const subscribers = new Set<ScanEventHandlers>();
  /** The connection for `token`; echo is null while it is being set up. */
  let live: { token: string; echo: EchoLike | null; channels: string[] } | null = null;
  /** Bumped by every teardown, so a set-up that finishes after it knows it is stale. */
  let generation = 0;
  let unwatch: (() => void) | null = null;
  /** listen()'s callbacks by channel, then event; each (channel, event) is bound once on the live connection. */
  const listeners = new Map<string, Map<string, Set<(data: unknown) => void>>>();

  const bind = (echo: EchoLike, channel: string, event: string) => {
    const subscription = echo.private(echoName(channel));
    subscription.listen(`.${event}`, (data) => {
      for (const callback of [...(listeners.get(channel)?.get(event) ?? [])]) {
        try {
          callback(data);
        } catch (error) {
          log(`A ${event} event handler failed`, error);
        }
      }
    });
    subscription.error((error) => log(`Subscription to ${channel} refused`, error));
  };

  const fanOut = (event: (typeof SCAN_EVENTS)[number]) => (data: unknown) => {
    if (!isScanEvent(data)) return;
    for (const handlers of [...subscribers]) {
      try {
        handlers[event]?.(data);
      } catch (error) {
        log(`A ${event} scan event handler failed`, error);
      }
    }
  };

  const resync = () => {
    for (const handlers of [...subscribers]) {
      try {
        handlers.resync?.();
      } catch (error) {
        log('A resync handler failed', error);
      }
    }
  };

  function teardown() {
    generation += 1;
    const current = live;
    live = null;
    // Closing the connection ends its subscriptions on the server. Leaving each channel first would queue unsubscribe
    // frames that pusher-js sends a moment later, on the closed socket (the browser logs an error for each).
    current?.echo?.disconnect();
  }

  async function connect(token: string, gen: number) {
    const [factory, config, channels] = await Promise.all([
      deps.loadEcho(),
      deps.fetchJson('broadcasting/config', token).then(parseBroadcastingConfig),
      // An older server without the channel list: the one channel it filters per user.
      deps.fetchJson('broadcasting/channels', token).then(parseScanChannels, () => ['private-scan']),
    ]);
    if (gen !== generation) return;
    if (!config) throw new Error('The broadcasting config carries no key');
    const echo = factory(echoOptions(config, token, deps.apiBase()));
    // pusher-js reconnects and subscribes again by itself, but what was sent while it was away is gone.
    let dropped = false;
    echo.onStateChange(({ previous, current }) => {
      if (previous === 'connected' && current !== 'connected') dropped = true;
      else if (current === 'connected' && dropped) {
        dropped = false;
        resync();
      }
    });
    for (const channel of channels) {
      const subscription = echo.private(echoName(channel));
      // A leading dot: the server's event names as they are, without Laravel's App.Events namespace.
      for (const event of SCAN_EVENTS) subscription.listen(`.${event}`, fanOut(event));
      subscription.error((error) => log(`Subscription to ${channel} refused`, error));
    }
    for (const [channel, events] of listeners) for (const event of events.keys()) bind(echo, channel, event);
    live = { token, echo, channels };
  }

  function sync() {
    const token = deps.getToken();
    const wanted = subscribers.size + listeners.size;
    if (!wanted || !token) {
      teardown();
      if (!wanted) {
        unwatch?.();
        unwatch = null;
      }
      return;
    }
    if (live?.token === token) return;
    teardown();
    const gen = generation;
    live = { token, echo: null, channels: [] };
    connect(token, gen).catch((error: unknown) => {
      // Live rows are a convenience: the screens still work, and the next subscriber or sign-in tries again.
      if (gen === generation) live = null;
      log('Live updates are unavailable', error);
    });
  }

  return {
    subscribeScan(handlers) {
      subscribers.add(handlers);
      unwatch ??= deps.watchToken(sync);
      sync();
      return () => {
        subscribers.delete(handlers);
        sync();
      };
    },
    listen(channel, event, callback) {
      let events = listeners.get(channel);
      if (!events) listeners.set(channel, (events = new Map<string, Set<(data: unknown) => void>>()));
      let callbacks = events.get(event);
      const fresh = !callbacks;
      if (!callbacks) events.set(event, (callbacks = new Set()));
      callbacks.add(callback);
      if (fresh && live?.echo) bind(live.echo, channel, event);
      unwatch ??= deps.watchToken(sync);
      sync();
      return () => {
        callbacks.delete(callback);
        if (callbacks.size === 0) events.delete(event);
        const emptied = events.size === 0;
        if (emptied) listeners.delete(channel);
        sync();
        // A scan channel stays while the scan subscribers need it; a connection sync just closed has left them all.
        // The leave waits for the end of the task: a page change unmounts a listening screen and then its layout in
        // one go, and an unsubscribe queued just before that close would be sent on the closed socket.
        const echo = live?.echo;
        const gen = generation;
        if (emptied && echo && !live?.channels.includes(channel))
          setTimeout(() => {
            if (gen === generation && !listeners.has(channel)) echo.leaveChannel(channel);
          }, 0);
      };
    },
    disconnect: teardown,
  };
}
