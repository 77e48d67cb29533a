import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';

// Ids and counts are bigint in SQL; every value we store fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

export type Database = Kysely<DB>;
/** Repositories take either the database or a transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

export function createDatabase(url: string, max = 10): Database {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max }) }) });
}
