import { sql } from 'kysely';
import type { Executor } from '../../db/database';
import type { PageQuery } from '../../lib/resource';

export interface OptionRow {
  id: number;
  option_name: string;
  option_value: string;
  field_type: string;
  created_at: Date;
  updated_at: Date;
}

/** A page of settings; names are matched with spaces for underscores too, so 'terms and' finds TERMS_AND_CONDITIONS. */
export async function optionPage(db: Executor, q: PageQuery) {
  const like = q.q ? `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : '';
  const search = q.q ? sql`where option_name ilike ${like} or replace(option_name, '_', ' ') ilike ${like}` : sql``;
  const dir = q.order === 'desc' ? sql`desc` : sql`asc`;
  const [rows, count] = await Promise.all([
    sql<OptionRow>`select * from options ${search} order by ${sql.ref(q.sort ?? 'option_name')} ${dir}, id ${dir}
        limit ${q.per_page} offset ${(q.page - 1) * q.per_page}`.execute(db),
    sql<{ total: number }>`select count(*)::int as total from options ${search}`.execute(db),
  ]);
  return { items: rows.rows, total: count.rows[0].total };
}

/** One setting; locked for update when asked (inside a transaction). */
export function findOptionById(db: Executor, id: number, opts: { forUpdate?: boolean } = {}) {
  const query = db.selectFrom('options').selectAll().where('id', '=', id);
  return (opts.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

/** The settings of these names, by name; locked for update when asked (inside a transaction). */
export function findOptionsByName(db: Executor, names: string[], opts: { forUpdate?: boolean } = {}) {
  const query = db.selectFrom('options').selectAll().where('option_name', 'in', names).orderBy('option_name');
  return opts.forUpdate ? query.forUpdate().execute() : query.execute();
}

export const setOptionValue = (db: Executor, id: number, value: string) =>
  db
    .updateTable('options')
    .set({ option_value: value, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

/** Creates an editor setting with an empty value, or reads the one a concurrent writer just created. */
export async function ensureEditorOption(trx: Executor, name: string) {
  return (
    (await trx
      .insertInto('options')
      .values({ option_name: name, option_value: '', field_type: 'editor' })
      .onConflict((oc) => oc.column('option_name').doNothing())
      .returningAll()
      .executeTakeFirst()) ?? (await trx.selectFrom('options').selectAll().where('option_name', '=', name).executeTakeFirstOrThrow())
  );
}
