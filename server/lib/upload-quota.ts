import { messages } from '../../src/domain/messages';
import { sql } from 'kysely';
import { OPTION_NAMES } from '../../src/domain/option-fields';
import type { Executor } from '../db/database';
import { ValidationError } from '../errors';
import type { UploadRoom } from './multipart';

/** Used when the UPLOAD_QUOTA_MB setting is missing or unreadable. */
export const DEFAULT_UPLOAD_QUOTA_MB = 500;
const MB = 1024 * 1024;

/** The application setting UPLOAD_QUOTA_MB (options table, edited on Application Settings), in bytes. */
export async function uploadQuotaBytes(db: Executor) {
  const row = await sql<{ option_value: string }>`select option_value from options
    where option_name = ${OPTION_NAMES.UPLOAD_QUOTA_MB}`.execute(db);
  const mb = Number(row.rows[0]?.option_value);
  return (Number.isInteger(mb) && mb >= 0 ? mb : DEFAULT_UPLOAD_QUOTA_MB) * MB;
}

const refuse = (field: string, quota: number, whose: string) =>
  new ValidationError({
    [field]: messages.uploadQuota(Math.round(quota / MB), whose),
  });

/**
 * Records `sizes` (bytes by stored key) as uploads for the agent, in the write's transaction, refusing them (422 on
 * `field`) when the agent's uploads would pass the quota. The agent's row is locked first, so parallel uploads are
 * counted one after another and cannot both slip under it.
 */
export async function chargeAgentUploads(trx: Executor, agentId: number, sizes: Record<string, number>, field: string) {
  const keys = Object.keys(sizes);
  const adding = keys.reduce((n, k) => n + sizes[k], 0);
  await sql`select id from agents where id = ${agentId} for update`.execute(trx);
  const used = await sql<{ bytes: string }>`select coalesce(sum(size), 0) as bytes from agent_uploads where agent_id = ${agentId}`.execute(
    trx,
  );
  const quota = await uploadQuotaBytes(trx);
  if (Number(used.rows[0].bytes) + adding > quota) throw refuse(field, quota, 'of this agent');
  await sql`insert into agent_uploads (key, agent_id, size)
    select unnest(${keys}::text[]), ${agentId}, unnest(${keys.map((k) => sizes[k])}::bigint[])
    on conflict (key) do nothing`.execute(trx);
}

/** The same quota for a user's own uploads (file/upload, e.g. images in rich text), locked on the user's row. */
export async function checkUserUploadQuota(trx: Executor, userId: number, adding: number, field: string) {
  await sql`select id from users where id = ${userId} for update`.execute(trx);
  const used = await sql<{ bytes: string }>`select coalesce(sum(size), 0) as bytes from uploaded_files where user_id = ${userId}`.execute(
    trx,
  );
  const quota = await uploadQuotaBytes(trx);
  if (Number(used.rows[0].bytes) + adding > quota) throw refuse(field, quota, 'of your account');
}

/** Stored files that are gone no longer count against their agent. */
export async function releaseAgentUploads(db: Executor, keys: string[]) {
  if (keys.length) await sql`delete from agent_uploads where key = any(${keys}::text[])`.execute(db);
}

/** What the agent's quota still allows, for refusing an upload while it streams (the charge in the write stays the rule). */
export async function agentUploadRoom(db: Executor, agentId: number): Promise<UploadRoom> {
  const used = await sql<{ bytes: string }>`select coalesce(sum(size), 0) as bytes from agent_uploads where agent_id = ${agentId}`.execute(
    db,
  );
  const quota = await uploadQuotaBytes(db);
  return { bytes: Math.max(0, quota - Number(used.rows[0].bytes)), refuse: (field) => refuse(field, quota, 'of this agent') };
}

/** The room of the agent owning scan `rawId` (a path parameter); null when there is no such scan (the route says 404). */
export async function scanUploadRoom(db: Executor, rawId: string): Promise<UploadRoom | null> {
  if (!/^\d{1,15}$/.test(rawId)) return null;
  const r = await sql<{ agent_id: number }>`select agent_id from scans where id = ${Number(rawId)}`.execute(db);
  return r.rows[0] ? agentUploadRoom(db, r.rows[0].agent_id) : null;
}

/** The same for a user's own uploads. */
export async function userUploadRoom(db: Executor, userId: number): Promise<UploadRoom> {
  const used = await sql<{ bytes: string }>`select coalesce(sum(size), 0) as bytes from uploaded_files where user_id = ${userId}`.execute(
    db,
  );
  const quota = await uploadQuotaBytes(db);
  return { bytes: Math.max(0, quota - Number(used.rows[0].bytes)), refuse: (field) => refuse(field, quota, 'of your account') };
}
