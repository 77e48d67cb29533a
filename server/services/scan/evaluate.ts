import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { DENT_LEVELS } from '../../../src/domain/pricing';
import { ScanItemRecord } from '../../../src/domain/records';
import { RESOURCES } from '../../../src/domain/resources';
import { safeString } from '../../../src/domain/text';
import type { Database } from '../../db/database';
import { NotFoundError } from '../../errors';
import { loadPanels, loadPricingClient, loadScanMeasures, thresholdCategories } from '../../lib/pricing-inputs';
import { dataReply, recordErrors } from '../../lib/replies';
import { findScanItem, listScans, scanSelection } from './repository';
import { parseScanId, SCAN_MODEL } from './service';

const Level = z.enum(DENT_LEVELS);
const LevelCounts = z.object(
  Object.fromEntries(DENT_LEVELS.map((l) => [l, z.number()])) as Record<(typeof DENT_LEVELS)[number], z.ZodNumber>,
);
const money = z.number();

/** `GET scans/{id}/evaluate` (spec 3 §3 Quote evaluation): what the quote screen prices a scan with. */
export const EvaluationRecord = z.object({
  measures: z.object({
    dents: z.record(z.string(), LevelCounts),
    scratchs: z.record(z.string(), LevelCounts),
    damage_count: z.object({ dents: z.record(z.string(), z.number()), scratchs: z.record(z.string(), z.number()) }),
  }),
  /** The scan's client with its matrices (GET clients/{id}'s prices) and each car panel's category; null when the scan has none. */
  client: z
    .object({
      id: z.number(),
      name: z.string(),
      currency: z.string(),
      sc_metallic: z.number(),
      sc_pearl: z.number(),
      sc_p2p: z.number(),
      calculation_method: z.enum(['T', 'W']),
      sc_threshold: z.number().nullable(),
      weighted_no: z.object(Object.fromEntries(DENT_LEVELS.map((l) => [l, z.number().nullable()]))).nullable(),
      products: z.array(z.number()),
      parts: z.array(z.number()),
      prices: z.object({
        dent: z.record(z.string(), z.record(z.string(), money)),
        scratch: z.record(z.string(), z.record(z.string(), money)),
      }),
      logo: z.string().nullable(),
      phone: z.string().nullable(),
      address: z.string().nullable(),
      email: z.string().nullable(),
      abn: z.string().nullable(),
      /** Keyed by car panel: the category of its dents under the client's method (PRICING.md), null without dents. */
      thresholdCategory: z.record(z.string(), Level.nullable()),
    })
    .nullable(),
  /** The enabled catalogue panels by car view, each with the part that prices it and its category on this scan. */
  panels: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      label: z.string(),
      car_panel: z.string().nullable(),
      type: z.enum(['D', 'L', 'XL']),
      hasLargeVariant: z.boolean(),
      part_id: z.number().nullable(),
      panel_group_id: z.number(),
      panel_group_name: z.string().nullable(),
      position: z.number(),
      thresholdCategory: Level.nullable(),
    }),
  ),
  scanInfo: ScanItemRecord,
});

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
 * The quote screen's scan calls (spec 2 §7, spec 3 §7), permission `scan`, scoped like the scan list: `GET scans/{id}/evaluate`
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
      const [measures, panels, client] = await Promise.all([
        loadScanMeasures(db, id),
        loadPanels(db),
        scanInfo.client_id === null ? null : loadPricingClient(db, scanInfo.client_id),
      ]);
      const categories = client ? thresholdCategories(client, panels, measures) : {};
      return {
        data: {
          measures,
          client: client ? { ...client, thresholdCategory: categories } : null,
          panels: panels.map((p) => ({ ...p, thresholdCategory: p.car_panel ? (categories[p.car_panel] ?? null) : null })),
          scanInfo,
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
