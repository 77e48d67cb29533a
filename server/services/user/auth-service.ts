import { hash, verify } from '@node-rs/argon2';
import type { Config } from '../../config';
import { isSuperAdmin } from '../../../src/domain/permissions';
import type { Database, Executor } from '../../db/database';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors';
import { type Caller, sessionOf } from '../../lib/caller';
import { attemptThrottle } from '../../lib/throttle';
import { hashToken, newToken } from '../../lib/tokens';
import type { Mailer } from '../../lib/mail-outbox';
import { findAccessByUserId, type AccessRow } from '../../lib/access';
import { messages } from '../../../src/domain/messages';
import {
  audit,
  emailUsedByOther,
  findProfile,
  findUserForReset,
  findUserForSignIn,
  insertToken,
  replaceResetToken,
  revokeToken,
  revokeUserTokens,
  updateUser,
  useResetToken,
} from './auth-repository';

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
    const expiresAt = new Date(Date.now() + config.TOKEN_TTL_HOURS * 3600_000);
    await insertToken(trx, { userId, tokenHash: hashToken(token), impersonatorId, expiresAt });
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
  // 'Email has already been taken' tells a signed-in user that an address is registered: a few tries only.
  const emailChangeThrottle = attemptThrottle(db, {
    bucket: 'profile-email',
    max: PROFILE_EMAIL_CHANGES,
    windowSeconds: PROFILE_EMAIL_WINDOW_SECONDS,
    message: (retry) => `Too many e-mail changes. Please try again in ${retry} seconds.`,
  });
  async function sendResetMail(email: string) {
    const user = await findUserForReset(db, email);
    if (!user) return;
    const token = newToken();
    await db.transaction().execute(async (trx) => {
      await replaceResetToken(trx, user.id, hashToken(token), new Date(Date.now() + config.RESET_TOKEN_TTL_MINUTES * 60_000));
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
      const user = await findUserForSignIn(db, email);
      const ok = await verify(user?.password_hash ?? (await DUMMY_HASH), password).catch(() => false);
      if (!user || !ok) throw new ValidationError({ email: messages.credentials() });
      await loginThrottle.clear(key);
      const token = await issueToken(db, user.id);
      const access = await findAccessByUserId(db, user.id);
      if (!access) throw new UnauthorizedError();
      return toCurrentUser(access, { token, impersonator_id: null });
    },

    /** Revokes the caller's session; the live connections it signed close. */
    async logout(caller: Pick<Caller, 'actor' | 'revokeLive'>) {
      const tokenId = sessionOf(caller);
      await revokeToken(db, tokenId);
      caller.revokeLive({ tokens: [tokenId] });
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
        const userId = await useResetToken(trx, hashToken(token));
        if (userId === undefined) throw new ValidationError({ token: messages.resetToken() });
        await updateUser(trx, userId, { password_hash: passwordHash });
        const revoked = await revokeUserTokens(trx, userId);
        await audit(trx, 'password.reset', userId, userId);
        return revoked;
      });
    },

    /** Consent is the user's own: an impersonating admin cannot give it for them. */
    async consent(caller: Pick<Caller, 'actor'>) {
      if (caller.actor.impersonatorId != null) throw new ForbiddenError(messages.consentOwn());
      await updateUser(db, caller.actor.id, { consent: 1 });
    },

    /**
     * Own name and e-mail; a new password or e-mail needs the current password (throttled like a login). A new password
     * signs the user out everywhere else (the caller's session stays) and closes their live connections. Changing the
     * e-mail is throttled (its 'already taken' tells) and the old address gets a notice.
     */
    async updateProfile(
      caller: Pick<Caller, 'actor' | 'revokeLive'>,
      p: { first_name: string; last_name: string; email: string; password?: string; current_password?: string },
    ) {
      const userId = caller.actor.id;
      const keepTokenId = sessionOf(caller);
      const me = await findProfile(db, userId);
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
        if (await emailUsedByOther(db, p.email, userId)) throw new ValidationError({ email: messages.taken('Email') });
      }
      const passwordHash = p.password ? await hashPassword(p.password) : null;
      const revoked = await db.transaction().execute(async (trx) => {
        await updateUser(trx, userId, {
          first_name: p.first_name,
          last_name: p.last_name,
          email: p.email,
          ...(passwordHash ? { password_hash: passwordHash } : {}),
        });
        // The old address hears of it, so its owner can act if they did not make the change.
        if (emailChanged)
          await mailer.enqueue(trx, {
            to: [me.email],
            subject: 'Your e-mail address was changed',
            text: `Hello ${me.first_name},\n\nThe e-mail address of your account was changed to ${p.email}.\n\nIf you did not make this change, contact your administrator at once.`,
            html: `<p>Hello ${escapeHtml(me.first_name)},</p><p>The e-mail address of your account was changed to ${escapeHtml(p.email)}.</p><p>If you did not make this change, contact your administrator at once.</p>`,
          });
        if (!passwordHash) return [];
        const revoked = await revokeUserTokens(trx, userId, keepTokenId);
        await audit(trx, 'password.change', userId, userId);
        return revoked;
      });
      caller.revokeLive({ tokens: revoked });
    },

    async currentUser(userId: number) {
      const access = await findAccessByUserId(db, userId);
      if (!access) throw new UnauthorizedError();
      return access;
    },

    /**
     * A Super Admin signs in as another user (never themselves or another Super Admin) with a token that remembers who
     * took it; recorded in audit_log with the admin as actor and the user as subject.
     */
    async impersonate(caller: Pick<Caller, 'actor'>, target: string) {
      const admin = caller.actor;
      // Checked first: while impersonating, the actor is the impersonated user, not the admin.
      if (admin.impersonatorId !== null) throw new ForbiddenError(messages.impersonatingAlready());
      if (!isSuperAdmin(admin)) throw new ForbiddenError(messages.impersonateSuperAdminOnly());
      if (!/^\d{1,15}$/.test(target) || Number(target) < 1) throw new NotFoundError('User', target);
      const targetId = Number(target);
      if (targetId === admin.id) throw new ForbiddenError(messages.impersonateSelf());
      const user = await findAccessByUserId(db, targetId);
      if (!user) throw new NotFoundError('User', targetId);
      if (isSuperAdmin(user)) throw new ForbiddenError(messages.impersonateSuperAdmin());
      const token = await db.transaction().execute(async (trx) => {
        const issued = await issueToken(trx, user.id, admin.id);
        await audit(trx, 'impersonate.take', admin.id, user.id);
        return issued;
      });
      return { user: toCurrentUser(user, { token, impersonator_id: admin.id }), impersonatorId: admin.id };
    },

    /**
     * Leaving revokes the impersonation token and gives the admin a fresh one. `adminId` is the id the browser kept:
     * it must be the admin who took this very token.
     */
    async leaveImpersonation(caller: Pick<Caller, 'actor' | 'revokeLive'>, adminId: number) {
      const current = caller.actor;
      if (current.impersonatorId === null) throw new ForbiddenError(messages.notImpersonating());
      if (current.impersonatorId !== adminId) throw new ForbiddenError(messages.impersonationOfAnother());
      const tokenId = sessionOf(caller);
      const token = await db.transaction().execute(async (trx) => {
        await revokeToken(trx, tokenId);
        const issued = await issueToken(trx, adminId);
        await audit(trx, 'impersonate.leave', adminId, current.id);
        return issued;
      });
      caller.revokeLive({ tokens: [tokenId] });
      const admin = await findAccessByUserId(db, adminId);
      // The impersonation token dies with its admin (on delete cascade), so the admin still exists here.
      if (!admin) throw new NotFoundError('User', adminId);
      return toCurrentUser(admin, { token, impersonator_id: null });
    },
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
