import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
  }
}

/** Shares the database with the routes; the owner of the pool (server.ts or a test) closes it. */
export const databasePlugin = fp(async (app: FastifyInstance, opts: { db: Database }) => {
  app.decorate('db', opts.db);
});
