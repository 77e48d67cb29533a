import { randomBytes } from 'node:crypto';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataScope } from '../../src/domain/permissions';
import type { Config } from '../config';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../errors';
import { authErrors, dataReply, ErrorReply } from '../lib/replies';
import type { Broadcaster } from './broadcaster';
import { findPortalAgent, KIOSK_HEADER, KIOSK_REQUIRED, portalAccess } from '../lib/kiosk';
import { mayAuthorize, parseChannel, SCAN_CHANNEL, scanChannelsFor } from './channels';
import { channelAuth, embeddedBroadcaster, HUB_TOPIC, PusherHub, verifyApiSignature, type HubMessage } from './embedded';
import { takeRevocation } from './revocations';
import { presenceRoute } from './presence';
import { visibleScan } from '../lib/scan-scope';
import { createPusherClient, externalBroadcaster, type PusherClient } from './external';

export type { Broadcaster, PortalScanEvent, ScanEvent } from './broadcaster';

declare module 'fastify' {
  interface FastifyInstance {
    /** The embedded endpoint's hub (its counts are read by tests and the bench); null with an external server. */
    realtimeHub: PusherHub | null;
  }
}

const tags = ['Real time'];
const AUTH_ENDPOINT = '/api/broadcasting/auth' as const;

const BroadcastingConfig = z.object({
  key: z.string(),
  wsHost: z.string().optional(),
  wsPort: z.number().int().optional(),
  wssPort: z.number().int().optional(),
  forceTLS: z.boolean(),
  cluster: z.string().optional(),
  authEndpoint: z.literal(AUTH_ENDPOINT),
});

const AuthBody = z.object({
  socket_id: z.string({ error: 'Socket Id is required' }).regex(/^\d{1,20}\.\d{1,20}$/, 'Socket Id is invalid'),
  channel_name: z
    .string({ error: 'Channel Name is required' })
    .min(1, 'Channel Name is required')
    .max(200)
    .regex(/^[A-Za-z0-9_\-=@,.;]+$/, 'Channel Name is invalid'),
});

const EventsBody = z.object({
  name: z.string().min(1).max(200),
  data: z.string().max(100_000),
  channels: z.array(z.string().min(1).max(200)).min(1).max(100).optional(),
  channel: z.string().min(1).max(200).optional(),
  socket_id: z
    .string()
    .regex(/^\d+\.\d+$/)
    .optional(),
});

const RowIds = z.object({ agent_id: z.number().nullable().optional(), client_id: z.number().nullable().optional() });

/** The customer portal of this agent: null when closed (no such agent, or disabled), else its access mode. */
const portalModeIn = (app: FastifyInstance) => async (agentId: number) => (await findPortalAgent(app.db, agentId))?.portal_mode ?? null;

/**
 * Real time: decorates `app.broadcaster` and serves the broadcasting routes. With PUSHER_APP_ID,
 * PUSHER_KEY and PUSHER_SECRET an external Pusher-compatible server carries the events; otherwise
 * this server speaks the Pusher protocol itself at `/app/{key}`.
 */
