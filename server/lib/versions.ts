import { sql } from 'kysely';
import { changedFields, type ConflictInfo, type SnapshotJson } from '../../src/domain/versions';
import type { Executor } from '../db/database';
import { ConflictError } from '../errors';

/** The versioned records: their table, the table of their snapshots and its key column, the model's name. */
const KINDS = {
  scan: { table: 'scans', versions: 'scan_versions', key: 'scan_id', model: 'scan' },
  quote: { table: 'quotes', versions: 'quote_versions', key: 'quote_id', model: 'quote' },
} as const;
export type VersionedKind = keyof typeof KINDS;

/** Snapshots kept per record: a save made from further back is still refused, only without the list of changes. */
export const KEPT_VERSIONS = 50;

/** The fields a conflict compares, read in the writing transaction. */
export type Snapshot = () => Promise<SnapshotJson>;

/**
 * Locks the record's row and reads its stamp, then the saver's name in a second statement: a locking read that waited
 * for another save rereads only the locked row, so a name joined to it would come back empty.
 */
async function stampOf(db: Executor, kind: VersionedKind, id: number) {
  const k = KINDS[kind];
  const r = await sql<{ version: number; saved_at: Date | null; saved_by: number | null }>`
    select version, saved_at, saved_by from ${sql.table(k.table)} where id = ${id} for update`.execute(db);
  const row = r.rows[0];
  if (!row) return null;
  const name =
    row.saved_by === null
      ? null
      : ((
          await sql<{ name: string | null }>`select nullif(trim(concat_ws(' ', first_name, last_name)), '') as name
            from users where id = ${row.saved_by}`.execute(db)
        ).rows[0]?.name ?? null);
  return { ...row, name };
}

async function keepSnapshot(db: Executor, kind: VersionedKind, id: number, version: number, snapshot: SnapshotJson) {
  const k = KINDS[kind];
  await sql`insert into ${sql.table(k.versions)} (${sql.ref(k.key)}, version, snapshot) values (${id}, ${version}, ${JSON.stringify(snapshot)}::jsonb)
    on conflict do nothing`.execute(db);
}

/**
 * In a write's transaction, before it writes: locks the record's row and refuses (409, nothing stored) a save made from
 * another version than the current one. `id` null: the record does not exist yet (version 0). `expected` undefined:
 * the caller sent no version, and the last save wins. The current snapshot is kept first, so a later conflict can
 * compare against the version this save started from. Returns the current version (0: none yet).
 */
export async function guardVersion(db: Executor, kind: VersionedKind, id: number | null, expected: number | undefined, snapshot: Snapshot) {
  const stamp = id === null ? null : await stampOf(db, kind, id);
  const current = stamp?.version ?? 0;
  const now = stamp ? await snapshot() : {};
  if (stamp) await keepSnapshot(db, kind, id!, current, now);
  if (expected === undefined || expected === current) return current;
  const k = KINDS[kind];
  const before =
    expected === 0
      ? {}
      : ((
          await sql<{ snapshot: SnapshotJson }>`select snapshot from ${sql.table(k.versions)}
            where ${sql.ref(k.key)} = ${id} and version = ${expected}`.execute(db)
        ).rows[0]?.snapshot ?? null);
  const conflict: ConflictInfo = {
    version: current,
    saved_by: stamp?.saved_by && stamp.name ? { id: stamp.saved_by, name: stamp.name } : null,
    saved_at: stamp?.saved_at ? stamp.saved_at.toISOString() : null,
    changes: before === null ? null : changedFields(before, now),
  };
  const by = conflict.saved_by ? ` by ${conflict.saved_by.name}` : '';
  const at = conflict.saved_at ? ` at ${conflict.saved_at}` : '';
  throw new ConflictError(`This ${k.model} was changed${by}${at}. Reload it, or re-apply your changes, then save again.`, conflict);
}

/**
 * After the write, in the same transaction: records who saved it and when, moves the version on (unless the write
 * already did, through the scans trigger) and keeps the new snapshot. Returns the new version.
 */
export async function stampVersion(
  db: Executor,
  kind: VersionedKind,
  id: number,
  from: number,
  actorId: number | null,
  snapshot: Snapshot,
) {
  const k = KINDS[kind];
  const r = await sql<{ version: number }>`update ${sql.table(k.table)}
    set saved_by = ${actorId}, saved_at = now(), version = greatest(version, ${from} + 1) where id = ${id} returning version`.execute(db);
  const version = r.rows[0].version;
  await keepSnapshot(db, kind, id, version, await snapshot());
  await sql`delete from ${sql.table(k.versions)} where ${sql.ref(k.key)} = ${id} and version <= ${version - KEPT_VERSIONS}`.execute(db);
  return version;
}

/** A write of an existing record between `guardVersion` and `stampVersion`, in the caller's transaction. */
export async function versionedWrite<T>(
  db: Executor,
  record: { kind: VersionedKind; id: number; expected: number | undefined; actorId: number | null; snapshot: Snapshot },
  write: () => Promise<T>,
): Promise<T> {
  const from = await guardVersion(db, record.kind, record.id, record.expected, record.snapshot);
  const result = await write();
  await stampVersion(db, record.kind, record.id, from, record.actorId, record.snapshot);
  return result;
}
