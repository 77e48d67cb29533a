import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '../../errors';
import { callerOf } from '../../lib/caller';
import { dataReply, recordErrors } from '../../lib/replies';
import type { usersService } from './users-service';

const ApiKeyReply = dataReply(z.object({ token: z.string() }));

/** GET users/{id}/apikey: a new key, shown once, replacing the previous one. */
export function userKeyRoutes(app: FastifyInstance, opts: { users: ReturnType<typeof usersService> }, done: () => void) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/users/:id/apikey',
    {
      config: { access: { permission: 'user' } },
      schema: {
        tags: ['User'],
        summary: "Generate a user's API key (shown once; replaces the previous one)",
        params: z.object({ id: z.string() }),
        response: { 200: ApiKeyReply, ...recordErrors },
      },
    },
    async (req) => {
      const raw = req.params.id;
      if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError('User', raw);
      return { data: { token: await opts.users.newApiKey(callerOf(req), Number(raw)) } };
    },
  );
  done();
}
