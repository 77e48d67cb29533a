import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { hash } from '@node-rs/argon2';
import { inputSchema, messages, type FieldSpec, type FieldSpecs, type FormMode } from '../../src/domain/fields';
import { type DataScope, dataScope, ignoresSelection, isUnrestricted, type PermissionName } from '../../src/domain/permissions';
import { safeString } from '../../src/domain/text';
import type { Executor } from '../db/database';
import { AppError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { checkImage } from './images';
import { multipartBody } from './multipart';
import { sanitizeRichText } from './rich-text';
import { jsonPages } from './page-json';
import { dataReply, ListsReply, metaPageReply, pageReply, recordErrors } from './replies';
import { fileUrl, keyOfUrl, storageOf } from './storage';

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
  /** URL segment under the service, e.g. 'locations' (with permission and sortable: `...resourceFacts(name)` from src/domain/resources.ts). */
  path: string;
  /** Model name in 404 texts: 'No query results for model [Location] 7'. */
  model: string;
  table: string;
  /** One permission for every route, or one for reads (page, one record) and one for writes (panels list `part`, edit `panel`). */
  permission: PermissionName | { read: PermissionName; write: PermissionName };
  fields: F;
  /**
   * Body members the field DSL cannot say (nested objects such as a price matrix), validated by these
   * zod schemas; like virtual fields they are not columns and are left to the hooks.
   */
  extraInput?: Record<string, z.ZodType>;
  /** The record as it leaves the server: anything not named here is never sent. */
  record: z.ZodObject;
  searchable: string[];
  sortable: string[];
  defaultSort: { field: string; order: 'asc' | 'desc' };
  scope: ScopeRule | 'global';
  /**
   * The records apply to every agent and client (roles, permissions, e-mail templates): anyone with the permission
   * reads them, only an unrestricted scope (Super Admin) creates, changes or deletes them.
   */
  unrestrictedWrites?: true;
  /** A column naming the owning agent: a restricted user's new row defaults to their first agent. */
  ownerAgentColumn?: string;
  /**
   * `<path>/lists` items: `text` column, and `value` column (default `id`; e.g. `name` when forms send names).
   * `post` also answers `POST <path>/lists` (products, panels); `filters` are columns a caller may
   * narrow by (query or body, compared as text); `extra` columns ride along (a product's price).
   */
  lists: { text: string; value?: string; post?: boolean; filters?: string[]; extra?: string[]; access?: 'signed-in' | 'read' };
  /** Id columns the page may be narrowed by, e.g. ['agent_id'] for `GET webhooks?agent_id=3`. */
  filters?: string[];
  /** The page reply: `{items, total}` (default) or `{items, meta: {total, last_page}}` (email templates). */
  pageShape?: 'total' | 'meta';
  /**
   * A further predicate on every read for this request, beyond the data scope (e.g. the Super Admin
   * role hidden from other users); null for none. Writes whose row it would hide are undone with 403.
   */
  where?: (req: ReadingUser) => RawBuilder<boolean> | null;
  /**
   * What reads select from, when the record needs more than the table (joined names, relation lists):
   * a subquery aliased as the table name, e.g. sql`(select d.*, l.name as location_name from devices d join ...) as devices`.
   */
  from?: RawBuilder<unknown>;
  /**
   * Opt-in (a definition's `pageCache`): list pages are written as JSON by PostgreSQL when the record is flat, and
   * kept by the page cache (server/plugins/page-cache.ts), which clears on any change to `table` or `reads`.
   */
  pageJson?: true;
  /** Tables a cached page reads beyond `table` (those `from` joins): each gets the page cache's trigger. */
  reads?: string[];
  /** Extra rules across fields (e.g. agents required when the Agent role is chosen). */
  refine?: (body: Record<string, unknown>, mode: FormMode) => Record<string, string> | null;
  /**
   * Reference fields whose ids the hooks check with rules of their own instead of the generic scope check
   * (a user's agents and clients: a writer may keep ids they cannot see). Every other reference is checked.
   */
  referencesCheckedByHooks?: string[];
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
  beforeWrite?(
    columns: Record<string, unknown>,
    input: Record<string, unknown>,
    ctx: WriteContext,
  ): Promise<Record<string, unknown>> | Record<string, unknown>;
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
    // One round trip: the count, and the page joined to it (a page past the end is one row of nulls with the total).
    const from = sql`from (select count(*)::int as page_total from ${source} ${where}) c
        left join lateral (select * from ${source} ${where} order by ${sql.ref(sortField)} ${order}, id ${order}
          limit ${q.per_page} offset ${(q.page - 1) * q.per_page}) p on true`;
    return { from, sortField, order };
  };
  return {
    pageParts,
    async page(db: Executor, scope: DataScope, q: PageQuery, extra?: RawBuilder<boolean> | null) {
      const { from, sortField, order } = pageParts(scope, q, extra);
      const r = await sql<Record<string, unknown> & { page_total: number }>`select p.*, c.page_total ${from}
        order by ${sql.ref(`p.${sortField}`)} ${order}, p.id ${order}`.execute(db);
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
    async remove(db: Executor, id: number) {
      await sql`delete from ${t} where id = ${id}`.execute(db);
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
    visible,
  };
}

export interface PageQuery {
  page: number;
  per_page: number;
  q?: string;
  sort?: string;
  order?: 'asc' | 'desc';
  /** Exact id filters, among the description's `filters`. */
  filters?: Record<string, number | undefined>;
}

export const ListQuery = (sortable: string[], filters: string[] = []) =>
  z.object({
    page: z.coerce.number().int().min(1).max(10_000_000).default(1),
    per_page: z.coerce.number().int().min(1).max(100).default(10),
    q: safeString('Search')
      .trim()
      .max(200)
      .optional()
      .transform((v) => v || undefined),
    sort: z.enum(sortable as [string, ...string[]]).optional(),
    order: z
      .string()
      .toLowerCase()
      .pipe(z.enum(['asc', 'desc']))
      .optional(),
    ...Object.fromEntries(
      filters.map((c) => [
        c,
        z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional()),
      ]),
    ),
  });
