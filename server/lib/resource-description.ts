import type { RawBuilder } from 'kysely';
import { sql } from 'kysely';
import type { z } from 'zod';
import { type FieldSpecs, type FormMode, inputSchema } from '../../src/domain/fields';
import { type DataScope, dataScope, ignoresSelection, isUnrestricted, ownerScope, type PermissionName } from '../../src/domain/permissions';
import type { Executor } from '../db/database';
import type { AuthUser } from '../plugins/auth';
import type { Caller } from './caller';

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
  /**
   * One permission for every route, or one for the page and its lists and one for a record and its changes (panels: the
   * list `part`, the record `panel`, since the record is read by the edit screen, which needs `panel`).
   */
  permission: PermissionName | { list: PermissionName; write: PermissionName };
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
  /** Whose records these are (the definition's `owner`): writes keep to that dimension of the scope (`writeScopeOf`). */
  ownedBy?: 'agent' | 'client';
  /** Reads keep to the owner's dimension of the scope too (the definition's `ownerReads`, `readScopeOf`). */
  ownerReads?: true;
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
  where?: (actor: AuthUser) => RawBuilder<boolean> | null;
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
  /** Text columns no two rows share (the definition's `unique`). */
  unique?: readonly string[];
  /** Extra rules across fields (e.g. agents required when the Agent role is chosen). */
  refine?: (body: Record<string, unknown>, mode: FormMode) => Record<string, string> | null;
  /**
   * Reference fields whose ids the hooks check with rules of their own instead of the generic scope check
   * (a user's agents and clients: a writer may keep ids they cannot see). Every other reference is checked.
   */
  referencesCheckedByHooks?: string[];
  hooks?: ResourceHooks;
}

/** What a write hook is given: the caller, the writing transaction, create or update. */
export interface WriteContext extends Caller {
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
  beforeDelete?(row: Record<string, unknown>, ctx: Caller & { db: Executor }): Promise<void> | void;
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

export interface PageQuery {
  page: number;
  per_page: number;
  q?: string;
  sort?: string;
  order?: 'asc' | 'desc';
  /** Exact id filters, among the description's `filters`. */
  filters?: Record<string, number | undefined>;
}

/** Every registered description by lower-cased path: what a field's `reference` ('clients', 'panelgroups') names. */
const described = new Map<string, ResourceDescription>();
/** Records a description as registered, so references to it can be checked. */
export const recordDescription = (d: ResourceDescription) => void described.set(d.path.toLowerCase(), d);
export const describedAs = (reference: string) => described.get(reference.toLowerCase());
/**
 * The registered descriptions (the access matrix test checks their reference fields); with `paths`, only those at
 * these paths (one app's definitions, where several apps share the process, as tests do).
 */
export const describedResources = (paths?: readonly string[]) => {
  const all = [...described.values()];
  if (!paths) return all;
  const wanted = new Set(paths.map((p) => p.toLowerCase()));
  return all.filter((d) => wanted.has(d.path.toLowerCase()));
};
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

/**
 * The scope a write of `d` runs in: the read scope, narrowed for records an agent (a client) owns to the writer's own
 * agents (clients). A user scoped to clients only reaches no agent's records this way, and the reverse.
 */
export const writeScopeOf = (d: Pick<ResourceDescription, 'path' | 'ownedBy'>, caller: Pick<Caller, 'actor' | 'scope'>): DataScope =>
  ownerScope(readScopeOf(d, caller), d.ownedBy);

/**
 * The scope a read of `d` runs in: calls whose path names agents or clients ignore the X_SNG_* selection; records whose
 * owner alone reads them (`ownerReads`) keep to the owner's dimension, as writes do.
 */
export const readScopeOf = (d: Pick<ResourceDescription, 'path' | 'ownedBy' | 'ownerReads'>, caller: Pick<Caller, 'actor' | 'scope'>) => {
  const scope = ignoresSelection(d.path) ? dataScope(caller.actor) : caller.scope;
  return d.ownerReads ? ownerScope(scope, d.ownedBy) : scope;
};

/**
 * A write's body as the resource's routes parse it: its fields' input schema, the description's extra inputs and its
 * rules across fields. With `only`, just those fields and extra inputs (a change of some fields, the rest kept).
 */
export function writeBody(d: Pick<ResourceDescription, 'fields' | 'extraInput' | 'refine'>, mode: FormMode, only?: readonly string[]) {
  const keep = ([name]: [string, unknown]) => !only || only.includes(name);
  const fields: FieldSpecs = Object.fromEntries(Object.entries(d.fields).filter(keep));
  const base = inputSchema(fields, mode).extend(Object.fromEntries(Object.entries(d.extraInput ?? {}).filter(keep)));
  const refine = d.refine;
  if (!refine) return base;
  return base.superRefine((value, ctx) => {
    const errors = refine(value, mode);
    for (const [path, message] of Object.entries(errors ?? {})) ctx.addIssue({ code: 'custom', path: [path], message });
  });
}
