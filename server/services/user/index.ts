import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { registerDefinitions } from '../../lib/definitions';
import type { Mailer } from '../../lib/mail-outbox';
import { authRoutes } from './auth-routes';
import { authService } from './auth-service';
import { fileRoutes } from './files';
import { impersonationRoutes } from './impersonation';
import { optionRoutes } from './options';
import { permissionsPart, rolesPart } from './roles';
import { userKeyRoutes, usersPart } from './users';

/** The user service (/api/user): sign-in and password flows, impersonation, users, roles, permissions, options. */
export async function userService(app: FastifyInstance, opts: { config: Config; mailer: Mailer }) {
  const auth = authService({ db: app.db, config: opts.config, mailer: opts.mailer });
  await app.register(authRoutes, { auth });
  await app.register(fileRoutes);
  await app.register(impersonationRoutes, { auth });
  registerDefinitions(app, 'user', {
    users: usersPart,
    roles: rolesPart,
    permissions: permissionsPart,
    'app-settings': { routes: 'own' },
  });
  await app.register(userKeyRoutes);
  await app.register(optionRoutes);
}
