import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { hash } from '@node-rs/argon2';
import { inputSchema, type FieldSpecs, type FormMode } from '../../src/domain/fields';
import { type DataScope, isUnrestricted } from '../../src/domain/permissions';
import type { Executor } from '../db/database';
import { AppError, ForbiddenError, NotFoundError } from '../errors';
import { sanitizeRichText } from './rich-text';
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
  /**
   * What reads select from, when the record needs more than the table (joined names, relation lists):
   * a subquery aliased as the table name, e.g. sql`(select d.*, l.name as location_name from devices d join ...) as devices`.
   */
  from?: RawBuilder<unknown>;
  /** Extra rules across fields (e.g. agents required when the Agent role is chosen). */
  refine?: (body: Record<string, unknown>, mode: FormMode) => Record<string, string> | null;
  hooks?: ResourceHooks;
}

export interface WriteContext {
  req: FastifyRequest;
  trx: Executor;
  mode: FormMode;
  /** The row being updated (update only). */
  current?: Record<string, unknown>;
}
export interface ResourceHooks {
  /** Adjusts the columns about to be written, or refuses with a typed error. */
  beforeWrite?(columns: Record<string, unknown>, input: Record<string, unknown>, ctx: WriteContext): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Writes relations (virtual fields) once the row exists, in the same transaction. */
  afterWrite?(id: number, input: Record<string, unknown>, ctx: WriteContext): Promise<void>;
  /** Refuses a delete (typed error), e.g. deleting oneself. */
  beforeDelete?(row: Record<string, unknown>, ctx: { req: FastifyRequest }): Promise<void> | void;
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
  const source = d.from ?? t;
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
        sql<Record<string, unknown>>`select * from ${source} ${where} order by ${sql.ref(sortField)} ${order}, id ${order}
          limit ${q.per_page} offset ${(q.page - 1) * q.per_page}`.execute(db),
        sql<{ total: number }>`select count(*)::int as total from ${source} ${where}`.execute(db),
      ]);
      return { items: rows.rows, total: count.rows[0].total };
    },
    async find(db: Executor, scope: DataScope, id: number) {
      const r = await sql<Record<string, unknown>>`select * from ${source} where id = ${id} and ${visible(scope)}`.execute(db);
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
      const r = await sql<{ text: string; value: number }>`select ${sql.ref(d.lists.text)}::text as text, id as value from ${source}
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

/**
 * The table columns a validated body writes: virtual fields are left to hooks, secrets are hashed
 * into `<name>_hash` (omitted when blank, so an edit keeps the old one), rich text is sanitised.
 */
export async function columnsOf(fields: FieldSpecs, input: Record<string, unknown>) {
  const columns: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(fields)) {
    if (spec.virtual || spec.readOnly || !(name in input)) continue;
    const value = input[name];
    if (spec.type === 'secret') {
      if (typeof value === 'string' && value) columns[`${name}_hash`] = await hash(value);
    } else if (spec.type === 'richtext') {
      columns[name] = typeof value === 'string' ? sanitizeRichText(value) : value;
    } else {
      columns[name] = value === undefined ? null : value;
    }
  }
  return columns;
}

export function registerResource(app: FastifyInstance, d: ResourceDescription) {
  const repo = resourceRepository(d);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { permission: d.permission };
  const withRefine = (mode: FormMode) => {
    const base = inputSchema(d.fields, mode);
    const refine = d.refine;
    if (!refine) return base;
    return base.superRefine((value, ctx) => {
      const errors = refine(value as Record<string, unknown>, mode);
      for (const [path, message] of Object.entries(errors ?? {})) ctx.addIssue({ code: 'custom', path: [path], message });
    });
  };
  const createBody = withRefine('create');
  const updateBody = withRefine('update');
  const tags = [d.model];
  const prepare = async (req: FastifyRequest, trx: Executor, input: Record<string, unknown>, mode: FormMode, current?: Record<string, unknown>) => {
    const ctx: WriteContext = { req, trx, mode, current };
    let columns = await columnsOf(d.fields, input);
    if (d.hooks?.beforeWrite) columns = await d.hooks.beforeWrite(columns, input, ctx);
    return { columns, ctx };
  };

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
        const written = await write(trx);
        // Read back through the resource's source, so the reply has the same shape as GET.
        const row = await repo.find(trx, req.scope, written.id as number);
        if (!row) throw new ForbiddenError();
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
    schema: { tags, summary: `Create a ${d.model}`, body: createBody, response: { 201: dataReply(d.record), ...recordErrors, 409: recordErrors[422] } },
  }, async (req, reply) => {
    const input = req.body as Record<string, unknown>;
    const row = await writeInScope(req, async (trx) => {
      const { columns, ctx } = await prepare(req, trx, input, 'create');
      const inserted = await repo.insert(trx, withOwner(req, columns));
      await d.hooks?.afterWrite?.(inserted.id as number, input, ctx);
      return inserted;
    });
    return reply.status(201).send({ data: row });
  });

  r.put(`/${d.path}/:id`, {
    config: { access },
    schema: { tags, summary: `Update a ${d.model}`, params: IdParams, body: updateBody, response: { 200: dataReply(d.record), ...recordErrors, 409: recordErrors[422] } },
  }, async (req) => {
    const id = parseId(d.model, req.params.id);
    const current = await repo.find(app.db, req.scope, id);
    if (!current) throw new NotFoundError(d.model, id);
    const input = req.body as Record<string, unknown>;
    // No owner default here: an update without the owner column keeps the row's owner.
    const row = await writeInScope(req, async (trx) => {
      const { columns, ctx } = await prepare(req, trx, input, 'update', current);
      const updated = await repo.update(trx, id, columns);
      await d.hooks?.afterWrite?.(id, input, ctx);
      return updated;
    });
    return { data: row };
  });

  r.delete(`/${d.path}/:id`, {
    config: { access },
    schema: { tags, summary: `Delete a ${d.model}`, params: IdParams, response: { 200: dataReply(d.record), ...recordErrors, 409: recordErrors[422] } },
  }, async (req) => {
    const id = parseId(d.model, req.params.id);
    const row = await repo.find(app.db, req.scope, id);
    if (!row) throw new NotFoundError(d.model, id);
    await d.hooks?.beforeDelete?.(row, { req });
    try {
      await repo.remove(app.db, id);
    } catch (e) {
      translateDbError(e, d);
    }
    return { data: row };
  });
}
