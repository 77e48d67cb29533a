import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type FieldSpec, pageParams } from '../../src/domain/fields';
import { fromDecimalText, safeString } from '../../src/domain/text';
import { NotFoundError, ValidationError } from '../errors';
import { callerOf } from './caller';
import { multipartBody } from './multipart';
import { jsonPages } from './page-json';
import { dataReply, ListsReply, metaPageReply, pageReply, recordErrors } from './replies';
import {
  describedAs,
  type PageQuery,
  recordDescription,
  referenceFields,
  type ResourceDescription,
  writeBody,
} from './resource-description';
import { resourceRepository } from './resource-repository';
import { imageFields, resourceService } from './resource-service';
import { storageOf } from './storage';

export const ListQuery = (sortable: string[], filters: string[] = []) =>
  z.object({
    ...pageParams,
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
        z.preprocess(
          (v) => (v === '' ? undefined : v),
          fromDecimalText(z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional()),
        ),
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

/**
 * An update's If-Match: the record's `updated_at` as the writer read it, in double quotes (`"2026-11-30T02:40:01.123Z"`),
 * optionally weak (`W/"…"`). Absent: the last save wins. Anything else is a 422 naming the header.
 */
export function savedAtOf(header: string | string[] | undefined): Date | undefined {
  if (header === undefined) return undefined;
  const tag = /^(?:W\/)?"([^"]{1,40})"$/.exec(Array.isArray(header) ? header.join(',') : header.trim())?.[1];
  const at = tag && /^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})$/.test(tag) ? new Date(tag) : null;
  if (!at || Number.isNaN(at.getTime()))
    throw new ValidationError({ 'if-match': "If-Match must be the record's updated_at in double quotes" });
  return at;
}

/**
 * The routes of a described resource: GET list, GET {id}, POST, PUT {id}, DELETE {id} and GET lists, with validation,
 * permission and OpenAPI. Each parses the request, builds the caller and makes one call to the resource service.
 */
export function registerResource(app: FastifyInstance, d: ResourceDescription) {
  recordDescription(d);
  // Every reference must name a registered resource, or its writes could not be checked: refuse to start.
  app.addHook('onReady', (done) => {
    for (const name of referenceFields(d.fields)) {
      const { reference } = d.fields[name] as Extract<FieldSpec, { reference: string }>;
      if (!d.referencesCheckedByHooks?.includes(name) && !describedAs(reference))
        return done(new Error(`${d.model}.${name} references '${reference}', which no resource describes`));
    }
    done();
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { permission: typeof d.permission === 'string' ? d.permission : d.permission.list };
  const recordAccess = { permission: typeof d.permission === 'string' ? d.permission : d.permission.write };
  const writeAccess = { ...recordAccess, ...(d.unrestrictedWrites ? { unrestricted: true as const } : {}) };
  const images = imageFields(d);
  if (images.length && !app.hasContentTypeParser('multipart/form-data')) {
    throw new Error(`${d.model} has image fields: register multipartPlugin (server/lib/multipart.ts) in its service first`);
  }
  const preValidation = images.length ? multipartBody(Object.fromEntries(images.map(([name, spec]) => [spec.upload, name]))) : undefined;
  const service = resourceService(d, {
    db: app.db,
    storage: storageOf(app),
    pages: d.pageJson ? jsonPages(app, d, resourceRepository(d)) : null,
  });
  const createBody = writeBody(d, 'create');
  const updateBody = writeBody(d, 'update');
  const tags = [d.model];
  const pageSchema = d.pageShape === 'meta' ? metaPageReply(d.record) : pageReply(d.record);
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
      const page = await service.page(callerOf(req), pageQuery(d.filters, req.query));
      if (typeof page !== 'string') return page;
      // Already JSON: a string with a JSON content type leaves as it is (the schema's serialiser is for objects).
      return reply.type('application/json; charset=utf-8').send(page as never);
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
    async (req) => service.lists(callerOf(req), req.query as Record<string, string | undefined>),
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
      async (req) => service.lists(callerOf(req), (req.body ?? {}) as Record<string, string | undefined>),
    );
  }

  r.get(
    `/${d.path}/:id`,
    {
      config: { access: recordAccess },
      schema: { tags, summary: `One ${d.model}`, params: IdParams, response: { 200: dataReply(d.record), ...recordErrors } },
    },
    async (req) => ({ data: await service.find(callerOf(req), parseId(d.model, req.params.id)) }),
  );

  r.post(
    `/${d.path}`,
    {
      config: { access: writeAccess },
      preValidation,
      schema: {
        tags,
        summary: `Create a ${d.model}`,
        body: createBody,
        response: { 201: dataReply(d.record), ...recordErrors, 409: recordErrors[422] },
      },
    },
    async (req, reply) => reply.status(201).send({ data: await service.create(callerOf(req), req.body) }),
  );

  const update = async (req: FastifyRequest<{ Params: { id: string } }>) => ({
    data: await service.update(
      callerOf(req),
      parseId(d.model, req.params.id),
      req.body as Record<string, unknown>,
      savedAtOf(req.headers['if-match']),
    ),
  });
  const updateSchema = {
    tags,
    params: IdParams,
    body: updateBody,
    response: { 200: dataReply(d.record), ...recordErrors, 409: recordErrors[422] },
  };
  r.put(
    `/${d.path}/:id`,
    { config: { access: writeAccess }, preValidation, schema: { ...updateSchema, summary: `Update a ${d.model}` } },
    update,
  );
  if (preValidation) {
    // updates with files are `POST <path>/{id}?_method=PUT` multipart (a form cannot PUT); JSON works too.
    r.post(
      `/${d.path}/:id`,
      {
        config: { access: writeAccess },
        preValidation,
        schema: {
          ...updateSchema,
          summary: `Update a ${d.model} (form post with _method=PUT)`,
          querystring: z.object({
            _method: z
              .string({ error: '_method must be PUT' })
              .toUpperCase()
              .pipe(z.literal('PUT', { error: '_method must be PUT' })),
          }),
        },
      },
      update,
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
    async (req) => ({ data: await service.remove(callerOf(req), parseId(d.model, req.params.id)) }),
  );
}
