import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { inputSchema, type FieldSpecs } from '../../src/domain/fields';
import { type DataScope, isUnrestricted } from '../../src/domain/permissions';
import type { Executor } from '../db/database';
import { AppError, ForbiddenError, NotFoundError } from '../errors';
import { dataReply, ListsReply, pageReply, recordErrors } from './replies';

/** How a row relates to agents and clients: predicates given the ids a request may see. */
export interface ScopeRule {
  agent?: (ids: number[]) => RawBuilder<boolean>;
  client?: (ids: number[]) => RawBuilder<boolean>;
}

/**
 * A plain CRUD resource, described. `registerResource` turns it into
 * GET list, GET {id}, POST, PUT {id}, DELETE {id} and GET lists, with validation,
 * permission, data scope and OpenAPI.
 */
export interface ResourceDescription<F extends FieldSpecs = FieldSpecs> {
  /** URL segment under the service, e.g. 'locations'. */
  path: string;
  /** Model name in 404 texts: 'No query results for model [Location] 7'. */
  model: string;
  table: string;
  permission: string;
  fields: F;
  /** The record as it leaves the server: anything not named here is never sent. */
  record: z.ZodObject;
  searchable: string[];
  sortable: string[];
  defaultSort: { field: string; order: 'asc' | 'desc' };
  scope: ScopeRule | 'global';
  /** A column naming the owning agent: a restricted user's new row defaults to their first agent. */
  ownerAgentColumn?: string;
  lists: { text: string };
}

const TRUE = sql<boolean>`true`;
const FALSE = sql<boolean>`false`;

