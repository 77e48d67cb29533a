import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CurrentUser } from '../../../src/domain/auth';
import { dataReply, recordErrors } from '../../lib/replies';
import { callerOf } from '../../lib/caller';
import type { authService } from './auth-service';

const tags = ['Auth'];
const Params = z.object({ id: z.string() });
const TakeReply = z.object({ data: CurrentUser, impersonator_id: z.number() });

/** Impersonation (authService.impersonate, leaveImpersonation): taking another user's sign-in, and leaving it. */
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
      const { user, impersonatorId } = await auth.impersonate(callerOf(req), req.params.id);
      return { data: user, impersonator_id: impersonatorId };
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
    // {id} is the admin's id that the browser kept.
    async (req) => ({
      data: await auth.leaveImpersonation(callerOf(req), /^\d{1,15}$/.test(req.params.id) ? Number(req.params.id) : NaN),
    }),
  );
}
