import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket, type RawData } from 'ws';
import { z } from 'zod';
import { inScope, type DataScope } from '../../src/domain/permissions';
import {
  portalPayload,
  PORTAL_SAVED,
  SCAN_CREATED,
  SCAN_UPDATED,
  type Broadcaster,
  type PortalScanEvent,
  type ScanEvent,
} from './broadcaster';
import type { PortalMode } from '../../src/domain/agents';
import { kioskChannel, parseChannel, portalChannel, SCAN_CHANNEL, scopedScanChannels } from './channels';
import type { Bus } from '../lib/pg-bus';

/** HMAC-SHA256 hex, the Pusher signature primitive. */
export const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

/**
 * A private channel's `auth`: `<key>:<hmac("socket_id:channel")>`, or with channel_data appended
 * (`socket_id:channel:channel_data`, Pusher's presence rule) when the server signs data along with it.
 */
export const channelAuth = (key: string, secret: string, socketId: string, channel: string, channelData?: string) =>
  `${key}:${hmac(secret, channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`)}`;

/** A WebSocket message as text, whichever of ws's shapes (Buffer, fragments, ArrayBuffer) it arrived in. */
export const messageText = (data: RawData) =>
  (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');

export const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The data scope the auth endpoint signs into `private-scan`'s channel_data. */
export const ScopeData = z
  .object({
    agents: z.array(z.number().int()).nullable(),
    clients: z.array(z.number().int()).nullable(),
  })
  .strict();

const SubscribeData = z.object({
  channel: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9_\-=@,.;]+$/),
  auth: z.string().max(500).optional(),
  channel_data: z.string().max(20000).optional(),
});
const Message = z.object({ event: z.string().max(200), channel: z.string().max(200).optional(), data: z.unknown().optional() });

/** A slow reader holding more than this much unsent data is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const MAX_CHANNELS_PER_CONNECTION = 120;

export interface HubOptions {
  key: string;
  secret: string;
  /** Seconds; sent to clients, and the heartbeat period. */
  activityTimeout: number;
  /** The agent's portal: null when closed (no such agent, or disabled), else its access mode. */
  portalMode(agentId: number): Promise<PortalMode | null>;
  log: FastifyBaseLogger;
}

class Connection {
  alive = true;
  readonly channels = new Set<string>();
  constructor(
    readonly socketId: string,
    readonly ws: WebSocket,
  ) {}

  send(frame: Buffer | string) {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.ws.terminate();
      return;
    }
    this.ws.send(frame, { binary: false });
  }

  event(event: string, data: unknown, channel?: string) {
    this.send(
      JSON.stringify(channel === undefined ? { event, data: JSON.stringify(data) } : { event, channel, data: JSON.stringify(data) }),
    );
  }
}

/**
 * The embedded Pusher-protocol (v7) server: connections, subscriptions, heartbeats, and delivery.
 * Each `private-scan` subscription keeps the data scope signed into its channel_data, and every scan
 * event on that channel goes only to the subscribers whose scope holds the scan's agent and client.
 */
export class PusherHub {
  private readonly connections = new Map<string, Connection>();
  /** channel → subscriber → the subscriber's data scope on that channel (null: unrestricted). */
  private readonly channels = new Map<string, Map<Connection, DataScope | null>>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(readonly options: HubOptions) {
    this.heartbeat = setInterval(() => this.sweep(), options.activityTimeout * 1000);
    this.heartbeat.unref();
  }

  get key() {
    return this.options.key;
  }
  get connectionCount() {
    return this.connections.size;
  }
  hasSubscribers(channel: string) {
    return (this.channels.get(channel)?.size ?? 0) > 0;
  }

  /** A new WebSocket at /app/:key. */
  accept(ws: WebSocket, key: string, protocol: string | undefined) {
    const refuse = (code: number, message: string) => {
      ws.send(JSON.stringify({ event: 'pusher:error', data: JSON.stringify({ code, message }) }));
      ws.close(code, message);
    };
    if (!safeEqual(key, this.options.key)) return refuse(4001, `App key ${key.slice(0, 64)} not in this cluster`);
    if (protocol !== undefined && !/^[5-7]$/.test(protocol)) return refuse(4007, 'Unsupported protocol version');
    let socketId: string;
    do socketId = `${randomInt(1, 2 ** 31)}.${randomInt(1, 2 ** 31)}`;
    while (this.connections.has(socketId));
    const conn = new Connection(socketId, ws);
    this.connections.set(socketId, conn);
    ws.on('pong', () => {
      conn.alive = true;
    });
    ws.on('message', (raw, isBinary) => {
      conn.alive = true;
      if (isBinary) return conn.event('pusher:error', { code: null, message: 'Binary messages are not supported' });
      this.handle(conn, raw).catch((err: unknown) => this.options.log.error({ err }, 'realtime message failed'));
    });
    ws.on('close', () => this.drop(conn));
    ws.on('error', () => ws.terminate());
    conn.event('pusher:connection_established', { socket_id: socketId, activity_timeout: this.options.activityTimeout });
  }

  private async handle(conn: Connection, raw: RawData) {
    let message: z.infer<typeof Message>;
    try {
      message = Message.parse(JSON.parse(messageText(raw)));
    } catch {
      return conn.event('pusher:error', { code: null, message: 'Invalid message' });
    }
    // pusher-js sends data as an object; other clients may send it JSON-encoded.
    let data = message.data;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        /* left as the string */
      }
    }
    switch (message.event) {
      case 'pusher:ping':
        return conn.event('pusher:pong', {});
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        return this.subscribe(conn, data);
      case 'pusher:unsubscribe': {
        const channel = SubscribeData.pick({ channel: true }).safeParse(data);
        if (channel.success) this.leave(conn, channel.data.channel);
        return;
      }
      default:
        if (message.event.startsWith('client-'))
          return conn.event('pusher:error', { code: null, message: 'Client events are not enabled' });
        return conn.event('pusher:error', { code: null, message: `Unsupported event ${message.event.slice(0, 64)}` });
    }
  }

  private async subscribe(conn: Connection, raw: unknown) {
    const parsed = SubscribeData.safeParse(raw);
    if (!parsed.success) return conn.event('pusher:error', { code: null, message: 'Invalid subscription' });
    const { channel, auth = '', channel_data: channelData } = parsed.data;
    const refuse = (status: number, error: string) =>
      conn.event('pusher:subscription_error', { type: 'AuthError', error, status }, channel);
    if (conn.channels.has(channel)) return conn.event('pusher_internal:subscription_succeeded', {}, channel);
    if (conn.channels.size >= MAX_CHANNELS_PER_CONNECTION) return refuse(429, 'Too many channels');
    const kind = parseChannel(channel);
    let scope: DataScope | null = null;
    if (channel.startsWith('private-')) {
      if (!kind) return refuse(404, 'Unknown channel');
      if (!safeEqual(auth, channelAuth(this.options.key, this.options.secret, conn.socketId, channel, channelData)))
        return refuse(401, 'Invalid signature');
      if (kind.kind === 'scan' && channelData !== undefined) {
        // The scope was signed by our auth endpoint; without channel_data the signer authorised an unrestricted user.
        let decoded: unknown;
        try {
          decoded = JSON.parse(channelData);
        } catch {
          return refuse(401, 'Invalid channel data');
        }
        const s = ScopeData.safeParse(decoded);
        if (!s.success) return refuse(401, 'Invalid channel data');
        scope = s.data;
      }
    } else {
      if (!kind || kind.kind !== 'portal') return refuse(404, 'Unknown channel');
      const mode = await this.options.portalMode(kind.agentId);
      if (!mode) return refuse(404, 'Unknown channel');
      // An enrolled portal's events travel only on its private channel, signed for a kiosk token.
      if (mode !== 'open') return refuse(401, 'Kiosk not enrolled: subscribe to the private channel with a kiosk token');
      if (conn.ws.readyState !== WebSocket.OPEN) return;
    }
    conn.channels.add(channel);
    let subs = this.channels.get(channel);
    if (!subs) this.channels.set(channel, (subs = new Map<Connection, DataScope | null>()));
    subs.set(conn, scope);
    conn.event('pusher_internal:subscription_succeeded', {}, channel);
  }

  private leave(conn: Connection, channel: string) {
    conn.channels.delete(channel);
    const subs = this.channels.get(channel);
    if (!subs) return;
    subs.delete(conn);
    if (subs.size === 0) this.channels.delete(channel);
  }

  private drop(conn: Connection) {
    for (const channel of [...conn.channels]) this.leave(conn, channel);
    this.connections.delete(conn.socketId);
  }

  /** Terminates connections silent since the last sweep, pings the rest (browsers answer pings themselves). */
  private sweep() {
    for (const conn of this.connections.values()) {
      if (!conn.alive) {
        conn.ws.terminate();
        this.drop(conn);
        continue;
      }
      conn.alive = false;
      if (conn.ws.readyState === WebSocket.OPEN) conn.ws.ping();
    }
  }

  /**
   * Sends one event to a channel's subscribers: one serialisation for all of them; with a row, only to
   * subscribers whose scope holds it. `data` is already JSON (the protocol carries it as a string).
   */
  publish(
    channel: string,
    event: string,
    data: string,
    row?: { agent_id?: number | null; client_id?: number | null },
    exceptSocketId?: string,
  ) {
    const subs = this.channels.get(channel);
    if (!subs || subs.size === 0) return 0;
    const frame = Buffer.from(JSON.stringify({ event, channel, data }));
    let sent = 0;
    for (const [conn, scope] of subs) {
      if (scope && row && !inScope(scope, row)) continue;
      if (conn.socketId === exceptSocketId) continue;
      conn.send(frame);
      sent++;
    }
    return sent;
  }

  async close() {
    clearInterval(this.heartbeat);
    // 4200: the Pusher protocol's "reconnect now" (pusher-js reconnects at once, through the load balancer to another instance).
    for (const conn of this.connections.values()) conn.ws.close(4200, 'Server shutting down, reconnect');
    this.connections.clear();
    this.channels.clear();
  }
}

/** Verifies a Pusher HTTP API request signature (`POST /apps/{id}/events`), as the official SDK signs it. */
export function verifyApiSignature(opts: {
  key: string;
  secret: string;
  method: string;
  path: string;
  query: Record<string, string>;
  body: string;
  now?: number;
}): string | null {
  const { auth_signature: signature, ...params } = opts.query;
  if (!signature || !params.auth_key || !params.auth_timestamp) return 'Missing authentication';
  if (!safeEqual(params.auth_key, opts.key)) return 'Unknown auth_key';
  const age = Math.abs((opts.now ?? Date.now()) / 1000 - Number(params.auth_timestamp));
  if (!(age <= 600)) return 'Timestamp expired';
  if (opts.body !== '' || params.body_md5 !== undefined) {
    if (params.body_md5 !== createHash('md5').update(opts.body, 'utf8').digest('hex')) return 'Body MD5 mismatch';
  }
  const query = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  const expected = hmac(opts.secret, [opts.method.toUpperCase(), opts.path, query].join('\n'));
  return safeEqual(signature, expected) ? null : 'Invalid signature';
}

/** One event on the real-time bus: what every instance's hub delivers to its own subscribers. */
export type HubMessage =
  | { kind: 'scan'; event: string; data: string; row: { agent_id: number | null; client_id: number | null } }
  | { kind: 'portal'; agentId: number; data: string }
  | {
      kind: 'raw';
      channel: string;
      event: string;
      data: string;
      row?: { agent_id?: number | null; client_id?: number | null };
      except?: string;
    };

export const HUB_TOPIC = 'realtime';

/** Delivers one bus message to this instance's subscribers (every instance runs this for every message). */
export async function deliverHubMessage(hub: PusherHub, m: HubMessage, log: FastifyBaseLogger) {
  if (m.kind === 'scan') {
    hub.publish(SCAN_CHANNEL, m.event, m.data, m.row);
    for (const channel of scopedScanChannels(m.row)) hub.publish(channel, m.event, m.data);
    return;
  }
  if (m.kind === 'raw') {
    hub.publish(m.channel, m.event, m.data, m.row, m.except);
    return;
  }
  const open = portalChannel(m.agentId);
  const kiosk = kioskChannel(m.agentId);
  if (!hub.hasSubscribers(open) && !hub.hasSubscribers(kiosk)) return;
  try {
    const mode = await hub.options.portalMode(m.agentId);
    if (!mode) return;
    hub.publish(kiosk, PORTAL_SAVED, m.data);
    // Public subscribers of a portal that became enrolled since they joined hear nothing more.
    if (mode === 'open') hub.publish(open, PORTAL_SAVED, m.data);
  } catch (err) {
    log.error({ err, agentId: m.agentId }, 'portal event not delivered');
  }
}

/**
 * The default broadcaster: events go over the bus (server/lib/pg-bus.ts: PostgreSQL LISTEN/NOTIFY between instances)
 * and every instance's hub delivers them to its own subscribers, with the same scope checks, in bus order.
 */
export function embeddedBroadcaster(hub: PusherHub, bus: Bus, log: FastifyBaseLogger): Broadcaster {
  const unsubscribe = bus.subscribe(HUB_TOPIC, (m) => deliverHubMessage(hub, m as HubMessage, log));
  const send = async (m: HubMessage) => {
    try {
      await bus.publish(HUB_TOPIC, m);
    } catch (err) {
      log.error({ err }, 'live event not published');
    }
  };
  const scan = (event: string, s: ScanEvent) =>
    send({ kind: 'scan', event, data: JSON.stringify(s), row: { agent_id: s.agent_id, client_id: s.client_id } });
  return {
    scanCreated: (s) => scan(SCAN_CREATED, s),
    scanUpdated: (s) => scan(SCAN_UPDATED, s),
    portalScanSaved: (agentId, s: PortalScanEvent) => send({ kind: 'portal', agentId, data: JSON.stringify(portalPayload(s)) }),
    async close() {
      unsubscribe();
      await hub.close();
    },
  };
}