/** The SQL predicate keeping a query inside the request's data scope. */
export function scopePredicate(scope: DataScope, rule: ScopeRule | 'global'): RawBuilder<boolean> {
  if (rule === 'global' || isUnrestricted(scope)) return TRUE;
  const parts: RawBuilder<boolean>[] = [];
  if (scope.agents !== null) parts.push(scope.agents.length && rule.agent ? rule.agent(scope.agents) : FALSE);
  if (scope.clients !== null) parts.push(scope.clients.length && rule.client ? rule.client(scope.clients) : FALSE);
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** `ids` as a SQL array parameter for `= any(...)`. */
export const idArray = (ids: number[]) => sql`${ids}::bigint[]`;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function resourceRepository(d: ResourceDescription) {
  const t = sql.table(d.table);
  const visible = (scope: DataScope) => scopePredicate(scope, d.scope);
  return {
    async page(db: Executor, scope: DataScope, q: { page: number; per_page: number; q?: string; sort?: string; order?: 'asc' | 'desc' }) {
      const search = q.q
        ? sql`and (${sql.join(d.searchable.map((c) => sql`${sql.ref(c)}::text ilike ${`%${escapeLike(q.q!)}%`}`), sql` or `)})`
        : sql``;
      const where = sql`where ${visible(scope)} ${search}`;
      const sortField = q.sort && d.sortable.includes(q.sort) ? q.sort : d.defaultSort.field;
      const order = (q.order ?? d.defaultSort.order) === 'desc' ? sql`desc` : sql`asc`;
      const [rows, count] = await Promise.all([
        sql<Record<string, unknown>>`select * from ${t} ${where} order by ${sql.ref(sortField)} ${order}, id ${order}
          limit ${q.per_page} offset ${(q.page - 1) * q.per_page}`.execute(db),
        sql<{ total: number }>`select count(*)::int as total from ${t} ${where}`.execute(db),
      ]);
      return { items: rows.rows, total: count.rows[0].total };
    },
    async find(db: Executor, scope: DataScope, id: number) {
      const r = await sql<Record<string, unknown>>`select * from ${t} where id = ${id} and ${visible(scope)}`.execute(db);
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
    async remove(db: Executor, id: number) {
      await sql`delete from ${t} where id = ${id}`.execute(db);
    },
    async lists(db: Executor, scope: DataScope) {
      const r = await sql<{ text: string; value: number }>`select ${sql.ref(d.lists.text)}::text as text, id as value from ${t}
        where ${visible(scope)} order by 1`.execute(db);
      return r.rows;
    },
    visible,
  };
}

export const ListQuery = (sortable: string[]) =>
  z.object({
    page: z.coerce.number().int().min(1).max(10_000_000).default(1),
    per_page: z.coerce.number().int().min(1).max(100).default(10),
    q: z.string().trim().max(200).optional().transform((v) => v || undefined),
    sort: z.enum(sortable as [string, ...string[]]).optional(),
    order: z.string().toLowerCase().pipe(z.enum(['asc', 'desc'])).optional(),
  });

// Any id text is accepted here so that a malformed one gets the model's 404 text, not a 422.
const IdParams = z.object({ id: z.string() });
/** Ids are positive integers; anything else cannot name a row, so it is reported as not found. */
const parseId = (model: string, raw: string) => {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError(model, raw);
  return Number(raw);
};

/** Foreign-key and uniqueness failures become the caller's 409/422, not a 500. */
function translateDbError(e: unknown, d: ResourceDescription): never {
  const code = (e as { code?: string }).code;
  if (code === '23503') throw new AppError(409, `${d.model} is in use or refers to a missing record.`);
  if (code === '23505') throw new AppError(422, { [(e as { constraint?: string }).constraint?.split('_')[1] ?? 'id']: `${d.model} already exists.` });
  throw e;
}

export function registerResource(app: FastifyInstance, d: ResourceDescription) {
  const repo = resourceRepository(d);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { permission: d.permission };
  const body = inputSchema(d.fields);
  const tags = [d.model];

  /** A restricted user's new row belongs to one of their agents. */
  const withOwner = (req: FastifyRequest, values: Record<string, unknown>) => {
    const col = d.ownerAgentColumn;
    if (!col || req.scope.agents === null || values[col] != null) return values;
    return { ...values, [col]: req.scope.agents[0] ?? null };
  };
  /** Writes happen in a transaction that is undone if the row would leave the writer's scope. */
  const writeInScope = async (req: FastifyRequest, write: (trx: Executor) => Promise<Record<string, unknown>>) => {
    try {
      return await app.db.transaction().execute(async (trx) => {
        const row = await write(trx);
        if (!(await repo.find(trx, req.scope, row.id as number))) throw new ForbiddenError();
        return row;
      });
    } catch (e) {
      if (e instanceof AppError) throw e;
      translateDbError(e, d);
    }
  };

  r.get(`/${d.path}`, {
    config: { access },
    schema: { tags, summary: `Page of ${d.model} records`, querystring: ListQuery(d.sortable), response: { 200: pageReply(d.record), ...recordErrors } },
  }, async (req) => repo.page(app.db, req.scope, req.query));

  r.get(`/${d.path}/lists`, {
    config: { access: 'signed-in' },
    schema: { tags, summary: `${d.model} choices for selects`, response: { 200: ListsReply, ...recordErrors } },
  }, async (req) => repo.lists(app.db, req.scope));

  r.get(`/${d.path}/:id`, {
    config: { access },
    schema: { tags, summary: `One ${d.model}`, params: IdParams, response: { 200: dataReply(d.record), ...recordErrors } },
  }, async (req) => {
    const id = parseId(d.model, req.params.id);
    const row = await repo.find(app.db, req.scope, id);
    if (!row) throw new NotFoundError(d.model, id);
    return { data: row };
  });

  r.post(`/${d.path}`, {
    config: { access },
    schema: { tags, summary: `Create a ${d.model}`, body, response: { 201: dataReply(d.record), ...recordErrors, 409: recordErrors[422] } },
  }, async (req, reply) => {
    const row = await writeInScope(req, (trx) => repo.insert(trx, withOwner(req, req.body as Record<string, unknown>)));
    return reply.status(201).send({ data: row });
  });

  r.put(`/${d.path}/:id`, {
    config: { access },
    schema: { tags, summary: `Update a ${d.model}`, params: IdParams, body, response: { 200: dataReply(d.record), ...recordErrors, 409: recordErrors[422] } },
  }, async (req) => {
    const id = parseId(d.model, req.params.id);
    if (!(await repo.find(app.db, req.scope, id))) throw new NotFoundError(d.model, id);
    // No owner default here: an update without the owner column keeps the row's owner.
    const row = await writeInScope(req, (trx) => repo.update(trx, id, req.body as Record<string, unknown>));
    return { data: row };
  });

  r.delete(`/${d.path}/:id`, {
    config: { access },
    schema: { tags, summary: `Delete a ${d.model}`, params: IdParams, response: { 200: dataReply(d.record), ...recordErrors, 409: recordErrors[422] } },
  }, async (req) => {
    const id = parseId(d.model, req.params.id);
    const row = await repo.find(app.db, req.scope, id);
    if (!row) throw new NotFoundError(d.model, id);
    try {
      await repo.remove(app.db, id);
    } catch (e) {
      translateDbError(e, d);
    }
    return { data: row };
  });
}
