import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { registerDefinitions } from '../../lib/definitions';
import type { Mailer } from '../../lib/mail-outbox';
import { storageOf } from '../../lib/storage';
import { authRoutes } from './auth-routes';
import { authService } from './auth-service';
import { fileRoutes } from './files-routes';
import { filesService } from './files-service';
import { impersonationRoutes } from './impersonation-routes';
import { optionRoutes } from './options-routes';
import { optionsService } from './options-service';
import { permissionsPart, rolesPart } from './roles-service';
import { userKeyRoutes } from './users-routes';
import { usersPart, usersService } from './users-service';

/** The user service (/api/user): sign-in and password flows, impersonation, users, roles, permissions, options. */
export async function userService(app: FastifyInstance, opts: { config: Config; mailer: Mailer }) {
  const auth = authService({ db: app.db, config: opts.config, mailer: opts.mailer });
  await app.register(authRoutes, { auth });
  await app.register(fileRoutes, { files: filesService({ db: app.db, storage: storageOf(app), signer: app.signer }) });
  await app.register(impersonationRoutes, { auth });
  registerDefinitions(app, 'user', {
    users: usersPart,
    roles: rolesPart,
    permissions: permissionsPart,
    'app-settings': { routes: 'own' },
  });
  await app.register(userKeyRoutes, { users: usersService({ db: app.db }) });
  await app.register(optionRoutes, { options: optionsService({ db: app.db }) });
}
