import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { DataScope } from '../../src/domain/permissions';
import type { Executor } from '../db/database';
import { idArray, type PageQuery, type ResourceDescription, scopePredicate } from './resource-description';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Whether the record carries the field as text (a column or a joined name), so its order ignores case. */
function isTextField(d: ResourceDescription, field: string) {
  let type = (d.record.shape as Record<string, z.ZodType | undefined>)[field];
  while (type instanceof z.ZodNullable || type instanceof z.ZodOptional) type = type.unwrap() as z.ZodType;
  return type instanceof z.ZodString;
}

/** Every SQL statement of a described resource, each taking a connection or a transaction. */
export function resourceRepository(d: ResourceDescription) {
  const t = sql.table(d.table);
  const source = d.from ?? t;
  const visible = (scope: DataScope, extra?: RawBuilder<boolean> | null) =>
    extra ? sql<boolean>`(${scopePredicate(scope, d.scope)} and ${extra})` : scopePredicate(scope, d.scope);
  const listValue = sql.ref(d.lists.value ?? 'id');
  /** A page's rows `p` beside its total `c.page_total` (scope, search, filters, order, limit), and its order. */
  const pageParts = (scope: DataScope, q: PageQuery, extra?: RawBuilder<boolean> | null) => {
    const search = q.q
      ? sql`and (${sql.join(
          d.searchable.map((c) => sql`${sql.ref(c)}::text ilike ${`%${escapeLike(q.q!)}%`}`),
          sql` or `,
        )})`
      : sql``;
    const filtered = (d.filters ?? []).filter((c) => q.filters?.[c] !== undefined).map((c) => sql` and ${sql.ref(c)} = ${q.filters![c]}`);
    const where = sql`where ${visible(scope, extra)} ${search}${sql.join(filtered, sql``)}`;
    const sortField = q.sort && d.sortable.includes(q.sort) ? q.sort : d.defaultSort.field;
    const order = (q.order ?? d.defaultSort.order) === 'desc' ? sql`desc` : sql`asc`;
    // Text as people read it, not by code point: 'aardvark' before 'Windscreen', 'i30' before 'ZS' (ties in case
    // then by the text itself, and by id).
    const text = isTextField(d, sortField);
    const orderBy = (alias: string) => {
      const column = sql.ref(`${alias}${sortField}`);
      return text
        ? sql`lower(${column}) ${order}, ${column} ${order}, ${sql.ref(`${alias}id`)} ${order}`
        : sql`${column} ${order}, ${sql.ref(`${alias}id`)} ${order}`;
    };
    // One round trip: the count, and the page joined to it (a page past the end is one row of nulls with the total).
    const from = sql`from (select count(*)::int as page_total from ${source} ${where}) c
        left join lateral (select * from ${source} ${where} order by ${orderBy('')}
          limit ${q.per_page} offset ${(q.page - 1) * q.per_page}) p on true`;
    return { from, sortField, order, orderBy };
  };
  return {
    pageParts,
    async page(db: Executor, scope: DataScope, q: PageQuery, extra?: RawBuilder<boolean> | null) {
      const { from, orderBy } = pageParts(scope, q, extra);
      const r = await sql<Record<string, unknown> & { page_total: number }>`select p.*, c.page_total ${from}
        order by ${orderBy('p.')}`.execute(db);
      const total = r.rows[0].page_total;
      if (r.rows[0].id === null) return { items: [], total };
      // page_total stays on the rows: the reply's serialiser writes only the record's fields (\`delete\` would turn
      // every row into a slow dictionary object).
      return { items: r.rows as Record<string, unknown>[], total };
    },
    async find(db: Executor, scope: DataScope, id: number, extra?: RawBuilder<boolean> | null) {
      const r = await sql<Record<string, unknown>>`select * from ${source} where id = ${id} and ${visible(scope, extra)}`.execute(db);
      return r.rows[0] ?? null;
    },
    async insert(db: Executor, values: Record<string, unknown>) {
      const cols = Object.keys(values);
      const r = await sql<Record<string, unknown>>`insert into ${t} (${sql.join(cols.map((c) => sql.ref(c)))})
        values (${sql.join(cols.map((c) => values[c]))}) returning *`.execute(db);
      return r.rows[0];
    },
    async update(db: Executor, id: number, values: Record<string, unknown>) {
      const sets = Object.entries(values).map(([c, v]) => sql`${sql.ref(c)} = ${v}`);
      const r = await sql<Record<string, unknown>>`update ${t} set ${sql.join([...sets, sql`updated_at = now()`])}
        where id = ${id} returning *`.execute(db);
      return r.rows[0];
    },
    /** Whether a row was deleted: a DELETE that waited for another one to commit finds nothing left. */
    async remove(db: Executor, id: number) {
      return Number((await sql`delete from ${t} where id = ${id}`.execute(db)).numAffectedRows ?? 0) > 0;
    },
    async lists(db: Executor, scope: DataScope, extra?: RawBuilder<boolean> | null, filters: Record<string, string | undefined> = {}) {
      const columns = (d.lists.extra ?? []).map((c) => sql`, ${sql.ref(c)}`);
      const narrowBy = Object.entries(filters)
        .filter(([c, v]) => v !== undefined && d.lists.filters?.includes(c))
        .map(([c, v]) => sql` and ${sql.ref(c)}::text = ${v}`);
      const r = await sql<{
        text: string;
        value: number | string;
      }>`select ${sql.ref(d.lists.text)}::text as text, ${listValue} as value ${sql.join(columns, sql``)}
        from ${source} where ${visible(scope, extra)} ${sql.join(narrowBy, sql``)} order by 1`.execute(db);
      return r.rows;
    },
    /** How many of `ids` name rows the scope (and narrowing) reaches: what a reference check compares. */
    async countVisible(db: Executor, scope: DataScope, ids: number[], extra?: RawBuilder<boolean> | null) {
      const found = await sql<{ n: number }>`select count(*)::int as n from ${source}
        where id = any(${idArray(ids)}) and ${visible(scope, extra)}`.execute(db);
      return found.rows[0].n;
    },
    visible,
  };
}
