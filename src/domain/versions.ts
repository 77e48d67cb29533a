import { z } from 'zod';
import { fromDecimalText } from './text';

/**
 * Versions of scans and quotes (docs/server.md, "Versions"): every read of a scan or a quote carries `version`, and a
 * save sends back the version it was made from as the body field `version`. A save made from an older version is
 * refused with 409 and a `ConflictReply`; nothing is stored.
 */

/** The body field a save sends (a number, or its text in a multipart body); absent means "last save wins". */
export const versionField = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  fromDecimalText(
    z
      .number({ error: 'Version must be a whole number' })
      .int('Version must be a whole number')
      .min(0, 'Version must be a whole number')
      .max(2_147_483_647, 'Version must be a whole number')
      .optional(),
  ),
);

/** One field that changed since the client's version, with its current value (null when it is gone). */
export const ConflictChange = z.object({ field: z.string(), value: z.unknown() });

/** The 409 reply's `conflict`: the current version, who saved it and when, and what changed (null when unknown). */
export const ConflictRecord = z.object({
  version: z.number().int(),
  saved_by: z.object({ id: z.number(), name: z.string() }).nullable(),
  saved_at: z.iso.datetime({ offset: true }).nullable(),
  changes: z.array(ConflictChange).nullable(),
});
export type ConflictInfo = z.infer<typeof ConflictRecord>;

/** The 409 reply: the wire contract's `{error}` text and the conflict beside it. */
export const ConflictReply = z.object({ error: z.string(), conflict: ConflictRecord });

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `{a: {b: 1}, c: [2]}` -> `{'a.b': 1, 'c.0': 2}`: the fields a conflict compares, by dotted path. */
export function flattenSnapshot(value: Json, prefix = '', into: Record<string, Json> = {}): Record<string, Json> {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    for (const [key, v] of entries) flattenSnapshot(v, prefix ? `${prefix}.${key}` : key, into);
  } else if (prefix) into[prefix] = value;
  return into;
}

/** The fields whose values differ between two snapshots, with the current value (null when the field is gone). */
export function changedFields(before: Json, current: Json): { field: string; value: Json }[] {
  const a = flattenSnapshot(before);
  const b = flattenSnapshot(current);
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return fields.filter((f) => (a[f] ?? null) !== (b[f] ?? null)).map((field) => ({ field, value: b[field] ?? null }));
}
export type { Json as SnapshotJson };

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * "Re-apply my changes": the current version (`theirs`) with what the user changed since the version they started
 * from (`base` -> `mine`) put on top, field by field through nested objects (a list is one value).
 */
export function reapplyEdits<T>(base: T, mine: T, theirs: T): T {
  if (same(base, mine)) return theirs;
  if (!isPlain(base) || !isPlain(mine) || !isPlain(theirs)) return mine;
  const out: Record<string, unknown> = { ...theirs };
  for (const key of new Set([...Object.keys(base), ...Object.keys(mine)])) {
    if (!(key in mine)) delete out[key];
    else if (!same(base[key], mine[key])) out[key] = key in theirs ? reapplyEdits(base[key], mine[key], theirs[key]) : mine[key];
  }
  return out as T;
}

/** `POST /api/broadcasting/presence`: the page editing a scan (or its quote) says the user is here, or gone. */
export const PresenceBody = z.object({
  scan_id: fromDecimalText(
    z.number({ error: 'Scan must be an id' }).int('Scan must be an id').positive('Scan must be an id').max(Number.MAX_SAFE_INTEGER),
  ),
  record: z.enum(['scan', 'quote'], { error: 'Record must be scan or quote' }),
  state: z.enum(['here', 'gone'], { error: 'State must be here or gone' }),
});
/** The `presence` event on `private-editing.{scanId}`. */
export interface PresenceEvent {
  record: 'scan' | 'quote';
  user: { id: number; name: string };
  state: 'here' | 'gone';
}