export const realtimePlugin = fp(
  async (app: FastifyInstance, opts: { config: Config }) => {
    const { config } = opts;
    const portalMode = portalModeIn(app);
    const external =
      config.PUSHER_APP_ID && config.PUSHER_KEY && config.PUSHER_SECRET
        ? { appId: config.PUSHER_APP_ID, key: config.PUSHER_KEY, secret: config.PUSHER_SECRET }
        : null;

    let broadcaster: Broadcaster;
    let hub: PusherHub | null = null;
    let client: PusherClient | null = null;
    if (external) {
      client = createPusherClient({ ...config, PUSHER_APP_ID: external.appId, PUSHER_KEY: external.key, PUSHER_SECRET: external.secret });
      broadcaster = externalBroadcaster(client, { portalMode, log: app.log });
    } else {
      // A pair per process unless configured: browsers fetch the key from /api/broadcasting/config.
      hub = new PusherHub({
        key: config.REALTIME_APP_KEY ?? randomBytes(10).toString('hex'),
        secret: config.REALTIME_APP_SECRET ?? randomBytes(32).toString('hex'),
        activityTimeout: config.REALTIME_ACTIVITY_TIMEOUT,
        maxPerAddress: config.REALTIME_MAX_CONNECTIONS_PER_ADDRESS,
        maxUnsubscribed: config.REALTIME_MAX_UNSUBSCRIBED,
        idleTimeoutMs: config.REALTIME_IDLE_TIMEOUT * 1000,
        portalMode,
        log: app.log,
      });
      broadcaster = embeddedBroadcaster(hub, app.bus, app.log);
    }
    app.decorate('broadcaster', broadcaster);
    app.decorate('realtimeHub', hub);
    // One bus message per request that revoked something, published after the access-cache clear (auth plugin, onSend).
    app.addHook('onResponse', async (req, reply) => {
      const revocation = takeRevocation(req);
      if (revocation && reply.statusCode < 400) await broadcaster.revoke(revocation);
    });
    app.addHook('onClose', async () => {
      await broadcaster.close();
    });

    await app.register(async (scope) => {
      // pusher-js posts the channel authorisation as a form.
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
      });
      const r = scope.withTypeProvider<ZodTypeProvider>();

      r.get(
        '/api/broadcasting/config',
        {
          config: { access: 'public' },
          schema: {
            tags,
            summary: 'Where browsers connect for live events (laravel-echo / pusher-js options)',
            security: [],
            response: { 200: dataReply(BroadcastingConfig) },
          },
        },
        async (req, reply) => {
          if (hub) {
            // The same host and port the page came from (pusher-js would otherwise default to 80/443); the reply varies by Host, so never cached.
            reply.header('cache-control', 'no-store');
            const tls = req.protocol === 'https';
            const port = req.port ?? (tls ? 443 : 80);
            const host = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])$/.test(req.hostname) ? req.hostname : undefined;
            return { data: { key: hub.key, wsHost: host, wsPort: port, wssPort: port, forceTLS: tls, authEndpoint: AUTH_ENDPOINT } };
          }
          const scheme = config.PUSHER_SCHEME ?? (config.PUSHER_HOST ? 'http' : 'https');
          return {
            data: {
              key: config.PUSHER_KEY ?? '',
              wsHost: config.PUSHER_WS_HOST ?? config.PUSHER_HOST,
              wsPort: config.PUSHER_WS_PORT ?? config.PUSHER_PORT,
              wssPort: config.PUSHER_WS_PORT ?? config.PUSHER_PORT,
              forceTLS: scheme === 'https',
              cluster: config.PUSHER_CLUSTER ?? (config.PUSHER_HOST ? undefined : 'mt1'),
              authEndpoint: AUTH_ENDPOINT,
            },
          };
        },
      );

      r.get(
        '/api/broadcasting/channels',
        {
          config: { access: { permission: 'scan' } },
          schema: {
            tags,
            summary: "The private channels carrying this user's scan events (`created`, `updated`)",
            response: { 200: dataReply(z.object({ scan: z.array(z.string()) })), ...authErrors },
          },
        },
        async (req) => ({ data: { scan: scanChannelsFor(dataScope(req.user!), hub !== null) } }),
      );

      r.post(
        AUTH_ENDPOINT,
        {
          // A signed-in user for the scan channels; the customer portal's kiosk (X-Kiosk-Token, no sign-in) for its own.
          config: { access: 'optional' },
          schema: {
            tags,
            summary:
              'Signs a private channel subscription (Pusher HMAC) after checking the user (or the portal kiosk) may see that channel',
            description:
              'Form-encoded or JSON `socket_id`, `channel_name`, as pusher-js sends them. Replies `{auth}` (and `channel_data` on `private-scan` with the embedded server), not `{data}`: pusher-js reads it as is. ' +
              '`private-agent.{id}.scans` (the customer portal) needs no sign-in: the X-Kiosk-Token of an enrolled kiosk, or nothing when the portal is open.',
            consumes: ['application/x-www-form-urlencoded', 'application/json'],
            body: AuthBody,
            response: { 200: z.object({ auth: z.string(), channel_data: z.string().optional() }), ...authErrors },
          },
        },
        async (req) => {
          const { socket_id: socketId, channel_name: channel } = req.body;
          const kind = parseChannel(channel);
          if (kind?.kind === 'portal' && kind.private) {
            const access = await portalAccess(app.db, app.signer, kind.agentId, req.headers[KIOSK_HEADER]);
            if (access === 'closed') throw new ForbiddenError();
            if (access === 'enrol') throw new UnauthorizedError(KIOSK_REQUIRED);
            if (client) return client.authorizeChannel(socketId, channel);
            return { auth: channelAuth(hub!.key, hub!.options.secret, socketId, channel) };
          }
          const user = req.user;
          if (!user) throw new UnauthorizedError();
          // Live events follow the user's own scope: the header selection changes while a connection stays open.
          const scope = dataScope(user);
          if (!kind || !channel.startsWith('private-') || !mayAuthorize(kind, user, scope, hub !== null)) throw new ForbiddenError();
          if (kind.kind === 'editing' && !(await visibleScan(app.db, scope, kind.scanId))) throw new ForbiddenError();
          if (client) return client.authorizeChannel(socketId, channel);
          const h = hub!;
          // The owner travels signed too, so revoking the token or changing the user closes the socket (PusherHub.revoke).
          const owner = { user: user.id, token: user.tokenId };
          // The subscriber's scope travels signed with the subscription, so the hub filters without keeping state.
          const channelData = JSON.stringify(kind.kind === 'scan' ? { agents: scope.agents, clients: scope.clients, ...owner } : owner);
          return { auth: channelAuth(h.key, h.options.secret, socketId, channel, channelData), channel_data: channelData };
        },
      );

      presenceRoute(scope, async (channel, event, data) => {
        try {
          if (client) await client.trigger([channel], event, JSON.parse(data));
          else await app.bus.publish(HUB_TOPIC, { kind: 'raw', channel, event, data } satisfies HubMessage);
        } catch (err) {
          app.log.error({ err }, 'live event not published');
        }
      });

      if (!hub) return;
      const embedded = hub;
      await scope.register(websocket, {
        options: { maxPayload: 64 * 1024 },
        // On shutdown, 4200 (Pusher's "reconnect now") rather than ws's plain close: pusher-js comes back at once, elsewhere.
        preClose(this: FastifyInstance, done: () => void) {
          void embedded.close();
          this.websocketServer.close();
          done();
        },
      });
      scope.get<{ Params: { key: string }; Querystring: { protocol?: string } }>(
        '/app/:key',
        {
          websocket: true,
          config: { access: 'public' },
        },
        (socket, req) => embedded.accept(socket, req.params.key, req.query.protocol, req.ip),
      );

      // The Pusher HTTP API's trigger call, so a second process (or the SDK itself) can publish here with the secret.
      await scope.register(async (api) => {
        api.removeContentTypeParser('application/json');
        api.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
        api.withTypeProvider<ZodTypeProvider>().post(
          '/apps/:appId/events',
          {
            config: { access: 'public' },
            schema: {
              tags,
              summary: 'Pusher HTTP API: trigger an event (signed with the app secret, as the pusher SDK does)',
              security: [],
              params: z.object({ appId: z.string() }),
              querystring: z.record(z.string(), z.string()),
              response: { 200: z.object({}), 401: ErrorReply, 422: ErrorReply },
            },
          },
          async (req) => {
            const raw = typeof req.body === 'string' ? req.body : '';
            const problem = verifyApiSignature({
              key: embedded.key,
              secret: embedded.options.secret,
              method: 'POST',
              path: `/apps/${req.params.appId}/events`,
              query: req.query,
              body: raw,
            });
            if (problem) throw new UnauthorizedError(problem);
            let parsed: unknown;
            try {
              parsed = JSON.parse(raw);
            } catch {
              throw new ValidationError({ body: 'Body must be JSON' });
            }
            const event = EventsBody.safeParse(parsed);
            if (!event.success) throw new ValidationError({ body: 'Body must be {name, data, channels}' });
            const { name, data, socket_id: except } = event.data;
            const channels = event.data.channels ?? (event.data.channel ? [event.data.channel] : []);
            for (const channel of channels) {
              let row: { agent_id?: number | null; client_id?: number | null } | undefined;
              if (channel === SCAN_CHANNEL) {
                // Scoped subscribers of private-scan get only their rows; an event without ids reaches only unrestricted ones.
                let decoded: unknown = null;
                try {
                  decoded = JSON.parse(data);
                } catch {
                  /* no ids: unrestricted subscribers only */
                }
                const ids = RowIds.safeParse(decoded);
                row = ids.success ? ids.data : { agent_id: null, client_id: null };
              }
              // Through the bus, so subscribers on every instance get it.
              await app.bus.publish(HUB_TOPIC, { kind: 'raw', channel, event: name, data, row, except } satisfies HubMessage);
            }
            return {};
          },
        );
      });
    });
  },
  { name: 'realtime' },
);
