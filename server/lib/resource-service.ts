import { hash } from '@node-rs/argon2';
import { type RawBuilder, sql } from 'kysely';
import { messages, type FieldSpec, type FieldSpecs, type FormMode } from '../../src/domain/fields';
import type { DataScope } from '../../src/domain/permissions';
import type { Database, Executor } from '../db/database';
import { AppError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import type { AuthUser } from '../plugins/auth';
import type { Caller } from './caller';
import { checkImage } from './images';
import { sanitizeRichText } from './rich-text';
import {
  describedAs,
  type PageQuery,
  readScopeOf,
  writeScopeOf,
  referenceFields,
  type ResourceDescription,
  type WriteContext,
} from './resource-description';
import { resourceRepository } from './resource-repository';
import { uniqueValueTaken } from './unique-value';
import { type FileStorage, fileUrl, keyOfUrl } from './storage';

const referenceIds = (value: unknown): number[] =>
  (Array.isArray(value) ? value : [value]).filter((v): v is number => typeof v === 'number' && Number.isSafeInteger(v));

/** Who reads the referenced rows: a caller, or a request (which carries the same facts, the user as `user`). */
type Reader = Pick<Caller, 'scope'> & ({ actor: AuthUser } | { user: AuthUser | null });

/**
 * Every id a write names must be a row the writer may read, by the referenced resource's own scope
 * rule and narrowing (an Agent user: their agents, the clients their agents serve, their agents' sites…; a Client
 * user: their clients, the agents serving them…; global resources: any existing row). Run inside the writing
 * transaction. Ids the row already holds (`current`) are kept without a check: keeping widens nothing.
 * Returns the fields' messages ('The selected client is invalid'), empty when all is well.
 */
export async function invalidReferences(
  trx: Executor,
  reader: Reader,
  fields: FieldSpecs,
  input: Record<string, unknown>,
  opts: { current?: Record<string, unknown>; skip?: string[] } = {},
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  const caller = 'actor' in reader ? reader : { actor: reader.user!, scope: reader.scope };
  for (const name of referenceFields(fields)) {
    const spec = fields[name] as Extract<FieldSpec, { reference: string }>;
    if (opts.skip?.includes(name) || input[name] == null) continue;
    const held = opts.current ? referenceIds(opts.current[name]) : [];
    const ids = [...new Set(referenceIds(input[name]))].filter((id) => !held.includes(id));
    if (!ids.length) continue;
    const target = describedAs(spec.reference);
    if (!target) throw new Error(`${name} references '${spec.reference}', which no registered resource describes`);
    const found = await resourceRepository(target).countVisible(
      trx,
      readScopeOf(target, caller),
      ids,
      target.where?.(caller.actor) ?? null,
    );
    if (found !== ids.length) errors[name] = messages.choice(spec.label);
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
  if (missing) throw new AppError(409, `${d.model} refers to a missing record.`);
  // 23001: a RESTRICT foreign key (PostgreSQL reports it apart from 23503).
  if (code === '23503' || code === '23001') throw new AppError(409, messages.inUse(d.model));
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
      // The stored file's URL (set by the resource service once the upload is checked); nothing else changes the column.
      if (typeof value === 'string' && keyOfUrl(value)) columns[name] = value;
    } else if (spec.type === 'richtext') {
      columns[name] = typeof value === 'string' ? sanitizeRichText(value) : value;
    } else {
      columns[name] = value === undefined ? null : value;
    }
  }
  return columns;
}

/** The description's image fields (the routes read them from multipart bodies). */
export const imageFields = (d: ResourceDescription) =>
  Object.entries(d.fields).filter((e): e is [string, Extract<FieldSpec, { type: 'image' }>] => e[1].type === 'image');

/**
 * The description's image fields: uploads checked and stored before the write, removed again if the write fails,
 * and a replaced or deleted row's files removed after.
 */
