import { createHmac } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { WebhookFailure } from '../../../src/domain/webhooks';
import type { Database } from '../../db/database';
import { internalEndpoint, isInternalAddress } from './webhook-address';
import { claimDue, type Due, recordDelivered, recordFailed, recordRetry } from './webhook-delivery-repository';

/**
 * Webhook delivery: an event is written as one `webhook_deliveries` row per subscribed webhook of the agent, in the
 * transaction of the change it reports (transactional outbox, server/lib/events.ts); a deliverer POSTs it as JSON signed the Standard Webhooks
 * way (webhook-id, webhook-timestamp, webhook-signature `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with
 * the base64-decoded secret after `whsec_`), one delivery at a time per endpoint, retrying with back-off until a 2xx.
 * Internal addresses are refused unless allowed (webhook-address.ts), checked on the address actually connected to,
 * so DNS cannot point a public name inward. See docs/webhooks.md.
 */

/** Seconds to wait after the 1st, 2nd, ... failed attempt; after the last one the delivery is marked failed. */
export const RETRY_DELAYS = [30, 120, 600, 1800, 3600, 3 * 3600, 6 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;
/** A claim outlives the attempt by this much; a process that dies mid-send leaves the delivery to others after it. */
const CLAIM_MARGIN_SECONDS = 30;

export interface DeliveryOptions {
  /** Allow receivers on private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE; tests and local set-ups). */
  allowPrivate: boolean;
  /** How long a receiver has for its whole answer, connection included (WEBHOOK_TIMEOUT_SECONDS). */
  timeoutMs?: number;
  /** Deliveries this process sends at once, each to a different endpoint. */
  maxInFlight?: number;
  /** Where a failure of the deliverer itself (not of a receiver) is reported. */
  onError?: (err: unknown) => void;
  /** Seconds between attempts (RETRY_DELAYS unless given; tests shorten them); attempts = its length + 1. */
  retryDelays?: readonly number[];
  /** How long a claim outlives the attempt's timeout (CLAIM_MARGIN_SECONDS unless given; tests shorten it). */
  claimMarginSeconds?: number;
}

/** The Standard Webhooks signature header value for a message: the key is the base64 after `whsec_`. */
export function signWebhook(secret: string, messageId: string, timestamp: number, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
}

/** A failed attempt, by class only (WEBHOOK_FAILURES). */
class AttemptFailure extends Error {
  constructor(readonly failure: WebhookFailure) {
    super(failure);
  }
}

/** A DNS lookup that refuses internal addresses: used for the connection itself, so a rebinding name gains nothing. */
const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, list) => {
    if (err) return callback(err, '', 0);
    if (!list.length || list.some((a) => isInternalAddress(a.address))) return callback(new AttemptFailure('refused'), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    return callback(null, list[0].address, list[0].family);
  });
};

const TLS_ERRORS = new Set([
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_NOT_YET_VALID',
]);

/**
 * POSTs one message; resolves with the status code (3xx included: redirects are not followed), rejects with an
 * AttemptFailure. The timeout covers the whole exchange, so a receiver that trickles bytes cannot hold a slot.
 */
function post(endpoint: string, headers: Record<string, string>, body: string, opts: { allowPrivate: boolean; timeoutMs: number }) {
  return new Promise<number>((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return reject(new AttemptFailure('unreachable'));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(new AttemptFailure('refused'));
    if (!opts.allowPrivate && internalEndpoint(endpoint)) return reject(new AttemptFailure('refused'));
    const req = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        agent: false,
        ...(opts.allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        clearTimeout(timer);
        resolve(res.statusCode ?? 0);
        // Only the status matters; the body is not read.
        res.destroy();
      },
    );
    let connected = false;
    req.on('socket', (socket) => socket.once('connect', () => (connected = true)));
    const timer = setTimeout(() => req.destroy(new AttemptFailure(connected ? 'timeout' : 'unreachable')), opts.timeoutMs);
    req.on('error', (e) => {
      clearTimeout(timer);
      if (e instanceof AttemptFailure) return reject(e);
      const code = (e as NodeJS.ErrnoException).code ?? '';
      // Every other network failure (name not found, connection refused or reset, not HTTP) is one class: its details
      // would tell an open port from a closed one.
      reject(new AttemptFailure(TLS_ERRORS.has(code) ? 'tls' : 'unreachable'));
    });
    req.end(body);
  });
}

