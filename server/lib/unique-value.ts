import { type Expression, type RawBuilder, sql } from 'kysely';
import type { Executor } from '../db/database';

/** Text as a unique name compares: trimmed, lower-cased, runs of white space as one ('Super  Admin' is 'super admin'). */
const folded = (v: RawBuilder<unknown> | Expression<unknown>) => sql`regexp_replace(lower(btrim(${v})), '\\s+', ' ', 'g')`;

/**
 * Whether a row of `source` other than `exceptId` holds `value` in `column`, folded. The check first takes a
 * transaction lock on the folded value under `key` (the table and column), so two writers of one name at once go in
 * turn and the second sees the first's row once it commits; the lock ends with the writer's transaction.
 */
export async function uniqueValueTaken(
  trx: Executor,
  at: { key: string; source: RawBuilder<unknown> | Expression<unknown>; column: string },
  value: string,
  exceptId?: unknown,
) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${at.key} || ':' || ${folded(sql`${value}`)}, 0))`.execute(trx);
  const other = exceptId === undefined ? sql`` : sql` and id <> ${exceptId}`;
  const found =
    await sql`select 1 from ${at.source} where ${folded(sql.ref(at.column))} = ${folded(sql`${value}`)}${other} limit 1`.execute(trx);
  return found.rows.length > 0;
}
