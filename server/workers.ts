import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db/database';
import type { FileStorage } from './lib/storage';
import type { Mailer } from './lib/mail-outbox';
import { createWebhookDeliverer } from './services/agent';
import { EXPORT_TABLES } from './lib/export-sweep';
import { removeExpiredReports } from './lib/report-file';

export interface WorkerOptions {
  db: Database;
  mailer: Mailer;
  storage: FileStorage;
  log: FastifyBaseLogger;
  allowPrivate: boolean;
  webhookTimeoutMs: number;
  /** Periods in ms (tests shorten them). */
  mailEveryMs?: number;
  webhookEveryMs?: number;
  exportSweepEveryMs?: number;
  /** Webhook retry delays in seconds and the claim's margin (tests shorten them). */
  webhookRetryDelays?: readonly number[];
  webhookClaimMarginSeconds?: number;
}

export interface Workers {
  /** Stops claiming new items, lets the item under way in each loop finish, and resolves when all are done. */
  stop(): Promise<void>;
  /** Webhook deliveries this instance had taken with a 2xx. */
  readonly webhooksDelivered: number;
}

/**
 * The background loops of one instance: the mail outbox every 5 s, a look for due webhook deliveries every 2 s (the
 * deliverer also looks again whenever a send ends), and the sweeps of expired scan and quote export files at start and then hourly.
 * Every loop claims its rows in PostgreSQL (`for update skip locked` and a lease), so any number of instances can run
 * them on one database: an item is taken by one instance at a time, and one whose instance died is taken over.
 */
export function startWorkers(o: WorkerOptions): Workers {
  const abort = new AbortController();
  const webhooks = createWebhookDeliverer(o.db, {
    allowPrivate: o.allowPrivate,
    timeoutMs: o.webhookTimeoutMs,
    retryDelays: o.webhookRetryDelays,
    claimMarginSeconds: o.webhookClaimMarginSeconds,
    onError: (err) => o.log.error({ err }, 'webhook delivery failed'),
  });
  const running = new Set<Promise<unknown>>();
  const timers = [
    every(o.mailEveryMs ?? 5000, () => o.mailer.deliverPending(20, abort.signal), 'mail delivery'),
    every(o.webhookEveryMs ?? 2000, () => webhooks.tick(), 'webhook delivery'),
    every(
      o.exportSweepEveryMs ?? 3600_000,
      async () => {
        for (const table of EXPORT_TABLES) await removeExpiredReports(table, o.db, o.storage, o.log, new Date(), abort.signal);
      },
      'export sweep',
      { now: true },
    ),
  ];

  /** Runs `task` every `ms`, one pass at a time. */
  function every(ms: number, task: () => Promise<unknown>, name: string, opts: { now?: boolean } = {}) {
    let busy = false;
    const run = () => {
      if (busy || abort.signal.aborted) return;
      busy = true;
      const p: Promise<unknown> = task()
        .catch((err: unknown) => o.log.error({ err }, `${name} failed`))
        .finally(() => {
          busy = false;
          running.delete(p);
        });
      running.add(p);
    };
    if (opts.now) run();
    return setInterval(run, ms);
  }

  return {
    async stop() {
      abort.abort();
      for (const timer of timers) clearInterval(timer);
      await webhooks.stop();
      while (running.size) await Promise.allSettled([...running]);
    },
    get webhooksDelivered() {
      return webhooks.delivered;
    },
  };
}
