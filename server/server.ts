import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createDatabase } from './db/database';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded';
import { migrate } from './db/migrate';
import { createMailer } from './services/email/outbox';
import { deliverDueWebhooks } from './services/agent/webhook-delivery';
import { removeExpiredExports } from './services/scan/export';
import { seedDemo, DEMO_PASSWORD, DEMO_USERS } from './seed/demo';

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
  let embedded: EmbeddedDatabase | null = null;
  const url = config.DATABASE_URL ?? (embedded = await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT)).url;
  const stopDb = async () => { if (embedded) await embedded.stop().catch(() => {}); };
  try {
    await migrate(url, (m) => console.log(m));
  } catch (e) {
    console.error((e as Error).message);
    await stopDb();
    process.exit(1);
  }
  const db = createDatabase(url);
  const seeded = embedded && config.SEED_DEMO ? await seedDemo(db, { onlyIfEmpty: true }) : false;
  const mailer = createMailer(db, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log: (text) => console.log(text) });
  const app = await buildApp({ config, db, mailer });
  const mailTimer = setInterval(() => { mailer.deliverPending().catch((e) => app.log.error(e, 'mail delivery failed')); }, 5000);
  // Export files expire after a day: swept at start and then every hour.
  const sweepExports = () => { removeExpiredExports(db, app.storage, app.log).catch((e) => app.log.error(e, 'export sweep failed')); };
  sweepExports();
  const exportTimer = setInterval(sweepExports, 3600_000);
  // Webhook deliveries: due ones every 2 s (one pass at a time).
  let delivering = false;
  const webhookTimer = setInterval(() => {
    if (delivering) return;
    delivering = true;
    deliverDueWebhooks(db, { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE })
      .catch((e) => app.log.error(e, 'webhook delivery failed'))
      .finally(() => { delivering = false; });
  }, 2000);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    clearInterval(mailTimer);
    clearInterval(exportTimer);
    clearInterval(webhookTimer);
    await app.close().catch(() => {});
    await db.destroy().catch(() => {});
    await stopDb();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (e) {
    console.error(`Cannot listen on ${config.HOST}:${config.PORT}: ${(e as Error).message}`);
    await shutdown('listen failure');
    process.exit(1);
  }
  console.log(`\nScanQuote is running at ${config.APP_URL}  (API docs: ${config.APP_URL}/api/docs)`);
  if (embedded) console.log(`Embedded PostgreSQL data: ${config.DATA_DIR}/pg${seeded ? ' (demo data loaded)' : ''}`);
  if (embedded && config.SEED_DEMO) console.log(`Demo sign-ins (password ${DEMO_PASSWORD}): ${DEMO_USERS.map((u) => u.email).join(', ')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
