import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { dataScope } from '../../../src/domain/permissions';
import { ListsReply, recordErrors } from '../../lib/replies';
import { idArray, scopePredicate, type ScopeRule } from '../../lib/resource';

/** A client is a Client user's own; an Agent user sees the clients their agents serve. */
export const clientScope: ScopeRule = {
  client: (ids) => sql<boolean>`id = any(${idArray(ids)})`,
  agent: (ids) => sql<boolean>`(id in (select default_client_id from agents where id = any(${idArray(ids)}))
    or id in (select default_client_id from devices where agent_id = any(${idArray(ids)})))`,
};

/** The quote service (/api/quote): the client selector now; clients, products, parts, panels and quotes next. */
export async function quoteService(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/clients/lists', {
    config: { access: 'signed-in' },
    schema: { tags: ['Client'], summary: 'Clients the user may select', response: { 200: ListsReply, ...recordErrors } },
  }, async (req) => {
    const rows = await sql<{ text: string; value: number }>`select name as text, id as value from clients
      where ${scopePredicate(dataScope(req.user!), clientScope)} order by name`.execute(app.db);
    return rows.rows;
  });
}
