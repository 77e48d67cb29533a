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
  type Revocation,
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

/** Who a subscription was signed for: the user and sign-in token, so revoking either closes the socket. */
const OwnerFields = {
  user: z.number().int().positive().optional(),
  token: z.number().int().positive().nullable().optional(),
};

/** The data scope (and owner) the auth endpoint signs into `private-scan`'s channel_data. */
export const ScopeData = z
  .object({
    agents: z.array(z.number().int()).nullable(),
    clients: z.array(z.number().int()).nullable(),
    ...OwnerFields,
  })
  .strict();

/** The owner the auth endpoint signs into the channel_data of the per-scope scan channels. */
export const OwnerData = z.object(OwnerFields).strict();

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
  /** Open sockets one client address may hold here; more are closed with 4100. Default 50. */
  maxPerAddress?: number;
  /** Sockets without a subscription this hub holds at once; more are closed with 4100. Default 1000. */
  maxUnsubscribed?: number;
  /** Milliseconds a socket may stay without a subscription before it is closed with 4100. Default 30 s. */
  idleTimeoutMs?: number;
  /** The agent's portal: null when closed (no such agent, or disabled), else its access mode. */
  portalMode(agentId: number): Promise<PortalMode | null>;
  log: FastifyBaseLogger;
}

/** Pusher close codes: 4009 "unauthorized" (pusher-js stays closed), 4100 "over capacity" (it retries later), 4200 "reconnect now". */
const CLOSE_UNAUTHORIZED = 4009;
const CLOSE_CAPACITY = 4100;
const CLOSE_RECONNECT = 4200;

class Connection {
  alive = true;
  dropped = false;
  idle: NodeJS.Timeout | null = null;
  readonly channels = new Set<string>();
  /** The users and sign-in tokens its subscriptions were signed for. */
  readonly users = new Set<number>();
  readonly tokens = new Set<number>();
  constructor(
    readonly socketId: string,
    readonly ws: WebSocket,
    readonly address: string,
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
  private readonly perAddress = new Map<string, number>();
  private unsubscribed = 0;

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
  get unsubscribedCount() {
    return this.unsubscribed;
  }
  hasSubscribers(channel: string) {
    return (this.channels.get(channel)?.size ?? 0) > 0;
  }

  /** A new WebSocket at /app/:key from `address` (the client's IP). */
  accept(ws: WebSocket, key: string, protocol: string | undefined, address = '') {
    const refuse = (code: number, message: string) => {
      ws.send(JSON.stringify({ event: 'pusher:error', data: JSON.stringify({ code, message }) }));
      ws.close(code, message);
    };
    if (!safeEqual(key, this.options.key)) return refuse(4001, `App key ${key.slice(0, 64)} not in this cluster`);
    if (protocol !== undefined && !/^[5-7]$/.test(protocol)) return refuse(4007, 'Unsupported protocol version');
    const fromAddress = this.perAddress.get(address) ?? 0;
    if (fromAddress >= (this.options.maxPerAddress ?? 50)) return refuse(CLOSE_CAPACITY, 'Too many connections from this address');
    if (this.unsubscribed >= (this.options.maxUnsubscribed ?? 1000)) return refuse(CLOSE_CAPACITY, 'Over capacity');
    let socketId: string;
    do socketId = `${randomInt(1, 2 ** 31)}.${randomInt(1, 2 ** 31)}`;
    while (this.connections.has(socketId));
    const conn = new Connection(socketId, ws, address);
    this.connections.set(socketId, conn);
    this.perAddress.set(address, fromAddress + 1);
    this.becomeIdle(conn);
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
      if (channelData !== undefined) {
        // Signed by our auth endpoint; on private-scan without channel_data the signer authorised an unrestricted user.
        let decoded: unknown;
        try {
          decoded = JSON.parse(channelData);
        } catch {
          return refuse(401, 'Invalid channel data');
        }
        const s = kind.kind === 'scan' ? ScopeData.safeParse(decoded) : OwnerData.safeParse(decoded);
        if (!s.success) return refuse(401, 'Invalid channel data');
        const signed: z.infer<typeof OwnerData> & Partial<DataScope> = s.data;
        if (kind.kind === 'scan') scope = { agents: signed.agents ?? null, clients: signed.clients ?? null };
        if (signed.user !== undefined) conn.users.add(signed.user);
        if (signed.token != null) conn.tokens.add(signed.token);
      }
    } else {
      if (!kind || kind.kind !== 'portal') return refuse(404, 'Unknown channel');
      const mode = await this.options.portalMode(kind.agentId);
      if (!mode) return refuse(404, 'Unknown channel');
      // An enrolled portal's events travel only on its private channel, signed for a kiosk token.
      if (mode !== 'open') return refuse(401, 'Kiosk not enrolled: subscribe to the private channel with a kiosk token');
      if (conn.ws.readyState !== WebSocket.OPEN) return;
    }
    if (conn.dropped) return;
    if (conn.channels.size === 0) this.becomeBusy(conn);
    conn.channels.add(channel);
    let subs = this.channels.get(channel);
    if (!subs) this.channels.set(channel, (subs = new Map<Connection, DataScope | null>()));
    subs.set(conn, scope);
    conn.event('pusher_internal:subscription_succeeded', {}, channel);
  }

