import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EventRecord, type EventSubject } from '../../src/domain/history';
import type { PermissionName } from '../../src/domain/permissions';
import type { Caller } from './caller';
import { callerOf } from './caller';
import { HISTORY_CSV_COLUMNS } from './history';
import { dataReply, recordErrors } from './replies';

/** What a service's history route calls: the subject's events as records, or as CSV with `format=csv`. */
export type HistoryRead = (
  caller: Pick<Caller, 'scope'>,
  id: string,
  format?: 'csv',
) => Promise<{ events: EventRecord[] } | { csv: string }>;

/**
 * `GET <plural>/{id}/history` of a scan or a quote (permission `scan`, the subject's own scope): its events, oldest
 * first, those the reader's scope reaches; `format=csv` sends them as a CSV attachment.
 */
export function historyRoutes(
  app: FastifyInstance,
  opts: { subject: EventSubject; permission: PermissionName; read: HistoryRead },
  done: () => void,
) {
  const { subject, read } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    `/${subject}s/:id/history`,
    {
      config: { access: { permission: opts.permission } },
      schema: {
        tags: [subject === 'scan' ? 'Scan' : 'Quote'],
        summary: `The ${subject}'s history: who changed what, when (oldest first)`,
        description:
          `Every write of the ${subject} leaves one event: the user (and the Super Admin impersonating them), the action and the ` +
          `changed fields before and after. Events are scoped by the agent and client the ${subject} had when they happened. ` +
          `With format=csv: a CSV attachment (UTF-8 with BOM; columns ${HISTORY_CSV_COLUMNS.join(', ')}; Melbourne times).`,
        params: z.object({ id: z.string() }),
        querystring: z.object({ format: z.enum(['csv'], { message: 'Format must be csv' }).optional() }),
        response: { 200: z.union([dataReply(z.array(EventRecord)), z.string().describe('The CSV file')]), ...recordErrors },
      },
    },
    async (req, reply) => {
      const history = await read(callerOf(req), req.params.id, req.query.format);
      if ('events' in history) return { data: history.events };
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${subject}-${req.params.id}-history.csv"`)
        .header('cache-control', 'private, no-store')
        .send(history.csv);
    },
  );
  done();
}
