import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';
import { preparingClient } from './prepared';
import { parseTimestamptz } from './timestamps';

// Ids and counts are bigint in SQL; every value we store fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestamptz);

export type Database = Kysely<DB>;
/** Repositories take either the database or a transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

export function createDatabase(url: string, max = 10): Database {
  // Reads are prepared statements, parsed and planned once per connection (./prepared.ts).
  const pool = new pg.Pool({ connectionString: url, max, Client: preparingClient() });
  // An idle connection dropped by the server (e.g. PostgreSQL stopping on Ctrl-C) must not crash the process.
  pool.on('error', (e) => console.error(`database connection lost: ${e.message}`));
  // Nor one in use: its query rejects (the request answers 503) and the pool drops it when it is released; the
  // client's own 'error' event, unheard, would end the process.
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}
