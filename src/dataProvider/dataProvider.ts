import type { DataProvider, GetListParams, GetManyReferenceParams, Identifier, RaRecord } from 'react-admin';
import type { ApiRoute, ApiRoutes } from './apiRoutes';
import { ifMatch, type Request, type RequestOptions, type SelectOption } from './http';
import { PAGE_SIZE_MAX } from '../domain/paging';
import { translateFieldErrors } from './errors';
import { agentCalls } from './calls/agents';
import { authCalls } from './calls/auth';
import { dashboardCalls } from './calls/dashboard';
import { emailCalls } from './calls/email';
import { historyCalls } from './calls/history';
import { optionCalls } from './calls/options';
import { portalCalls } from './calls/portal';
import { quoteCalls } from './calls/quotes';
import { scanCalls } from './calls/scans';
import { vehicleCalls } from './calls/vehicles';

/** Every named call the screens make beyond CRUD, grouped by service in ./calls. */
const namedCalls = (request: Request) => ({
  ...authCalls(request),
  ...optionCalls(request),
  ...agentCalls(request),
  ...dashboardCalls(request),
  ...emailCalls(request),
  ...quoteCalls(request),
  ...scanCalls(request),
  ...vehicleCalls(request),
  ...historyCalls(request),
  ...portalCalls(request),
});
type NamedCalls = ReturnType<typeof namedCalls>;

/** react-admin's methods, the select lists and the named calls (./calls); all go through checkError. */
export interface AppDataProvider extends DataProvider, NamedCalls {
  /** `filters` narrow the list by the description's list filters (a site list by `agent_id`). */
  getSelectOptions(resource: string, filters?: Record<string, string>): Promise<SelectOption[]>;
}

/** What a list reply says beside its rows: the server counted "about" `total` (beyond its exact-count limit). */
export interface ListMeta {
  totalIsEstimate?: true;
}

/** `{items, total, total_is_estimate?}` or `{items, meta: {total}}` (email templates) as react-admin's `{data, total, meta}`. */
function toPage<R extends RaRecord>(reply: unknown): { data: R[]; total: number; meta?: ListMeta } {
  const r = (typeof reply === 'object' && reply !== null ? reply : {}) as {
    items?: unknown;
    total?: unknown;
    total_is_estimate?: unknown;
    meta?: { total?: unknown };
  };
  const data = Array.isArray(r.items) ? (r.items as R[]) : [];
  const total = Number(r.total ?? r.meta?.total ?? data.length);
  const page = { data, total: Number.isFinite(total) ? total : data.length };
  return r.total_is_estimate === true ? { ...page, meta: { totalIsEstimate: true } } : page;
}

/** page/per_page/sort/order from react-admin; q (trimmed) and the other filters as they are. */
function listQuery({ pagination, sort, filter = {} }: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>): RequestOptions['query'] {
  const { q, ...filters } = filter as Record<string, unknown>;
  const query: NonNullable<RequestOptions['query']> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') query[key] = value;
    else if (Array.isArray(value)) query[key] = value.map(String);
  }
  if (pagination) {
    query.page = pagination.page;
    query.per_page = pagination.perPage;
  }
  if (typeof q === 'string' && q.trim()) query.q = q.trim();
  if (sort?.field) {
    query.sort = sort.field;
    query.order = sort.order === 'DESC' ? 'desc' : 'asc';
  }
  return query;
}

const recordPath = (route: ApiRoute, id: Identifier) => `${route.path}/${encodeURIComponent(String(id))}`;

const hasFile = (data: unknown): data is Record<string, unknown> =>
  typeof data === 'object' && data !== null && Object.values(data).some((v) => typeof Blob !== 'undefined' && v instanceof Blob);

/** Multipart for a body carrying files: text parts as strings, a list as repeated parts, files as they are. */
function toFormData(data: Record<string, unknown>): FormData {
  const form = new FormData();
  const append = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (value instanceof Blob) form.append(name, value);
    else if (typeof value === 'object') form.append(name, JSON.stringify(value));
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') form.append(name, String(value));
  };
  for (const [name, value] of Object.entries(data)) {
    if (Array.isArray(value)) value.forEach((item) => append(name, item));
    else append(name, value);
  }
  return form;
}

/**
 * JSON, or for a body with files multipart; a multipart update is POST {path}/{id}?_method=PUT
 * (the services take files that way).
 */
function writeOptions(method: 'POST' | 'PUT', data: unknown): RequestOptions {
  if (!hasFile(data)) return { method, body: data };
  return { method: 'POST', body: toFormData(data), query: method === 'PUT' ? { _method: 'PUT' } : undefined };
}

/**
 * react-admin's data provider over the services' REST calls. Resources are routed only through
 * `routes`; nothing here knows a resource by name. getMany fetches each id (the contract has no
 * "ids" filter), which react-admin batches per page, so it stays a handful of calls.
 */