/** The page query with the description's filters gathered under `filters`. */
const pageQuery = (filters: string[] = [], query: PageQuery & Record<string, unknown>): PageQuery => ({
  ...query,
  filters: Object.fromEntries(filters.map((c) => [c, typeof query[c] === 'number' ? query[c] : undefined])),
});

// Any id text is accepted here so that a malformed one gets the model's 404 text, not a 422.
const IdParams = z.object({ id: z.string() });
/** Ids are positive integers; anything else cannot name a row, so it is reported as not found. */
const parseId = (model: string, raw: string) => {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError(model, raw);
  return Number(raw);
};

/** Every registered description by lower-cased path: what a field's `reference` ('clients', 'panelgroups') names. */
const described = new Map<string, ResourceDescription>();
const describedAs = (reference: string) => described.get(reference.toLowerCase());
/** The registered descriptions (the access matrix test checks their reference fields). */
export const describedResources = () => [...described.values()];
/** The registered description answering at `path` (e.g. 'locations'). */
export const describedAt = (path: string) => {
  const found = describedAs(path);
  if (!found) throw new Error(`No described resource at ${path}`);
  return found;
};
/** A description's fields naming rows by id: the ones every write checks against the writer's scope. */
export const referenceFields = (fields: FieldSpecs) =>
  Object.entries(fields)
    .filter(([, spec]) => spec.type === 'reference' || (spec.type === 'references' && spec.by !== 'name'))
    .map(([name]) => name);

/** The scope a read of `d` runs in: calls whose path names agents or clients ignore the X_SNG_* selection. */
export const readScopeOf = (d: Pick<ResourceDescription, 'path'>, req: ReadingUser) =>
  ignoresSelection(d.path) ? dataScope(req.user!) : req.scope;

