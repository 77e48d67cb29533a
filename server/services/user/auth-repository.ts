import { sql } from 'kysely';
import type { Executor } from '../../db/database';

/** Users are found by e-mail compared lower-cased. */
const byEmail = (email: string) => sql<boolean>`lower(email) = ${email.toLowerCase()}`;

export async function insertToken(db: Executor, t: { userId: number; tokenHash: string; impersonatorId: number | null; expiresAt: Date }) {
  await db
    .insertInto('api_tokens')
    .values({ user_id: t.userId, token_hash: t.tokenHash, impersonator_id: t.impersonatorId, expires_at: t.expiresAt })
    .execute();
}

export const revokeToken = async (db: Executor, tokenId: number) => {
  await db.updateTable('api_tokens').set({ revoked_at: new Date() }).where('id', '=', tokenId).execute();
};

/** Revokes a user's live sign-in tokens (but `keepTokenId`), returning their ids. */
export async function revokeUserTokens(db: Executor, userId: number, keepTokenId?: number) {
  let query = db.updateTable('api_tokens').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepTokenId !== undefined) query = query.where('id', '<>', keepTokenId);
  return (await query.returning('id').execute()).map((t) => t.id);
}

export const findUserForSignIn = (db: Executor, email: string) =>
  db.selectFrom('users').select(['id', 'password_hash']).where(byEmail(email)).executeTakeFirst();

export const findUserForReset = (db: Executor, email: string) =>
  db.selectFrom('users').select(['id', 'first_name', 'email']).where(byEmail(email)).executeTakeFirst();

export const findProfile = (db: Executor, userId: number) =>
  db.selectFrom('users').select(['email', 'first_name', 'password_hash']).where('id', '=', userId).executeTakeFirstOrThrow();

/** Whether a user other than `userId` has this e-mail. */
export const emailUsedByOther = async (db: Executor, email: string, userId: number) =>
  !!(await db.selectFrom('users').select('id').where(byEmail(email)).where('id', '<>', userId).executeTakeFirst());

/** Replaces a user's open reset tokens with a new one. */
export async function replaceResetToken(trx: Executor, userId: number, tokenHash: string, expiresAt: Date) {
  await trx
    .updateTable('password_resets')
    .set({ used_at: new Date() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  await trx.insertInto('password_resets').values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt }).execute();
}

/** Uses a reset token (once, within its lifetime): its user's id, or undefined. */
export async function useResetToken(trx: Executor, tokenHash: string) {
  const reset = await trx
    .updateTable('password_resets')
    .set({ used_at: new Date() })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('user_id')
    .executeTakeFirst();
  return reset?.user_id;
}

export async function updateUser(
  db: Executor,
  userId: number,
  values: { first_name?: string; last_name?: string; email?: string; password_hash?: string; consent?: number },
) {
  await db
    .updateTable('users')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', userId)
    .execute();
}

export async function audit(db: Executor, action: string, actorId: number, subjectId: number) {
  await db.insertInto('audit_log').values({ action, actor_id: actorId, subject_id: subjectId }).execute();
}
