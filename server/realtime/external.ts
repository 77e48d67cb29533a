import type { FastifyBaseLogger } from 'fastify';
import Pusher from 'pusher';
import type { Config } from '../config';
import { portalPayload, PORTAL_SAVED, SCAN_CREATED, SCAN_UPDATED, type Broadcaster, type ScanEvent } from './broadcaster';
import type { PortalMode } from '../../src/domain/agents';
import { kioskChannel, portalChannel, SCAN_CHANNEL, scopedScanChannels } from './channels';

/** What this application needs of the official `pusher` SDK (the real client satisfies it; tests may pass a fake). */
export interface PusherClient {
  trigger(channels: string[], event: string, data: unknown): Promise<unknown>;
  authorizeChannel(socketId: string, channel: string): { auth: string; channel_data?: string };
}

export type ExternalSettings = Required<Pick<Config, 'PUSHER_APP_ID' | 'PUSHER_KEY' | 'PUSHER_SECRET'>> &
  Pick<Config, 'PUSHER_HOST' | 'PUSHER_PORT' | 'PUSHER_SCHEME' | 'PUSHER_CLUSTER'>;

/** The SDK client for soketi / Reverb (PUSHER_HOST, PUSHER_PORT, PUSHER_SCHEME) or Pusher itself (PUSHER_CLUSTER). */
export function createPusherClient(s: ExternalSettings): PusherClient {
  const useTLS = (s.PUSHER_SCHEME ?? (s.PUSHER_HOST ? 'http' : 'https')) === 'https';
  const base = { appId: s.PUSHER_APP_ID, key: s.PUSHER_KEY, secret: s.PUSHER_SECRET, useTLS, timeout: 5000 };
  if (s.PUSHER_HOST)
    return new Pusher({ ...base, host: s.PUSHER_HOST, port: s.PUSHER_PORT === undefined ? undefined : String(s.PUSHER_PORT) });
  return new Pusher({ ...base, cluster: s.PUSHER_CLUSTER ?? 'mt1' });
}

/**
 * Publishes through an external Pusher-compatible server. Such a server cannot filter per subscriber,
 * so every scan event also goes to its per-agent, per-client and per-agent-and-client channels
 * (one HTTP call for all), and `private-scan` is only ever authorised to unrestricted users.
 * Calls are chained so the server receives events in the order they were published.
 */
export function externalBroadcaster(
  client: PusherClient,
  opts: { portalMode(agentId: number): Promise<PortalMode | null>; log: FastifyBaseLogger },
): Broadcaster {
  let queue = Promise.resolve();
  const enqueue = (what: string, job: () => Promise<unknown>) => {
    queue = queue.then(job).then(
      () => undefined,
      (err: unknown) => opts.log.error({ err }, `realtime ${what} not published`),
    );
    return queue;
  };
  const scan = (event: string, s: ScanEvent) => {
    // The SDK sends a string as it is: one serialisation for every channel.
    const data = JSON.stringify(s);
    const channels = [SCAN_CHANNEL, ...scopedScanChannels({ agent_id: s.agent_id, client_id: s.client_id })];
    return enqueue(event, () => client.trigger(channels, event, data));
  };
  return {
    scanCreated: (s) => scan(SCAN_CREATED, s),
    scanUpdated: (s) => scan(SCAN_UPDATED, s),
    portalScanSaved(agentId, s) {
      const data = JSON.stringify(portalPayload(s));
      return enqueue(PORTAL_SAVED, async () => {
        // Such a server cannot refuse the public channel's subscribers, so an enrolled portal's events never go there.
        const mode = await opts.portalMode(agentId);
        if (mode)
          await client.trigger(
            mode === 'open' ? [kioskChannel(agentId), portalChannel(agentId)] : [kioskChannel(agentId)],
            PORTAL_SAVED,
            data,
          );
      });
    },
    // An external server's sockets are out of reach: they keep what they hold until they reconnect.
    revoke: async () => {},
    async close() {
      await queue;
    },
  };
}
