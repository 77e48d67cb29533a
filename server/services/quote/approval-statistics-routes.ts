import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { approvalStatisticsQuery } from '../../../src/domain/quotes';
import { RESOURCES } from '../../../src/domain/resources';
import { callerOf } from '../../lib/caller';
import { dataReply, recordErrors } from '../../lib/replies';
import type { Executor } from '../../db/database';
import { approvalStatistics } from './approval-statistics-repository';

const Duration = z.object({ median_seconds: z.number().nullable(), p90_seconds: z.number().nullable() });
const ApprovalStatisticsRecord = z.object({
  sent: z.number().int(),
  approved: z.number().int(),
  partially_approved: z.number().int(),
  declined: z.number().int(),
  expired: z.number().int(),
  scan_to_approval: Duration,
  send_to_approval: Duration,
});

/**
 * GET quotes/approval-statistics: the dashboard's approval figures (permission `scan`, which reads quotes), for the
 * links sent in the range, inside the caller's agents and clients (the header selection narrowing).
 */
export function approvalStatisticsRoutes(app: FastifyInstance, opts: { db: Executor }, done: () => void) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/quotes/approval-statistics',
    {
      config: { access: { permission: RESOURCES.quotes.permission } },
      schema: {
        tags: ['Dashboard'],
        summary: 'Quotes sent for approval, their answers, and how long approval took',
        description:
          'For the approval links sent within ts–td (YYYY-MM-DD or YYYY-MM-DD HH:mm:ss, Melbourne time, td inclusive) in the ' +
          'caller’s scope, filtered by agent_id, client_id and the scan’s location_id: links sent; answered approved, partially ' +
          'approved or declined; expired unanswered; and the median and 90th percentile, in seconds, from the scan and from the ' +
          'sending to an approval (approved or partially approved).',
        querystring: approvalStatisticsQuery,
        response: { 200: dataReply(ApprovalStatisticsRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await approvalStatistics(opts.db, callerOf(req).scope, req.query) }),
  );
  done();
}
