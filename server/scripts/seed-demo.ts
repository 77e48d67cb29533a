import { loadConfig } from '../config';
import { createDatabase } from '../db/database';
import { startEmbeddedPostgres } from '../db/embedded';
import { migrate } from '../db/migrate';
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from '../seed/demo';

/** `npm run seed:demo`: loads the demo data on DATABASE_URL (or the embedded database) if it has no users yet. */
const config = loadConfig();
const embedded = config.DATABASE_URL ? null : await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT);
const url = config.DATABASE_URL ?? embedded!.url;
await migrate(url, console.log);
const db = createDatabase(url);
const done = await seedDemo(db, { onlyIfEmpty: true });
console.log(
  done
    ? `Demo data loaded. Sign in as ${DEMO_USERS.map((u) => u.email).join(', ')} with ${DEMO_PASSWORD}.`
    : 'The database already has users; nothing loaded.',
);
await db.destroy();
await embedded?.stop();