/** Whose reading rights a check applies: a request, or a service's caller ({user, scope}). */
export type ReadingUser = Pick<FastifyRequest, 'user' | 'scope'>;

const referenceIds = (value: unknown): number[] =>
  (Array.isArray(value) ? value : [value]).filter((v): v is number => typeof v === 'number' && Number.isSafeInteger(v));

/**
 * Every id a write names must be a row the writer may read, by the referenced resource's own scope
 * rule and narrowing (an Agent user: their agents, the clients their agents serve, their agents' sites…; a Client
 * user: their clients, the agents serving them…; global resources: any existing row). Run inside the writing
 * transaction. Ids the row already holds (`current`) are kept without a check: keeping widens nothing.
 * Returns the fields' messages ('The selected client is invalid'), empty when all is well.
 */
export async function invalidReferences(
  trx: Executor,
  req: ReadingUser,
  fields: FieldSpecs,
  input: Record<string, unknown>,
  opts: { current?: Record<string, unknown>; skip?: string[] } = {},
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  for (const name of referenceFields(fields)) {
    const spec = fields[name] as Extract<FieldSpec, { reference: string }>;
    if (opts.skip?.includes(name) || input[name] == null) continue;
    const held = opts.current ? referenceIds(opts.current[name]) : [];
    const ids = [...new Set(referenceIds(input[name]))].filter((id) => !held.includes(id));
    if (!ids.length) continue;
    const target = describedAs(spec.reference);
    if (!target) throw new Error(`${name} references '${spec.reference}', which no registered resource describes`);
    const repo = resourceRepository(target);
    const found = await sql<{ n: number }>`select count(*)::int as n from ${target.from ?? sql.table(target.table)}
      where id = any(${idArray(ids)}) and ${repo.visible(readScopeOf(target, req), target.where?.(req) ?? null)}`.execute(trx);
    if (found.rows[0].n !== ids.length) errors[name] = messages.choice(spec.label);
  }
  return errors;
}

/** Throws the 422 of `invalidReferences`, if any. */
export async function checkReferences(...args: Parameters<typeof invalidReferences>) {
  const errors = await invalidReferences(...args);
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** Foreign-key and uniqueness failures become the caller's 409/422, not a 500. */
function translateDbError(e: unknown, d: ResourceDescription): never {
  const code = (e as { code?: string }).code;
  // A write naming a missing row ('Key (location_id)=(9) is not present in table ...') is the field's fault.
  const missing = code === '23503' ? /^Key \((\w+)\)=.* is not present in table/.exec((e as { detail?: string }).detail ?? '') : null;
  if (missing && d.fields[missing[1]]) throw new AppError(422, { [missing[1]]: messages.choice(d.fields[missing[1]].label) });
  // 23001: a RESTRICT foreign key (PostgreSQL reports it apart from 23503).
  if (code === '23503' || code === '23001') throw new AppError(409, `${d.model} is in use or refers to a missing record.`);
  if (code === '23505')
    throw new AppError(422, { [(e as { constraint?: string }).constraint?.split('_')[1] ?? 'id']: `${d.model} already exists.` });
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
    } else if (spec.type === 'image') {
      // The stored file's URL (set by registerResource once the upload is checked); nothing else changes the column.
      if (typeof value === 'string' && keyOfUrl(value)) columns[name] = value;
    } else if (spec.type === 'richtext') {
      columns[name] = typeof value === 'string' ? sanitizeRichText(value) : value;
    } else {
      columns[name] = value === undefined ? null : value;
    }
  }
  return columns;
}

