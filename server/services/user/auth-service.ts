import { hash, verify } from '@node-rs/argon2';
import { sql } from 'kysely';
import type { Config } from '../../config';
import type { Database, Executor } from '../../db/database';
import { UnauthorizedError, ValidationError } from '../../errors';
import { attemptThrottle } from '../../lib/throttle';
import { hashToken, newToken } from '../../lib/tokens';
import type { Mailer } from '../../lib/mail-outbox';
import { findAccessByUserId, type AccessRow } from '../../lib/access';
import { messages } from '../../../src/domain/messages';

/** argon2id with the library's defaults (19 MiB, t=2), as OWASP recommends. */
export const hashPassword = (password: string) => hash(password);
// Compared against when the e-mail is unknown, so both paths take the same time.
const DUMMY_HASH = hashPassword('not-a-real-password-0');

/** Profile e-mail changes per user and window (each may answer 'already taken'). */
export const PROFILE_EMAIL_CHANGES = 5;
export const PROFILE_EMAIL_WINDOW_SECONDS = 15 * 60;

export const toCurrentUser = (u: AccessRow, extra: { token?: string; impersonator_id?: number | null } = {}) => ({
  id: u.id,
  ...extra,
  roles: u.roles,
  permissions: u.permissions,
  first_name: u.first_name,
  last_name: u.last_name,
  name: `${u.first_name} ${u.last_name}`.trim(),
  email: u.email,
  consent: u.consent,
  agents: u.agents,
  clients: u.clients,
});

