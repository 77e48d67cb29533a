import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { dataScope } from '../../../src/domain/permissions';
import { NotFoundError } from '../../errors';
import { dataReply, ListsReply, recordErrors } from '../../lib/replies';
import { scopePredicate } from '../../lib/resource';
import { agentScope } from './scopes';

const Branding = z.object({ id: z.number(), name: z.string(), primary_color: z.string(), text_color: z.string(), logo: z.string().nullable() });

/**
 * What the header's agent selector needs (the agents screens come with the catalogue).
 * Calls with agents in their path ignore the X_SNG_* selection (spec 1 §7), so they use the user's own scope.
 */
export async function agentSelectorRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Agent'];

  r.get('/agents/lists', {
    config: { access: 'signed-in' },
    schema: { tags, summary: 'Agents the user may select', response: { 200: ListsReply, ...recordErrors } },
  }, async (req) => {
    const rows = await sql<{ text: string; value: number }>`select name as text, id as value from agents
      where ${scopePredicate(dataScope(req.user!), agentScope)} order by name`.execute(app.db);
    return rows.rows;
  });

  r.get('/agents/:id/branding', {
    config: { access: 'signed-in' },
    schema: { tags, summary: "An agent's colours and logo, for the header theme", params: z.object({ id: z.string() }), response: { 200: dataReply(Branding), ...recordErrors } },
  }, async (req) => {
    if (!/^\d{1,15}$/.test(req.params.id)) throw new NotFoundError('Agent', req.params.id);
    const rows = await sql<z.infer<typeof Branding>>`select id, name, primary_color, text_color, logo from agents
      where id = ${Number(req.params.id)} and ${scopePredicate(dataScope(req.user!), agentScope)}`.execute(app.db);
    if (!rows.rows[0]) throw new NotFoundError('Agent', req.params.id);
    return { data: rows.rows[0] };
  });
}