/** The form of a page written by PostgreSQL, for the test suite's check; null when the record is not written there. */
export function registerResource(app: FastifyInstance, d: ResourceDescription) {
  const repo = resourceRepository(d);
  described.set(d.path.toLowerCase(), d);
  // Every reference must name a registered resource, or its writes could not be checked: refuse to start.
  app.addHook('onReady', (done) => {
    for (const name of referenceFields(d.fields)) {
      const { reference } = d.fields[name] as Extract<FieldSpec, { reference: string }>;
      if (!d.referencesCheckedByHooks?.includes(name) && !describedAs(reference))
        return done(new Error(`${d.model}.${name} references '${reference}', which no resource describes`));
    }
    done();
  });
  const narrow = (req: FastifyRequest) => d.where?.(req) ?? null;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { permission: typeof d.permission === 'string' ? d.permission : d.permission.read };
  const writeAccess = {
    permission: typeof d.permission === 'string' ? d.permission : d.permission.write,
    ...(d.unrestrictedWrites ? { unrestricted: true as const } : {}),
  };
  const scopeOf = (req: FastifyRequest) => readScopeOf(d, req);
  const files = fileHandling(app, d);
  const withRefine = (mode: FormMode) => {
    const base = d.extraInput ? inputSchema(d.fields, mode).extend(d.extraInput) : inputSchema(d.fields, mode);
    const refine = d.refine;
    if (!refine) return base;
    return base.superRefine((value, ctx) => {
      const errors = refine(value, mode);
      for (const [path, message] of Object.entries(errors ?? {})) ctx.addIssue({ code: 'custom', path: [path], message });
    });
  };
  const createBody = withRefine('create');
  const updateBody = withRefine('update');
  const tags = [d.model];
  const prepare = async (
    req: FastifyRequest,
    trx: Executor,
    input: Record<string, unknown>,
    mode: FormMode,
    current?: Record<string, unknown>,
  ) => {
    const ctx: WriteContext = { req, trx, mode, current };
    await checkReferences(trx, req, d.fields, input, { current, skip: d.referencesCheckedByHooks });
    let columns = await columnsOf(d.fields, input);
    if (d.hooks?.beforeWrite) columns = await d.hooks.beforeWrite(columns, input, ctx);
    return { columns, ctx };
  };

  /** A restricted user's new row belongs to one of their agents. */
  const withOwner = (req: FastifyRequest, values: Record<string, unknown>) => {
    const col = d.ownerAgentColumn;
    const scope = scopeOf(req);
    if (!col || scope.agents === null || values[col] != null) return values;
    return { ...values, [col]: scope.agents[0] ?? null };
  };
  /** Writes happen in a transaction that is undone if the row would leave the writer's scope. */
  const writeInScope = async (req: FastifyRequest, write: (trx: Executor) => Promise<Record<string, unknown>>) => {
    try {
      return await app.db.transaction().execute(async (trx) => {
        const written = await write(trx);
        // Read back through the resource's source, so the reply has the same shape as GET.
        const row = await repo.find(trx, scopeOf(req), written.id as number, narrow(req));
        if (!row) throw new ForbiddenError();
        return row;
      });
    } catch (e) {
      if (e instanceof AppError) throw e;
      translateDbError(e, d);
    }
  };

  const pageSchema = d.pageShape === 'meta' ? metaPageReply(d.record) : pageReply(d.record);
  const pageOf = async (req: FastifyRequest<{ Querystring: z.output<ReturnType<typeof ListQuery>> }>) => {
    const { items, total } = await repo.page(app.db, scopeOf(req), pageQuery(d.filters, req.query), narrow(req));
    return d.pageShape === 'meta'
      ? { items, meta: { total, last_page: Math.max(1, Math.ceil(total / req.query.per_page)) } }
      : { items, total };
  };
  const pages = d.pageJson ? jsonPages(app, d, repo) : null;
  r.get(
    `/${d.path}`,
    {
      config: { access },
      schema: {
        tags,
        summary: `Page of ${d.model} records`,
        querystring: ListQuery(d.sortable, d.filters),
        response: { 200: pageSchema, ...recordErrors },
      },
    },
    async (req, reply) => {
      const body = pages ? await pages.body(scopeOf(req), pageQuery(d.filters, req.query), narrow(req)) : null;
      if (body === null) return pageOf(req);
      // Already JSON: a string with a JSON content type leaves as it is (the schema's serialiser is for objects).
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  const listsFilters = z.object(
    Object.fromEntries((d.lists.filters ?? []).map((c) => [c, z.coerce.string().pipe(safeString(c).trim().max(200)).optional()])),
  );
  const listsReply = d.lists.extra?.length
    ? z.array(
        z.object({
          text: z.string(),
          value: z.union([z.number(), z.string()]),
          ...Object.fromEntries(d.lists.extra.map((c) => [c, z.unknown()])),
        }),
      )
    : ListsReply;
  const listsAccess = d.lists.access === 'read' ? access : 'signed-in';
  r.get(
    `/${d.path}/lists`,
    {
      config: { access: listsAccess },
      schema: {
        tags,
        summary: `${d.model} choices for selects`,
        querystring: listsFilters,
        response: { 200: listsReply, ...recordErrors },
      },
    },
    async (req) => repo.lists(app.db, scopeOf(req), narrow(req), req.query as Record<string, string | undefined>),
  );
  if (d.lists.post) {
    r.post(
      `/${d.path}/lists`,
      {
        config: { access: listsAccess },
        schema: {
          tags,
          summary: `${d.model} choices for selects (filters in the body)`,
          body: listsFilters.nullish(),
          response: { 200: listsReply, ...recordErrors },
        },
      },
      async (req) => repo.lists(app.db, scopeOf(req), narrow(req), (req.body ?? {}) as Record<string, string | undefined>),
    );
  }

  r.get(
    `/${d.path}/:id`,
    {
      config: { access },
      schema: { tags, summary: `One ${d.model}`, params: IdParams, response: { 200: dataReply(d.record), ...recordErrors } },
    },
    async (req) => {
      const id = parseId(d.model, req.params.id);
      const row = await repo.find(app.db, scopeOf(req), id, narrow(req));
      if (!row) throw new NotFoundError(d.model, id);
      return { data: row };
    },
  );

  r.post(
    `/${d.path}`,
    {
      config: { access: writeAccess },
      preValidation: files.preValidation,
      schema: {
        tags,
        summary: `Create a ${d.model}`,
        body: createBody,
        response: { 201: dataReply(d.record), ...recordErrors, 409: recordErrors[422] },
      },
    },
    async (req, reply) => {
      const { input, stored } = await files.store(req.body);
      const row = await files.undoOnError(req, stored, () =>
        writeInScope(req, async (trx) => {
          const { columns, ctx } = await prepare(req, trx, input, 'create');
          const inserted = await repo.insert(trx, withOwner(req, columns));
          await d.hooks?.afterWrite?.(inserted.id as number, input, ctx);
          return inserted;
        }),
      );
      return reply.status(201).send({ data: row });
    },
  );

  const update = async (req: FastifyRequest, rawId: string, body: Record<string, unknown>) => {
    const id = parseId(d.model, rawId);
    const current = await repo.find(app.db, scopeOf(req), id, narrow(req));
    if (!current) throw new NotFoundError(d.model, id);
    const { input, stored } = await files.store(body);
    // No owner default here: an update without the owner column keeps the row's owner.
    const row = await files.undoOnError(req, stored, () =>
      writeInScope(req, async (trx) => {
        const { columns, ctx } = await prepare(req, trx, input, 'update', current);
        const updated = await repo.update(trx, id, columns);
        await d.hooks?.afterWrite?.(id, input, ctx);
        return updated;
      }),
    );
    await files.removeReplaced(req, current, row);
    return { data: row };
  };
  r.put(
    `/${d.path}/:id`,
    {
      config: { access: writeAccess },
      preValidation: files.preValidation,
      schema: {
        tags,
        summary: `Update a ${d.model}`,
        params: IdParams,
        body: updateBody,
        response: { 200: dataReply(d.record), ...recordErrors, 409: recordErrors[422] },
      },
    },
    async (req) => update(req, req.params.id, req.body as Record<string, unknown>),
  );
  if (files.preValidation) {
    // updates with files are `POST <path>/{id}?_method=PUT` multipart (a form cannot PUT); JSON works too.
    r.post(
      `/${d.path}/:id`,
      {
        config: { access: writeAccess },
        preValidation: files.preValidation,
        schema: {
          tags,
          summary: `Update a ${d.model} (form post with _method=PUT)`,
          params: IdParams,
          querystring: z.object({
            _method: z
              .string({ error: '_method must be PUT' })
              .toUpperCase()
              .pipe(z.literal('PUT', { error: '_method must be PUT' })),
          }),
          body: updateBody,
          response: { 200: dataReply(d.record), ...recordErrors, 409: recordErrors[422] },
        },
      },
      async (req) => update(req, req.params.id, req.body as Record<string, unknown>),
    );
  }

  r.delete(
    `/${d.path}/:id`,
    {
      config: { access: writeAccess },
      schema: {
        tags,
        summary: `Delete a ${d.model}`,
        params: IdParams,
        response: { 200: dataReply(d.record), ...recordErrors, 409: recordErrors[422] },
      },
    },
    async (req) => {
      const id = parseId(d.model, req.params.id);
      const row = await repo.find(app.db, scopeOf(req), id, narrow(req));
      if (!row) throw new NotFoundError(d.model, id);
      await d.hooks?.beforeDelete?.(row, { req });
      try {
        await repo.remove(app.db, id);
      } catch (e) {
        translateDbError(e, d);
      }
      await files.removeReplaced(req, row, null);
      return { data: row };
    },
  );
}

/**
 * The description's image fields: multipart bodies read (upload part -> field), uploads checked and stored
 * before the write, removed again if the write fails, and a replaced or deleted row's files removed after.
 */
function fileHandling(app: FastifyInstance, d: ResourceDescription) {
  const images = Object.entries(d.fields).filter((e): e is [string, Extract<FieldSpec, { type: 'image' }>] => e[1].type === 'image');
  if (images.length && !app.hasContentTypeParser('multipart/form-data')) {
    throw new Error(`${d.model} has image fields: register multipartPlugin (server/lib/multipart.ts) in its service first`);
  }
  const remove = async (req: FastifyRequest, keys: string[]) => {
    for (const key of keys)
      await storageOf(app)
        .delete(key)
        .catch((err: unknown) => req.log.warn({ err, key }, 'could not remove a stored file'));
  };
  return {
    preValidation: images.length ? multipartBody(Object.fromEntries(images.map(([name, spec]) => [spec.upload, name]))) : undefined,
    async store(body: Record<string, unknown>) {
      const input = { ...body };
      const stored: string[] = [];
      for (const [name, spec] of images) {
        if (input[name] === undefined || input[name] === null) continue;
        try {
          const image = await checkImage(input[name], name, spec.label);
          const key = await storageOf(app).put(image.data, image.contentType);
          stored.push(key);
          input[name] = fileUrl(key);
        } catch (e) {
          await Promise.all(
            stored.map((k) =>
              storageOf(app)
                .delete(k)
                .catch(() => {}),
            ),
          );
          throw e;
        }
      }
      return { input, stored };
    },
    async undoOnError<T>(req: FastifyRequest, stored: string[], write: () => Promise<T>): Promise<T> {
      try {
        return await write();
      } catch (e) {
        await remove(req, stored);
        throw e;
      }
    },
    /** Files of `before` that `after` no longer names (all of them when the row is deleted). */
    async removeReplaced(req: FastifyRequest, before: Record<string, unknown>, after: Record<string, unknown> | null | undefined) {
      const gone = images
        .map(([name]) => (after && after[name] === before[name] ? null : keyOfUrl(before[name])))
        .filter((k): k is string => !!k);
      await remove(req, gone);
    },
  };
}
