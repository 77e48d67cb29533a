import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { EvaluationRecord, ScanItemRecord } from '../../../src/domain/records';
import { RESOURCES } from '../../../src/domain/resources';
import { safeString } from '../../../src/domain/text';
import type { Database } from '../../db/database';
import { NotFoundError } from '../../errors';
import {
  loadGstPercent,
  loadPanels,
  loadPricingClient,
  loadScanMeasures,
  loadTyreChoices,
  thresholdCategories,
} from '../../lib/pricing-inputs';
import { dataReply, recordErrors } from '../../lib/replies';
import { findScanItem, listScans, scanSelection } from './repository';
import { parseScanId, SCAN_MODEL } from './service';

const SearchBody = z.object({
  /** Our id of one scan. */
  scan_id: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: 'Scan must be an id' })
      .int('Scan must be an id')
      .positive('Scan must be an id')
      .max(Number.MAX_SAFE_INTEGER)
      .optional(),
  ),
  /** As the list's q: a registration prefix, make or model prefix, part of a client's or agent's name. */
  q: z.preprocess((v) => (v === '' || v === null ? undefined : v), safeString('Search').trim().max(200).optional()),
  per_page: z.coerce.number().int().min(1).max(50).default(20),
});

/**
 * The quote screen's scan calls, permission `scan`, scoped like the scan list: `GET scans/{id}/evaluate`
 * and `POST scans/search`.
 */
export function evaluateRoutes(app: FastifyInstance, opts: { db: Database }, done: () => void) {
  const { db } = opts;
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
        params: z.object({ id: z.string() }),
        response: { 200: dataReply(EvaluationRecord), ...recordErrors },
      },
    },
    async (req) => {
      const id = parseScanId(req.params.id);
      const scanInfo = await findScanItem(db, id, req.scope);
      if (!scanInfo) throw new NotFoundError(SCAN_MODEL, id);
      const [measures, panels, client, gst_percent, tyres] = await Promise.all([
        loadScanMeasures(db, id),
        loadPanels(db),
        scanInfo.client_id === null ? null : loadPricingClient(db, scanInfo.client_id),
        loadGstPercent(db),
        loadTyreChoices(db, id),
      ]);
      const categories = client ? thresholdCategories(client, panels, measures) : {};
      return {
        data: {
          measures,
          client: client ? { ...client, thresholdCategory: categories } : null,
          panels: panels.map((p) => ({ ...p, thresholdCategory: p.car_panel ? (categories[p.car_panel] ?? null) : null })),
          scanInfo,
          tyres,
          gst_percent,
        },
      };
    },
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
    async (req) => {
      const { scan_id, q, per_page } = req.body;
      const sel = await scanSelection(db, req.scope, { q });
      if (scan_id !== undefined) sel.where = sql<boolean>`${sel.where} and s.id = ${scan_id}`;
      sel.counted = null;
      const { items } = await listScans(db, sel, 1, per_page);
      return { data: items };
    },
  );
  done();
}