function fileHandling(d: ResourceDescription, storage: FileStorage) {
  const images = imageFields(d);
  const remove = async (caller: Pick<Caller, 'log'>, keys: string[]) => {
    for (const key of keys)
      await storage.delete(key).catch((err: unknown) => caller.log.warn({ err, key }, 'could not remove a stored file'));
  };
  return {
    async store(body: Record<string, unknown>) {
      const input = { ...body };
      const stored: string[] = [];
      for (const [name, spec] of images) {
        if (input[name] === undefined || input[name] === null) continue;
        try {
          const image = await checkImage(input[name], name, spec.label);
          const key = await storage.put(image.data, image.contentType);
          stored.push(key);
          input[name] = fileUrl(key);
        } catch (e) {
          await Promise.all(stored.map((k) => storage.delete(k).catch(() => {})));
          throw e;
        }
      }
      return { input, stored };
    },
    async undoOnError<T>(caller: Pick<Caller, 'log'>, stored: string[], write: () => Promise<T>): Promise<T> {
      try {
        return await write();
      } catch (e) {
        await remove(caller, stored);
        throw e;
      }
    },
    /** Files of `before` that `after` no longer names (all of them when the row is deleted). */
    async removeReplaced(caller: Pick<Caller, 'log'>, before: Record<string, unknown>, after: Record<string, unknown> | null | undefined) {
      const gone = images
        .map(([name]) => (after && after[name] === before[name] ? null : keyOfUrl(before[name])))
        .filter((k): k is string => !!k);
      await remove(caller, gone);
    },
  };
}

/** A page written as JSON by PostgreSQL (server/lib/page-json.ts), or null when the record is not written there. */
export interface JsonPages {
  body(scope: DataScope, q: PageQuery, extra: RawBuilder<boolean> | null): Promise<string | null>;
}

export interface ResourceServiceDeps {
  db: Database;
  storage: FileStorage;
  /** The description's pages as JSON (a definition's `pageCache`). */
  pages?: JsonPages | null;
}

/**
 * A described resource's reads and writes, with plain inputs: the caller's user and data scope, ids, validated bodies.
 * Reads keep to the caller's scope and the description's narrowing; writes check references, run the hooks and are
 * undone with 403 when the written row would leave the writer's scope.
 */
