import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countedDate, orderedDays } from '../../../src/domain/scans';
import { callerOf } from '../../lib/caller';
import { dataReply, recordErrors } from '../../lib/replies';
import { ScanFilterQuery } from './schemas';
import type { scanStatisticsService } from './statistics-service';

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const StatisticsQuerySchema = ScanFilterQuery.pick({ agent_id: true, client_id: true, location_id: true })
  .extend({
    ts: z.preprocess(blankToUndefined, countedDate('Start date').optional()),
    td: z.preprocess(blankToUndefined, countedDate('End date').optional()),
  })
  .refine(...orderedDays('ts', 'td'));

const counts = { arch: z.number().int(), chasis: z.number().int(), tire: z.number().int() };
const AgentRow = z.object({ agent_id: z.number(), agent_name: z.string(), ...counts });
const LocationRow = z.object({ location_id: z.number().nullable(), location_name: z.string().nullable(), ...counts });

/**
 * GET scans/agent-statistics and scans/location-statistics: any signed-in user (the dashboard at / needs only a
 * sign-in); the rows stay inside the user's agents and clients, the header selection narrowing.
 */
export function statisticsRoutes(app: FastifyInstance, opts: { statistics: ReturnType<typeof scanStatisticsService> }, done: () => void) {
  const { statistics } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const description =
    'Scans per type (arch, chasis, tire) in the caller’s scope (their agents or clients; X_SNG_AGENTS / X_SNG_CLIENTS narrow it), ' +
    'filtered by agent_id, client_id, location_id and ts / td (YYYY-MM-DD or YYYY-MM-DD HH:mm:ss, Melbourne time; td inclusive; ' +
    'neither: all time). Rows with no scans are left out.';
  r.get(
    '/scans/agent-statistics',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['Dashboard'],
        summary: 'Scans per agent and type',
        description,
        querystring: StatisticsQuerySchema,
        response: { 200: dataReply(z.array(AgentRow)), ...recordErrors },
      },
    },
    async (req) => ({ data: await statistics.rows(callerOf(req), req.query, 'agent') }),
  );
  r.get(
    '/scans/location-statistics',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['Dashboard'],
        summary: 'Scans per location and type (scans without a location: location_id and location_name null)',
        description,
        querystring: StatisticsQuerySchema,
        response: { 200: dataReply(z.array(LocationRow)), ...recordErrors },
      },
    },
    async (req) => ({ data: await statistics.rows(callerOf(req), req.query, 'location') }),
  );
  done();
}