export function createDataProvider({ routes, request }: { routes: ApiRoutes; request: Request }): AppDataProvider {
  const route = async (resource: string): Promise<ApiRoute> => {
    const found = await routes(resource);
    if (!found) throw new Error(`No API route for resource "${resource}": define it in src/resources/${resource}/definition.ts`);
    return found;
  };
  const call = async <T>(resource: string, path: (r: ApiRoute) => string, options?: RequestOptions) => {
    const r = await route(resource);
    try {
      return await request<T>(r.service, path(r), options);
    } catch (error) {
      // A 422 under a resource form: its keyed messages name the resource's field labels.
      translateFieldErrors(error, (field) => `resources.${resource}.fields.${field}`);
      throw error;
    }
  };
  const page = async <R extends RaRecord>(resource: string, params: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>) =>
    toPage<R>(await call(resource, (r) => r.path, { query: listQuery(params) }));
  /**
   * A page longer than the routes answer (react-admin's Export asks for up to 1,000 rows at once) is read as the
   * routes' pages that cover it, the first one first for the total.
   */
  const list = async <R extends RaRecord>(resource: string, params: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>) => {
    const { pagination } = params;
    if (!pagination || pagination.perPage <= PAGE_SIZE_MAX) return page<R>(resource, params);
    const from = (pagination.page - 1) * pagination.perPage;
    const firstPage = Math.floor(from / PAGE_SIZE_MAX) + 1;
    const read = (n: number) => page<R>(resource, { ...params, pagination: { page: n, perPage: PAGE_SIZE_MAX } });
    const first = await read(firstPage);
    const lastPage = Math.min(Math.floor((from + pagination.perPage - 1) / PAGE_SIZE_MAX), Math.ceil(first.total / PAGE_SIZE_MAX) - 1) + 1;
    const rest = await Promise.all(Array.from({ length: Math.max(0, lastPage - firstPage) }, (_, i) => read(firstPage + i + 1)));
    const rows = [first, ...rest].flatMap((p) => p.data);
    return { ...first, data: rows.slice(from % PAGE_SIZE_MAX, (from % PAGE_SIZE_MAX) + pagination.perPage) };
  };
  const getOne = async <R extends RaRecord>(resource: string, id: Identifier) => ({
    data: await call<R>(resource, (r) => recordPath(r, id)),
  });
  /**
   * With the record as the form read it (`previousData`), its `updated_at` goes as If-Match: the server refuses (409)
   * an update made from a copy someone has saved since, instead of undoing their save unseen.
   */
  const update = async <R extends RaRecord>(resource: string, id: Identifier, data: unknown, previousData?: RaRecord) => {
    const savedAt: unknown = previousData?.updated_at;
    const options = writeOptions('PUT', data);
    if (typeof savedAt === 'string') options.headers = { ...options.headers, ...ifMatch(savedAt) };
    return { data: await call<R>(resource, (r) => recordPath(r, id), options) };
  };
  const remove = async <R extends RaRecord>(resource: string, id: Identifier, previousData?: R) => {
    const reply = await call<R | null>(resource, (r) => recordPath(r, id), { method: 'DELETE' });
    // Some services answer a delete without the record; react-admin still wants one.
    return { data: reply && typeof reply === 'object' && 'id' in reply ? reply : (previousData ?? ({ id } as R)) };
  };

  const provider: AppDataProvider = {
    getList: (resource, params) => list(resource, params),
    getOne: (resource, { id }) => getOne(resource, id),
    getMany: async <R extends RaRecord>(resource: string, { ids }: { ids: Identifier[] }) => ({
      data: await Promise.all(ids.map(async (id) => (await getOne<R>(resource, id)).data)),
    }),
    getManyReference: (
      resource,
      { target, id, filter, ...rest }: Omit<GetManyReferenceParams, 'filter'> & { filter: Record<string, unknown> },
    ) => list(resource, { ...rest, filter: { ...filter, [target]: id } }),
    create: async <R extends RaRecord>(resource: string, { data }: { data: unknown }) => ({
      data: await call<R>(resource, (r) => r.path, writeOptions('POST', data)),
    }),
    update: (resource, { id, data, previousData }: { id: Identifier; data: unknown; previousData?: RaRecord }) =>
      update(resource, id, data, previousData),
    updateMany: async (resource, { ids, data }) => {
      await Promise.all(ids.map((id) => update(resource, id, data)));
      return { data: ids };
    },
    delete: (resource, { id, previousData }) => remove(resource, id, previousData),
    deleteMany: async (resource, { ids }) => {
      await Promise.all(ids.map((id) => remove(resource, id)));
      return { data: ids };
    },
    getSelectOptions: async (resource, filters) => {
      const reply = await call<unknown>(resource, (r) => `${r.path}/lists`, filters && { query: filters });
      return Array.isArray(reply) ? (reply as SelectOption[]) : [];
    },
    ...namedCalls(request),
  };
  return provider;
}
