import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EvaluationRecord, ScanItemRecord } from '../../../src/domain/records';
import { RESOURCES } from '../../../src/domain/resources';
import { safeString, fromDecimalText } from '../../../src/domain/text';
import { callerOf } from '../../lib/caller';
import { dataReply, recordErrors } from '../../lib/replies';
import type { scanEvaluation } from './evaluate-service';

const SearchBody = z.object({
  /** Our id of one scan. */
  scan_id: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    fromDecimalText(
      z
        .number({ error: 'Scan must be an id' })
        .int('Scan must be an id')
        .positive('Scan must be an id')
        .max(Number.MAX_SAFE_INTEGER)
        .optional(),
    ),
  ),
  /** As the list's q: a registration prefix, make or model prefix, part of a client's or agent's name. */
  q: z.preprocess((v) => (v === '' || v === null ? undefined : v), safeString('Search').trim().max(200).optional()),
  per_page: fromDecimalText(z.number().int().min(1).max(50).default(20)),
});

/**
 * The quote screen's scan calls, permission `scan`, scoped like the scan list: `GET scans/{id}/evaluate`
 * and `POST scans/search`.
 */
export function evaluateRoutes(app: FastifyInstance, opts: { evaluation: ReturnType<typeof scanEvaluation> }, done: () => void) {
  const { evaluation } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Scan'];
  const access = { permission: RESOURCES.scans.permission };

  r.get(
    '/scans/:id/evaluate',
    {
      config: { access },
      schema: {
        tags,
        summary: "What the quote screen prices the scan with: its counts, its client's prices and each panel's category",
        description:
          'new_damage_only=1: the counts are the scan’s gains over its vehicle’s previous scan (its stored comparison), as a ' +
          'new-damage-only quote prices them; ignored when the scan has no comparison.',
        params: z.object({ id: z.string() }),
        querystring: z.object({ new_damage_only: z.enum(['0', '1']).optional() }),
        response: { 200: dataReply(EvaluationRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await evaluation.evaluate(callerOf(req), req.params.id, req.query.new_damage_only === '1') }),
  );

  r.post(
    '/scans/search',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Find scans by id or search text (at most per_page, newest first)',
        description: 'Body {scan_id?, q?, per_page? (≤ 50, default 20)}: the scans the user may see that match, as list rows.',
        body: SearchBody,
        response: { 200: dataReply(z.array(ScanItemRecord)), ...recordErrors },
      },
    },
    async (req) => ({ data: await evaluation.search(callerOf(req), req.body) }),
  );
  done();
}