export function authService(deps: { db: Database; config: Config; mailer: Mailer }) {
  const { db, config, mailer } = deps;

  async function issueToken(trx: Executor, userId: number, impersonatorId: number | null = null) {
    const token = newToken();
    await trx
      .insertInto('api_tokens')
      .values({
        user_id: userId,
        token_hash: hashToken(token),
        impersonator_id: impersonatorId,
        expires_at: new Date(Date.now() + config.TOKEN_TTL_HOURS * 3600_000),
      })
      .execute();
    return token;
  }

  const loginThrottle = attemptThrottle(db, {
    bucket: 'login',
    max: config.LOGIN_MAX_FAILURES,
    windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    message: (retry) => `Too many login attempts. Please try again in ${retry} seconds.`,
  });
  // The profile's current password is a password check too: throttled like a login, per user.
  const currentPasswordThrottle = attemptThrottle(db, {
    bucket: 'profile-password',
    max: config.LOGIN_MAX_FAILURES,
    windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    message: (retry) => `Too many attempts. Please try again in ${retry} seconds.`,
  });
  // 'The email has already been taken' tells a signed-in user that an address is registered: a few tries only.
  const emailChangeThrottle = attemptThrottle(db, {
    bucket: 'profile-email',
    max: PROFILE_EMAIL_CHANGES,
    windowSeconds: PROFILE_EMAIL_WINDOW_SECONDS,
    message: (retry) => `Too many e-mail changes. Please try again in ${retry} seconds.`,
  });
  async function sendResetMail(email: string) {
    const user = await db
      .selectFrom('users')
      .select(['id', 'first_name', 'email'])
      .where(sql<boolean>`lower(email) = ${email.toLowerCase()}`)
      .executeTakeFirst();
    if (!user) return;
    const token = newToken();
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('password_resets')
        .set({ used_at: new Date() })
        .where('user_id', '=', user.id)
        .where('used_at', 'is', null)
        .execute();
      await trx
        .insertInto('password_resets')
        .values({
          user_id: user.id,
          token_hash: hashToken(token),
          expires_at: new Date(Date.now() + config.RESET_TOKEN_TTL_MINUTES * 60_000),
        })
        .execute();
      const link = `${config.APP_URL.replace(/\/$/, '')}/reset-password?token=${token}`;
      await mailer.enqueue(trx, {
        to: [user.email],
        subject: 'Reset your password',
        text: `Hello ${user.first_name},\n\nUse this link within ${config.RESET_TOKEN_TTL_MINUTES} minutes to choose a new password:\n${link}\n\nIf you did not ask for it, ignore this e-mail.`,
        html: `<p>Hello ${escapeHtml(user.first_name)},</p><p>Use this link within ${config.RESET_TOKEN_TTL_MINUTES} minutes to choose a new password:</p><p><a href="${link}">Reset password</a></p><p>If you did not ask for it, ignore this e-mail.</p>`,
      });
    });
  }

  return {
    issueToken,

    /**
     * At most LOGIN_MAX_FAILURES attempts per window per e-mail and client address are checked (counted before the
     * check, so parallel ones cannot all pass); then 429 until the window passes. A success clears the count.
     */
    async login(email: string, password: string, clientAddress: string) {
      const key = `${email.toLowerCase()}|${clientAddress}`;
      await loginThrottle.claim(key);
      const user = await db
        .selectFrom('users')
        .select(['id', 'password_hash'])
        .where(sql<boolean>`lower(email) = ${email.toLowerCase()}`)
        .executeTakeFirst();
      const ok = await verify(user?.password_hash ?? (await DUMMY_HASH), password).catch(() => false);
      if (!user || !ok) throw new ValidationError({ email: messages.credentials() });
      await loginThrottle.clear(key);
      const token = await issueToken(db, user.id);
      const access = await findAccessByUserId(db, user.id);
      if (!access) throw new UnauthorizedError();
      return toCurrentUser(access, { token, impersonator_id: null });
    },

    async logout(tokenId: number) {
      await db.updateTable('api_tokens').set({ revoked_at: new Date() }).where('id', '=', tokenId).execute();
    },

    /**
     * Only a registered address gets a mail. The route replies before calling this (app.background), so the reply
     * is the same, and as fast, whether or not the address is registered.
     */
    forgotPassword: sendResetMail,

    /** Single use, within its lifetime; sets the password and signs the user out everywhere. Returns the revoked tokens' ids. */
    async resetPassword(token: string, password: string): Promise<number[]> {
      const passwordHash = await hashPassword(password);
      return db.transaction().execute(async (trx) => {
        const reset = await trx
          .updateTable('password_resets')
          .set({ used_at: new Date() })
          .where('token_hash', '=', hashToken(token))
          .where('used_at', 'is', null)
          .where('expires_at', '>', new Date())
          .returning('user_id')
          .executeTakeFirst();
        if (!reset) throw new ValidationError({ token: messages.resetToken() });
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash, updated_at: new Date() })
          .where('id', '=', reset.user_id)
          .execute();
        const revoked = await trx
          .updateTable('api_tokens')
          .set({ revoked_at: new Date() })
          .where('user_id', '=', reset.user_id)
          .where('revoked_at', 'is', null)
          .returning('id')
          .execute();
        await trx
          .insertInto('audit_log')
          .values({ action: 'password.reset', actor_id: reset.user_id, subject_id: reset.user_id })
          .execute();
        return revoked.map((t) => t.id);
      });
    },

    async consent(userId: number) {
      await db.updateTable('users').set({ consent: 1, updated_at: new Date() }).where('id', '=', userId).execute();
    },

    /**
     * Own name and e-mail; a new password or e-mail needs the current password (throttled like a login). A new password
     * signs the user out everywhere else (`keepTokenId` stays). Changing the e-mail is throttled (its 'already
     * taken' tells) and the old address gets a notice. Returns the revoked tokens' ids.
     */
    async updateProfile(
      userId: number,
      keepTokenId: number,
      p: { first_name: string; last_name: string; email: string; password?: string; current_password?: string },
    ): Promise<number[]> {
      const me = await db
        .selectFrom('users')
        .select(['email', 'first_name', 'password_hash'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      const emailChanged = p.email.toLowerCase() !== me.email.toLowerCase();
      // The e-mail is where reset mails go: a stolen sign-in token must not move it without the password.
      if (p.password || emailChanged) {
        if (!p.current_password) throw new ValidationError({ current_password: messages.required('Current Password') });
        const key = String(userId);
        await currentPasswordThrottle.claim(key);
        if (!(await verify(me.password_hash, p.current_password).catch(() => false)))
          throw new ValidationError({ current_password: messages.currentPassword() });
        await currentPasswordThrottle.clear(key);
      }
      if (emailChanged) {
        await emailChangeThrottle.claim(String(userId));
        const taken = await db
          .selectFrom('users')
          .select('id')
          .where(sql<boolean>`lower(email) = ${p.email.toLowerCase()}`)
          .where('id', '<>', userId)
          .executeTakeFirst();
        if (taken) throw new ValidationError({ email: messages.taken('Email') });
      }
      const passwordHash = p.password ? await hashPassword(p.password) : null;
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({
            first_name: p.first_name,
            last_name: p.last_name,
            email: p.email,
            updated_at: new Date(),
            ...(passwordHash ? { password_hash: passwordHash } : {}),
          })
          .where('id', '=', userId)
          .execute();
        // The old address hears of it, so its owner can act if they did not make the change.
        if (emailChanged)
          await mailer.enqueue(trx, {
            to: [me.email],
            subject: 'Your e-mail address was changed',
            text: `Hello ${me.first_name},\n\nThe e-mail address of your account was changed to ${p.email}.\n\nIf you did not make this change, contact your administrator at once.`,
            html: `<p>Hello ${escapeHtml(me.first_name)},</p><p>The e-mail address of your account was changed to ${escapeHtml(p.email)}.</p><p>If you did not make this change, contact your administrator at once.</p>`,
          });
        if (!passwordHash) return [];
        const revoked = await trx
          .updateTable('api_tokens')
          .set({ revoked_at: new Date() })
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .where('id', '<>', keepTokenId)
          .returning('id')
          .execute();
        await trx.insertInto('audit_log').values({ action: 'password.change', actor_id: userId, subject_id: userId }).execute();
        return revoked.map((t) => t.id);
      });
    },

    async currentUser(userId: number) {
      const access = await findAccessByUserId(db, userId);
      if (!access) throw new UnauthorizedError();
      return access;
    },
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
