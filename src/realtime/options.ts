/** What `GET /api/broadcasting/config` answers (inside `data`): where browsers connect for live events. */
export interface BroadcastingConfig {
  key: string;
  /** Absent for the server's own (embedded) endpoint: the browser connects back to the API's host and port. */
  wsHost?: string;
  wsPort?: number;
  forceTLS: boolean;
  /** A hosted Pusher cluster (only with an external Pusher server and no wsHost). */
  cluster?: string;
  authEndpoint: string;
}

/** The laravel-echo options this app uses (the Pusher class is added by the loader). */
export interface EchoConnectOptions {
  broadcaster: 'reverb' | 'pusher';
  key: string;
  cluster?: string;
  /** Absent for hosted Pusher, where pusher-js knows the cluster's host. */
  wsHost?: string;
  wsPort?: number;
  wssPort?: number;
  forceTLS: boolean;
  enabledTransports: ('ws' | 'wss')[];
  authEndpoint: string;
  /** laravel-echo sends it as `Authorization: Bearer …` when it authorises a private channel. */
  bearerToken: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The config from the reply body (`{data: {...}}` or bare); null when it carries no key. */
export function parseBroadcastingConfig(body: unknown): BroadcastingConfig | null {
  const v = isObject(body) && isObject(body.data) ? body.data : body;
  if (!isObject(v) || typeof v.key !== 'string' || !v.key) return null;
  const port = (p: unknown) => (typeof p === 'number' && Number.isInteger(p) && p > 0 ? p : undefined);
  return {
    key: v.key,
    wsHost: typeof v.wsHost === 'string' && v.wsHost ? v.wsHost : undefined,
    wsPort: port(v.wsPort),
    forceTLS: v.forceTLS === true,
    cluster: typeof v.cluster === 'string' && v.cluster ? v.cluster : undefined,
    authEndpoint: typeof v.authEndpoint === 'string' && v.authEndpoint ? v.authEndpoint : '/api/broadcasting/auth',
  };
}

/** The private scan channels of `GET /api/broadcasting/channels` (`{data: {scan: [...]}}`), defaulting to `private-scan`. */
export function parseScanChannels(body: unknown): string[] {
  const v = isObject(body) && isObject(body.data) ? body.data : body;
  const list =
    isObject(v) && Array.isArray(v.scan) ? v.scan.filter((c): c is string => typeof c === 'string' && c.startsWith('private-')) : [];
  return list.length ? list : ['private-scan'];
}

/**
 * Echo options for a signed-in user (STACK.md 'Real time'). `apiBase` is the API's absolute URL: the
 * server's own endpoint lives on its host and port, and the auth endpoint is resolved against it.
 */
export function echoOptions(config: BroadcastingConfig, token: string, apiBase: URL): EchoConnectOptions {
  const auth = { authEndpoint: new URL(config.authEndpoint, apiBase).toString(), bearerToken: token };
  if (config.cluster && !config.wsHost) {
    return { broadcaster: 'pusher', key: config.key, cluster: config.cluster, forceTLS: true, enabledTransports: ['ws', 'wss'], ...auth };
  }
  const apiPort = apiBase.port ? Number(apiBase.port) : apiBase.protocol === 'https:' ? 443 : 80;
  const sameHost = !config.wsHost || config.wsHost === apiBase.hostname;
  // A page served over https cannot open ws://: behind a TLS proxy the server may believe it speaks http on port 80.
  const behindTls = apiBase.protocol === 'https:' && !config.forceTLS && sameHost;
  const secure = config.forceTLS || behindTls;
  const port = behindTls || (sameHost && config.wsPort === undefined) ? apiPort : (config.wsPort ?? (secure ? 443 : 80));
  return {
    broadcaster: 'reverb',
    key: config.key,
    wsHost: config.wsHost ?? apiBase.hostname,
    wsPort: port,
    wssPort: port,
    forceTLS: secure,
    enabledTransports: secure ? ['wss'] : ['ws'],
    ...auth,
  };
}