export function resourceService(d: ResourceDescription, deps: ResourceServiceDeps) {
  const { db } = deps;
  const repo = resourceRepository(d);
  const files = fileHandling(d, deps.storage);
  const narrow = (caller: Pick<Caller, 'actor'>) => d.where?.(caller.actor) ?? null;
  const scopeOf = (caller: Pick<Caller, 'actor' | 'scope'>) => readScopeOf(d, caller);
  const writeScope = (caller: Pick<Caller, 'actor' | 'scope'>) => writeScopeOf(d, caller);

  /** Each unique column the write sets must not repeat another row's (trimmed, case-insensitive, runs of spaces as one). */
  const checkUnique = async (trx: Executor, columns: Record<string, unknown>, current?: Record<string, unknown>) => {
    for (const column of d.unique ?? []) {
      const value = columns[column];
      if (typeof value !== 'string') continue;
      // Read through the resource's source, where the wire's names are columns (an e-mail template's templateName).
      const at = { key: `${d.table}.${column}`, source: d.from ?? sql.table(d.table), column };
      if (await uniqueValueTaken(trx, at, value, current?.id))
        throw new ValidationError({ [column]: messages.taken(d.fields[column]?.label ?? column) });
    }
  };

  const prepare = async (
    caller: Caller,
    trx: Executor,
    input: Record<string, unknown>,
    mode: FormMode,
    current?: Record<string, unknown>,
  ) => {
    const ctx: WriteContext = { ...caller, trx, mode, current };
    await checkReferences(trx, caller, d.fields, input, { current, skip: d.referencesCheckedByHooks });
    let columns = await columnsOf(d.fields, input);
    await checkUnique(trx, columns, current);
    if (d.hooks?.beforeWrite) columns = await d.hooks.beforeWrite(columns, input, ctx);
    return { columns, ctx };
  };
  /** A restricted user's new row belongs to one of their agents. */
  const withOwner = (caller: Caller, values: Record<string, unknown>) => {
    const col = d.ownerAgentColumn;
    const scope = scopeOf(caller);
    if (!col || scope.agents === null || values[col] != null) return values;
    return { ...values, [col]: scope.agents[0] ?? null };
  };
  /** Locks the row and refuses (409) when it was saved after `savedAt`, the writer's copy. */
  const checkUnchangedSince = async (trx: Executor, id: number, savedAt: Date) => {
    const r = await sql<{ updated_at: Date }>`select updated_at from ${sql.table(d.table)} where id = ${id} for update`.execute(trx);
    const at = r.rows[0]?.updated_at;
    if (at && at.getTime() !== savedAt.getTime()) throw new AppError(409, messages.savedSince());
  };
  /** Writes happen in a transaction that is undone if the row would leave the writer's scope. */
  const writeInScope = async (caller: Caller, write: (trx: Executor) => Promise<Record<string, unknown>>) => {
    try {
      return await db.transaction().execute(async (trx) => {
        const written = await write(trx);
        // Read back through the resource's source, so the reply has the same shape as GET.
        const row = await repo.find(trx, writeScope(caller), written.id as number, narrow(caller));
        if (!row) throw new ForbiddenError();
        return row;
      });
    } catch (e) {
      if (e instanceof AppError) throw e;
      translateDbError(e, d);
    }
  };
  const find = async (caller: Pick<Caller, 'actor' | 'scope'>, id: number) => {
    const row = await repo.find(db, scopeOf(caller), id, narrow(caller));
    if (!row) throw new NotFoundError(d.model, id);
    return row;
  };
  /** The row an update or delete names: 404 out of sight, 403 in sight but another agent's (client's) to change. */
  const findToChange = async (caller: Pick<Caller, 'actor' | 'scope'>, id: number) => {
    const row = await find(caller, id);
    if (d.ownedBy && !(await repo.find(db, writeScope(caller), id, narrow(caller)))) throw new ForbiddenError();
    return row;
  };

  return {
    /** A page as PostgreSQL wrote it (a JSON string) when the description opts in, else its items and total. */
    async page(caller: Pick<Caller, 'actor' | 'scope'>, q: PageQuery) {
      const json = deps.pages ? await deps.pages.body(scopeOf(caller), q, narrow(caller)) : null;
      if (json !== null) return json;
      const { items, total } = await repo.page(db, scopeOf(caller), q, narrow(caller));
      return d.pageShape === 'meta' ? { items, meta: { total, last_page: Math.max(1, Math.ceil(total / q.per_page)) } } : { items, total };
    },
    lists: (caller: Pick<Caller, 'actor' | 'scope'>, filters: Record<string, string | undefined>) =>
      repo.lists(db, scopeOf(caller), narrow(caller), filters),
    find,
    async create(caller: Caller, body: Record<string, unknown>) {
      const { input, stored } = await files.store(body);
      return files.undoOnError(caller, stored, () =>
        writeInScope(caller, async (trx) => {
          const { columns, ctx } = await prepare(caller, trx, input, 'create');
          const inserted = await repo.insert(trx, withOwner(caller, columns));
          await d.hooks?.afterWrite?.(inserted.id as number, input, ctx);
          return inserted;
        }),
      );
    },
    /**
     * `savedAt`: the record's `updated_at` as the writer read it (the request's If-Match): a record saved since is a
     * 409 and nothing is written, so a form opened before another user's save cannot undo it unseen.
     */
    async update(caller: Caller, id: number, body: Record<string, unknown>, savedAt?: Date) {
      const current = await findToChange(caller, id);
      const { input, stored } = await files.store(body);
      // No owner default here: an update without the owner column keeps the row's owner.
      const row = await files.undoOnError(caller, stored, () =>
        writeInScope(caller, async (trx) => {
          if (savedAt) await checkUnchangedSince(trx, id, savedAt);
          const { columns, ctx } = await prepare(caller, trx, input, 'update', current);
          const updated = await repo.update(trx, id, columns);
          await d.hooks?.afterWrite?.(id, input, ctx);
          return updated;
        }),
      );
      await files.removeReplaced(caller, current, row);
      return row;
    },
    async remove(caller: Caller, id: number) {
      const row = await findToChange(caller, id);
      await d.hooks?.beforeDelete?.(row, { ...caller, db });
      let removed = false;
      try {
        removed = await repo.remove(db, id);
      } catch (e) {
        translateDbError(e, d);
      }
      // Another DELETE of the row got there first: it answered 200 and removed the files.
      if (!removed) throw new NotFoundError(d.model, id);
      await files.removeReplaced(caller, row, null);
      return row;
    },
  };
}
