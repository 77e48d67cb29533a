import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createDatabase } from './db/database';
import { leaveSignalsToCaller, startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded';
import { migrate } from './db/migrate';
import { createMailer } from './lib/mail-outbox';
import { seedDemo, DEMO_PASSWORD, DEMO_USERS } from './seed/demo';
import { startWorkers } from './workers';

/** Starts everything, prints where to go, and shuts PostgreSQL down cleanly on Ctrl-C / SIGTERM. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(78);
    }
    throw e;
  }
  leaveSignalsToCaller();
  let embedded: EmbeddedDatabase | null = null;
  if (!config.DATABASE_URL) {
    try {
      embedded = await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT);
    } catch (e) {
      console.error(e instanceof Error ? e.message : `The embedded PostgreSQL did not start: ${String(e)}`);
      process.exit(1);
    }
  }
  const url = config.DATABASE_URL ?? embedded!.url;
  const stopDb = async () => {
    if (embedded) await embedded.stop().catch(() => {});
  };
  try {
    await migrate(url, (m) => console.log(m));
  } catch (e) {
    console.error((e as Error).message);
    await stopDb();
    process.exit(1);
  }
  const db = createDatabase(url);
  const seeded = embedded && config.SEED_DEMO ? await seedDemo(db, { onlyIfEmpty: true }) : false;
  const mailer = createMailer(db, {
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    log: config.MAIL_CONSOLE ? (text) => console.log(text) : undefined,
  });
  const app = await buildApp({ config, db, mailer, databaseUrl: url });
  const workers = startWorkers({
    db,
    mailer,
    storage: app.storage,
    log: app.log,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    webhookTimeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
    webhookRetryDelays: config.WEBHOOK_RETRY_SECONDS,
    webhookClaimMarginSeconds: config.WEBHOOK_CLAIM_MARGIN_SECONDS,
  });

  let stopping = false;
  /**
   * Graceful shutdown: /api/ready answers 503 (the load balancer stops sending here) for SHUTDOWN_DRAIN_SECONDS, then the
   * server stops accepting, closes WebSockets with 4200 (reconnect elsewhere), finishes the requests under way and the
   * background item each loop is on, and exits. Past SHUTDOWN_TIMEOUT_SECONDS it exits anyway.
   */
  const shutdown = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    app.lifecycle.draining = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_SECONDS * 1000).unref();
    if (code === 0 && config.SHUTDOWN_DRAIN_SECONDS > 0) await new Promise((r) => setTimeout(r, config.SHUTDOWN_DRAIN_SECONDS * 1000));
    await Promise.all([
      workers.stop().catch((err: unknown) => app.log.error({ err }, 'background work did not stop cleanly')),
      app.close().catch(() => {}),
    ]);
    await db.destroy().catch(() => {});
    await stopDb();
    app.log.info('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (e) {
    console.error(`Cannot listen on ${config.HOST}:${config.PORT}: ${(e as Error).message}`);
    await shutdown('listen failure', 1);
  }
  console.log(`\nScanQuote is running at ${config.APP_URL}  (API docs: ${config.APP_URL}/api/docs)`);
  if (embedded) console.log(`Embedded PostgreSQL data: ${config.DATA_DIR}/pg${seeded ? ' (demo data loaded)' : ''}`);
  if (!config.SMTP_URL && config.MAIL_CONSOLE)
    console.log('No SMTP_URL: e-mails (password reset links too) are printed here instead of sent (MAIL_CONSOLE; development only).');
  else if (!config.SMTP_URL) app.log.warn('SMTP_URL is not set: e-mails stay queued in mail_outbox until it is.');
  if (embedded && config.SEED_DEMO) console.log(`Demo sign-ins (password ${DEMO_PASSWORD}): ${DEMO_USERS.map((u) => u.email).join(', ')}`);
}

main().catch((e: unknown) => {
  // Never a bare `undefined`: something a reader can act on.
  console.error(e instanceof Error ? (e.stack ?? e.message) : `The server did not start: ${String(e)}`);
  process.exit(1);
});
