import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Vite names every file under assets/ by its content hash: a name never changes content. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html names the current assets, so a browser asks again (a 304 when unchanged) on every start. */
export const REVALIDATE = 'no-cache';

/**
 * The built single-page app (`dist/`): the precompressed copies the build wrote (`.br`, `.gz`) by Accept-Encoding,
 * hashed assets cached for a year, index.html revalidated, index.html for any other GET outside /api and /assets,
 * and the API's `{error}` 404 everywhere else.
 */
export async function spaPlugin(app: FastifyInstance, opts: { root: string }) {
  const root = path.resolve(opts.root);
  const hasSpa = fs.existsSync(path.join(root, 'index.html'));
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      preCompressed: true,
      // Cache-Control is set per file below, not @fastify/send's `public, max-age=0`.
      cacheControl: false,
      setHeaders: (reply, file) => {
        reply.header('cache-control', path.relative(root, file).startsWith(`assets${path.sep}`) ? IMMUTABLE : REVALIDATE);
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    // A missing hashed asset (an old build's chunk) is a 404, not index.html served as JavaScript.
    if (req.method === 'GET' && hasSpa && !req.url.startsWith('/api') && !req.url.startsWith('/assets/'))
      return reply.type('text/html').sendFile('index.html');
    return reply.status(404).send({ error: 'Not Found' });
  });
}
