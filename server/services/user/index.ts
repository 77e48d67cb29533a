import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Mailer } from '../email/outbox';
import { authRoutes } from './auth-routes';
import { authService } from './auth-service';

/** The user service (/api/user): sign-in and password flows; users, roles, permissions and options come next. */
export async function userService(app: FastifyInstance, opts: { config: Config; mailer: Mailer }) {
  const auth = authService({ db: app.db, config: opts.config, mailer: opts.mailer });
  await app.register(authRoutes, { auth });
}
