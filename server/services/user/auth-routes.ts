import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CurrentUser, ForgotPasswordBody, LoginBody, ProfileBody, ResetPasswordBody } from '../../../src/domain/auth';
import { authErrors, dataReply, ErrorReply, MessageReply } from '../../lib/replies';
import { callerOf } from '../../lib/caller';
import { revokeLiveAfterReply } from '../../realtime/revocations';
import { toCurrentUser, type authService } from './auth-service';

const tags = ['Auth'];

export function authRoutes(app: FastifyInstance, opts: { auth: ReturnType<typeof authService> }, done: () => void) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth } = opts;
  const me = async (userId: number, impersonatorId: number | null) =>
    toCurrentUser(await auth.currentUser(userId), { impersonator_id: impersonatorId });

  r.post(
    '/auth/login',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Sign in; replies the current user with a bearer token',
        body: LoginBody,
        response: { 200: dataReply(CurrentUser), 422: ErrorReply, 429: ErrorReply },
      },
    },
    async (req) => ({ data: await auth.login(req.body.email, req.body.password, req.ip) }),
  );

  r.get(
    '/auth/user',
    {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'The signed-in user', response: { 200: dataReply(CurrentUser), ...authErrors } },
    },
    async (req) => ({ data: await me(req.user!.id, req.user!.impersonatorId) }),
  );

  r.post(
    '/auth/logout',
    {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'Revoke the bearer token', response: { 200: MessageReply, ...authErrors } },
    },
    async (req) => {
      await auth.logout(callerOf(req));
      return { data: { message: 'Logged out' } };
    },
  );

  r.post(
    '/auth/forgot-password',
    {
      config: { access: 'public', rateLimit: { max: 5, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'E-mail a single-use reset link (same reply whether or not the address exists)',
        body: ForgotPasswordBody,
        response: { 200: MessageReply, 422: ErrorReply, 429: ErrorReply },
      },
      // The look-up, the token and the mail start only once the reply has been handed to the connection, so a
      // registered and an unknown address get the same reply after the same steps: nothing they differ in runs first.
      onResponse: (req, reply, done) => {
        if (reply.statusCode === 200) app.background.run('password reset mail', () => auth.forgotPassword(req.body.email), req.log);
        done();
      },
    },
    () => ({ data: { message: 'If that e-mail address is registered, a reset link is on its way.' } }),
  );

  r.post(
    '/auth/reset-password',
    {
      config: { access: 'public', rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Set a new password with a reset token; signs the user out everywhere',
        body: ResetPasswordBody,
        response: { 200: MessageReply, 422: ErrorReply, 429: ErrorReply },
      },
    },
    async (req) => {
      revokeLiveAfterReply(req, { tokens: await auth.resetPassword(req.body.token, req.body.password) });
      return { data: { message: 'Password Changed Successfully' } };
    },
  );

  r.post(
    '/auth/consent',
    {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'Accept the terms and conditions', response: { 200: dataReply(CurrentUser), ...authErrors } },
    },
    async (req) => {
      await auth.consent(callerOf(req));
      return { data: await me(req.user!.id, req.user!.impersonatorId) };
    },
  );

  r.put(
    '/auth/profile',
    {
      config: { access: { permission: 'user' } },
      schema: {
        tags,
        summary: 'Update own name, e-mail and (optionally) password, which needs current_password and signs out other sessions',
        body: ProfileBody,
        response: { 200: dataReply(CurrentUser), ...authErrors, 429: ErrorReply },
      },
    },
    async (req) => {
      await auth.updateProfile(callerOf(req), req.body);
      return { data: await me(req.user!.id, req.user!.impersonatorId) };
    },
  );
  done();
}