/** Sends one claimed delivery and records the outcome, releasing the claim. Resolves true when delivered. */
async function attempt(db: Database, d: Due, opts: { allowPrivate: boolean; timeoutMs: number; retryDelays: readonly number[] }) {
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
  let failure: WebhookFailure | null = null;
  try {
    status = await post(d.endpoint, headers, body, opts);
    if (status < 200 || status >= 300) failure = status >= 300 && status < 400 ? 'redirect' : 'http';
  } catch (e) {
    failure = e instanceof AttemptFailure ? e.failure : 'unreachable';
  }
  if (!failure) {
    await recordDelivered(db, d.id, attempts, status);
    return true;
  }
  if (attempts >= opts.retryDelays.length + 1) {
    await recordFailed(db, d.id, { attempts, status, failure });
  } else {
    await recordRetry(db, d.id, { attempts, status, failure }, opts.retryDelays[attempts - 1]);
  }
  return false;
}

export interface WebhookDeliverer {
  /** Claims what is due (up to the free slots) and starts sending it; resolves once claimed, not once sent. */
  tick(): Promise<void>;
  /** Resolves when nothing is being claimed or sent. */
  drain(): Promise<void>;
  /** Stops claiming, then waits for the sends under way (each bounded by the timeout). */
  stop(): Promise<void>;
  /** Deliveries taken with a 2xx since the deliverer was made. */
  readonly delivered: number;
}

/**
 * The delivery loop's engine: every endpoint has its own lane (one delivery in flight), many endpoints are sent to at
 * once, and a finished send claims again at once, so a receiver that never answers holds only its own lane.
 */
export function createWebhookDeliverer(db: Database, opts: DeliveryOptions): WebhookDeliverer {
  const send = { allowPrivate: opts.allowPrivate, timeoutMs: opts.timeoutMs ?? 5000, retryDelays: opts.retryDelays ?? RETRY_DELAYS };
  const maxInFlight = opts.maxInFlight ?? 20;
  const claimSeconds = Math.ceil(send.timeoutMs / 1000) + (opts.claimMarginSeconds ?? CLAIM_MARGIN_SECONDS);
  const onError = opts.onError ?? (() => {});
  const sending = new Set<Promise<void>>();
  let claiming: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let delivered = 0;

  async function claimAndStart() {
    const free = maxInFlight - sending.size;
    if (free <= 0 || stopped) return;
    for (const d of await claimDue(db, free, claimSeconds)) {
      const p: Promise<void> = attempt(db, d, send)
        .then((ok) => {
          if (ok) delivered++;
        })
        .catch(onError)
        .finally(() => {
          sending.delete(p);
          // The endpoint's lane is free: its next delivery (or another endpoint's) need not wait for the timer.
          if (!stopped) tick().catch(onError);
        });
      sending.add(p);
    }
  }

  function tick(): Promise<void> {
    if (claiming) {
      again = true;
      return claiming;
    }
    claiming = (async () => {
      do {
        again = false;
        await claimAndStart();
      } while (again && !stopped);
    })().finally(() => {
      claiming = null;
    });
    return claiming;
  }

  async function drain() {
    while (claiming || sending.size) await Promise.allSettled([claiming, ...sending]);
  }

  return {
    tick,
    drain,
    async stop() {
      stopped = true;
      await drain();
    },
    get delivered() {
      return delivered;
    },
  };
}

/** Sends everything due now and waits for the outcomes; returns how many were delivered (tests, one-off runs). */
export async function deliverDueWebhooks(db: Database, opts: DeliveryOptions): Promise<number> {
  const errors: unknown[] = [];
  const deliverer = createWebhookDeliverer(db, { onError: (e) => errors.push(e), ...opts });
  await deliverer.tick();
  await deliverer.drain();
  if (errors.length) throw errors[0];
  return deliverer.delivered;
}
