import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Headers every Fastify reply has anyway; the rest of a reply from a helmet-only app is helmet's. */
const OWN_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * helmet's headers for these options, worked out once by helmet itself on a scratch app. (@fastify/helmet builds
 * helmet's middleware again, CSP parsing included, on every request: about a tenth of an API request's CPU.)
 */
export async function helmetHeaders(options: FastifyHelmetOptions) {
  const scratch = Fastify();
  await scratch.register(helmet, options);
  scratch.get('/', () => 'ok');
  const res = await scratch.inject({ method: 'GET', url: '/' });
  await scratch.close();
  return Object.fromEntries(Object.entries(res.headers).filter(([name]) => !OWN_HEADERS.has(name))) as Record<string, string>;
}

/** Security headers on every reply (a route may still override one, as the file route does for SVG). */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: FastifyHelmetOptions) => {
  const headers = await helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
});
