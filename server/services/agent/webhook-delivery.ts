import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { sql } from 'kysely';
import type { WebhookEvent } from '../../../src/domain/webhooks';
import type { Database, Executor } from '../../db/database';

/**
 * Webhook delivery: an event is written as one `webhook_deliveries` row per subscribed webhook of the agent, then a
 * loop POSTs it as JSON signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the bytes of the secret after `whsec_`), retrying
 * with back-off until a 2xx. Receivers on private, loopback or link-local addresses are refused unless allowed
 * (checked on the address actually connected to, so DNS cannot point a public name inward). See docs/webhooks.md.
 */

/** Seconds to wait after the 1st, 2nd, ... failed attempt; after the last one the delivery is marked failed. */
export const RETRY_DELAYS = [30, 120, 600, 1800, 3600, 3 * 3600, 6 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;
const TIMEOUT_MS = 10_000;
/** While one process sends a claimed delivery, others leave it alone this long. */
const CLAIM_SECONDS = 60;

export interface DeliveryOptions {
  /** Allow receivers on private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE; tests and local set-ups). */
  allowPrivate: boolean;
  limit?: number;
}

/** Queues `event` for every webhook of the agent subscribed to it; returns how many deliveries were written. */
export async function enqueueWebhooks(db: Executor, agentId: number, event: WebhookEvent, data: unknown) {
  const r = await sql`insert into webhook_deliveries (message_id, webhook_id, event, payload)
    select 'msg_' || replace(gen_random_uuid()::text, '-', ''), w.id, ${event}, ${JSON.stringify({ type: event, timestamp: new Date().toISOString(), data })}::jsonb
    from webhooks w where w.agent_id = ${agentId} and ${event} = any(w.events)`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** The Standard Webhooks signature header value for a message. */
export function signWebhook(secret: string, messageId: string, timestamp: number, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'hex');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
}

const blocked = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net4, prefix, 'ipv4');
for (const [net6, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net6, prefix, 'ipv6');

/** Is this address one a webhook may not reach (private, loopback, link-local, multicast, reserved)? */
export function isInternalAddress(address: string) {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = net.isIP(address);
  if (!family) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

class RefusedAddress extends Error {}

/** A DNS lookup that refuses internal addresses: used for the connection itself. */
const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isInternalAddress(a.address));
    if (bad || !list.length)
      return callback(new RefusedAddress(`refused: ${hostname} is a private or internal address (${bad?.address ?? 'none'})`), '', 0);
    if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    return callback(null, list[0].address, list[0].family);
  });
};

/** POSTs one message; resolves with the status code, rejects on a network error, refusal or timeout. */
function post(endpoint: string, headers: Record<string, string>, body: string, allowPrivate: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(endpoint);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (!allowPrivate && net.isIP(literal) && isInternalAddress(literal))
      return reject(new RefusedAddress(`refused: ${literal} is a private or internal address`));
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        timeout: TIMEOUT_MS,
        ...(allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        // The body is not read beyond draining it; redirects are not followed (a 3xx is a failed attempt).
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A network failure in words a webhook's owner can act on. */
function describeFailure(e: unknown, endpoint: string) {
  const host = new URL(endpoint).host;
  switch ((e as NodeJS.ErrnoException).code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot find ${host}`;
    case 'ECONNREFUSED':
      return `${host} refused the connection`;
    case 'ECONNRESET':
      return `${host} closed the connection`;
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `${host} has no valid TLS certificate (${(e as NodeJS.ErrnoException).code})`;
    default:
      return (e as Error).message;
  }
}

interface Due {
  id: number;
  message_id: string;
  payload: unknown;
  attempts: number;
  endpoint: string;
  secret: string;
}

/**
 * Sends the deliveries that are due, each claimed first (so two processes never send one together); returns how
 * many were delivered. A failed attempt is rescheduled after RETRY_DELAYS, the last one marks the delivery failed.
 */
export async function deliverDueWebhooks(db: Database, opts: DeliveryOptions): Promise<number> {
  const due = await sql<Due>`update webhook_deliveries d set next_attempt_at = now() + ${`${CLAIM_SECONDS} seconds`}::interval
    from webhooks w
    where w.id = d.webhook_id and d.id in (
      select id from webhook_deliveries where status = 'pending' and next_attempt_at <= now() order by next_attempt_at, id limit ${opts.limit ?? 20} for update skip locked)
    returning d.id, d.message_id, d.payload, d.attempts, w.endpoint, w.secret`.execute(db);
  let delivered = 0;
  for (const d of due.rows) {
    const body = JSON.stringify(d.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'ScanQuote-Webhooks/1',
      'webhook-id': d.message_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(d.secret, d.message_id, timestamp, body),
    };
    const attempts = d.attempts + 1;
    let status: number | null = null;
    let error: string | null = null;
    try {
      status = await post(d.endpoint, headers, body, opts.allowPrivate);
      if (status < 200 || status >= 300) error = `answered ${status}`;
    } catch (e) {
      error = describeFailure(e, d.endpoint).slice(0, 500);
    }
    if (!error) {
      await sql`update webhook_deliveries set status = 'delivered', attempts = ${attempts}, last_status = ${status}, last_error = null, delivered_at = now()
        where id = ${d.id}`.execute(db);
      delivered++;
    } else if (attempts >= MAX_ATTEMPTS) {
      await sql`update webhook_deliveries set status = 'failed', attempts = ${attempts}, last_status = ${status}, last_error = ${error} where id = ${d.id}`.execute(
        db,
      );
    } else {
      await sql`update webhook_deliveries set attempts = ${attempts}, last_status = ${status}, last_error = ${error},
          next_attempt_at = now() + ${`${RETRY_DELAYS[attempts - 1]} seconds`}::interval where id = ${d.id}`.execute(db);
    }
  }
  return delivered;
}