  private leave(conn: Connection, channel: string) {
    if (!conn.channels.delete(channel)) return;
    const subs = this.channels.get(channel);
    if (subs) {
      subs.delete(conn);
      if (subs.size === 0) this.channels.delete(channel);
    }
    if (conn.channels.size === 0 && !conn.dropped) this.becomeIdle(conn);
  }

  /** Counts a socket without a subscription, and closes it if it stays so for the idle timeout. */
  private becomeIdle(conn: Connection) {
    this.unsubscribed++;
    conn.idle = setTimeout(() => {
      conn.idle = null;
      if (conn.channels.size === 0) this.closeConnection(conn, CLOSE_CAPACITY, 'No subscription');
    }, this.options.idleTimeoutMs ?? 30_000);
    conn.idle.unref();
  }

  private becomeBusy(conn: Connection) {
    this.unsubscribed--;
    if (conn.idle) clearTimeout(conn.idle);
    conn.idle = null;
  }

  private closeConnection(conn: Connection, code: number, reason: string) {
    conn.ws.close(code, reason);
    this.drop(conn);
  }

  private drop(conn: Connection) {
    if (conn.dropped) return;
    conn.dropped = true;
    if (conn.channels.size === 0) this.becomeBusy(conn);
    for (const channel of [...conn.channels]) this.leave(conn, channel);
    this.connections.delete(conn.socketId);
    const n = (this.perAddress.get(conn.address) ?? 1) - 1;
    if (n > 0) this.perAddress.set(conn.address, n);
    else this.perAddress.delete(conn.address);
  }

  /**
   * Closes this hub's sockets that `r` no longer authorises: a revoked token's with 4009 (pusher-js stays closed);
   * a changed user's or portal's with 4200, so pusher-js reconnects and signs its subscriptions again with what
   * now holds. Returns how many were closed.
   */
  revoke(r: Revocation) {
    const tokens = new Set(r.tokens ?? []);
    const users = new Set(r.users ?? []);
    const portals = (r.portals ?? []).flatMap((id) => [portalChannel(id), kioskChannel(id)]);
    let closed = 0;
    for (const conn of [...this.connections.values()]) {
      if ([...conn.tokens].some((t) => tokens.has(t))) this.closeConnection(conn, CLOSE_UNAUTHORIZED, 'Sign-in revoked');
      else if ([...conn.users].some((u) => users.has(u)) || portals.some((c) => conn.channels.has(c)))
        this.closeConnection(conn, CLOSE_RECONNECT, 'Access changed, reconnect');
      else continue;
      closed++;
    }
    return closed;
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
    for (const conn of [...this.connections.values()]) this.closeConnection(conn, CLOSE_RECONNECT, 'Server shutting down, reconnect');
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
  | { kind: 'revoke'; revocation: Revocation }
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
  if (m.kind === 'revoke') {
    hub.revoke(m.revocation);
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
    revoke: (revocation) => send({ kind: 'revoke', revocation }),
    async close() {
      unsubscribe();
      await hub.close();
    },
  };
}
