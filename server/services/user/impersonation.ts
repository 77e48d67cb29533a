import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CurrentUser } from '../../../src/domain/auth';
import { isSuperAdmin } from '../../../src/domain/permissions';
import { ForbiddenError, NotFoundError } from '../../errors';
import { dataReply, recordErrors } from '../../lib/replies';
import { sessionTokenId } from '../../plugins/auth';
import { revokeLiveAfterReply } from '../../realtime/revocations';
import { findAccessByUserId } from '../../lib/access';
import { toCurrentUser, type authService } from './auth-service';

const tags = ['Auth'];
const Params = z.object({ id: z.string() });
const TakeReply = z.object({ data: CurrentUser, impersonator_id: z.number() });

const parseUserId = (raw: string) => {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError('User', raw);
  return Number(raw);
};

/**
 * Impersonation: a Super Admin signs in as another user with a token
 * that remembers who took it (api_tokens.impersonator_id); leaving revokes it and gives the admin a
 * fresh token. Both are recorded in audit_log with the admin as actor and the user as subject.
 */
export async function impersonationRoutes(app: FastifyInstance, opts: { auth: ReturnType<typeof authService> }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth } = opts;

  r.get(
    '/auth/impersonate/take/:id',
    {
      config: { access: { permission: 'user' } },
      schema: {
        tags,
        summary: 'Sign in as another user (Super Admin only); replies that user with an impersonation token',
        params: Params,
        response: { 200: TakeReply, ...recordErrors },
      },
    },
    async (req) => {
      const admin = req.user!;
      // Checked first: while impersonating, req.user is the impersonated user, not the admin.
      if (admin.impersonatorId !== null) throw new ForbiddenError('You are already impersonating a user; leave impersonation first.');
      if (!isSuperAdmin(admin)) throw new ForbiddenError('Only a Super Admin may impersonate a user.');
      const targetId = parseUserId(req.params.id);
      if (targetId === admin.id) throw new ForbiddenError('You cannot impersonate yourself.');
      const target = await findAccessByUserId(app.db, targetId);
      if (!target) throw new NotFoundError('User', targetId);
      if (isSuperAdmin(target)) throw new ForbiddenError('You cannot impersonate another Super Admin.');
      const token = await app.db.transaction().execute(async (trx) => {
        const issued = await auth.issueToken(trx, target.id, admin.id);
        await trx.insertInto('audit_log').values({ action: 'impersonate.take', actor_id: admin.id, subject_id: target.id }).execute();
        return issued;
      });
      return { data: toCurrentUser(target, { token, impersonator_id: admin.id }), impersonator_id: admin.id };
    },
  );

  r.get(
    '/auth/impersonate/:id/leave',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Stop impersonating; replies the admin with a new token',
        params: Params,
        response: { 200: dataReply(CurrentUser), ...recordErrors },
      },
    },
    async (req) => {
      const current = req.user!;
      // {id} is the admin's id that the browser kept; it must be the one that took this very token.
      const adminId = /^\d{1,15}$/.test(req.params.id) ? Number(req.params.id) : NaN;
      if (current.impersonatorId === null) throw new ForbiddenError('You are not impersonating anyone.');
      if (current.impersonatorId !== adminId) throw new ForbiddenError('This impersonation was not started by that user.');
      const token = await app.db.transaction().execute(async (trx) => {
        await trx.updateTable('api_tokens').set({ revoked_at: new Date() }).where('id', '=', sessionTokenId(req)).execute();
        const issued = await auth.issueToken(trx, adminId);
        await trx.insertInto('audit_log').values({ action: 'impersonate.leave', actor_id: adminId, subject_id: current.id }).execute();
        return issued;
      });
      revokeLiveAfterReply(req, { tokens: [sessionTokenId(req)] });
      const admin = await findAccessByUserId(app.db, adminId);
      // The impersonation token dies with its admin (on delete cascade), so the admin still exists here.
      if (!admin) throw new NotFoundError('User', adminId);
      return { data: toCurrentUser(admin, { token, impersonator_id: null }) };
    },
  );
}
