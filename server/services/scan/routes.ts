import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { inputSchema } from '../../../src/domain/fields';
import { inScope } from '../../../src/domain/permissions';
import {
  EXPORT_FORMATS,
  manualScanFields,
  SCAN_VEHICLE_FIELDS,
  scanDate,
  scanUpdateBody,
  scanVehicleFields,
} from '../../../src/domain/scans';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import { dataReply, recordErrors } from '../../lib/replies';
import { checkReferences } from '../../lib/resource';
import { FILE_LINK_MINUTES, signedFileUrl, storageOf } from '../../lib/storage';
import { broadcastScan, queueScanEvent } from './events';
import { countUpTo, findScanDetail, findScanItem, listScans, refreshCounts, SCAN_TIME_ZONE, scanSelection } from './repository';
import { buildExport, EXPORT_TTL_HOURS, recordExport } from './export';
import { ScanDetailRecord, ScanFilterQuery, ScanItemRecord, ScanListQuery, ScanPageReply } from './schemas';
import { deleteScan, parseScanId, SCAN_MODEL, writeScanReport } from './service';

/** An export holds at most this many scans; more must be narrowed by the filters. */
export const EXPORT_MAX_ROWS = 200_000;

/** Wire name -> column for the editable vehicle fields. */
const COLUMN: Record<string, string> = { licensePlate: 'license_plate', carColor: 'car_color' };

const IdParams = z.object({ id: z.string() });
const ManualScanBody = inputSchema(manualScanFields).extend({
  startTime: z.preprocess((v) => (v === '' || v === null ? undefined : v), scanDate('Start Time').optional()),
  // The portal sends these too; the server resolves the client's name and forces type tire, status uploaded (spec 2 §9).
  client_name: z.unknown().optional(),
  type: z.unknown().optional(),
  status: z.unknown().optional(),
});

/** The scan list and the scan record (spec 2 §7), permission `scan`, scoped by the user's agents and clients. */
export function scanRoutes(app: FastifyInstance, _opts: unknown, done: () => void) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Scan'];
  const access = { permission: 'scan' };
  const notFound = (id: number | string) => new NotFoundError(SCAN_MODEL, id);
  const detail = async (req: FastifyRequest, id: number) => {
    const scan = await findScanDetail(app.db, id, req.scope);
    if (!scan) throw notFound(id);
    return scan;
  };

  r.get(
    '/scans',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Page of scans, newest first',
        description:
          'Filters: q (registration prefix, make, model, client or agent name), ts/te (YYYY-MM-DD or YYYY-MM-DD HH:mm:ss in Australia/Melbourne time, ' +
          'te inclusive), ago (48h: the customer portal), status, type, agent_id, client_id, location_id. `total` is exact when only the scope, one agent or one client, and a date range narrow the list; ' +
          'with q, status, type or location_id and beyond 10,000 matches it is an estimate and `total_is_estimate` is true.',
        querystring: ScanListQuery,
        response: { 200: ScanPageReply, ...recordErrors },
      },
    },
    async (req) => {
      const { page, per_page, ...filters } = req.query;
      const { items, total, estimate } = await listScans(app.db, await scanSelection(app.db, req.scope, filters), page, per_page);
      return { items, total, total_is_estimate: estimate };
    },
  );

  r.get(
    '/scans/export-scan-report',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Export the filtered scans as CSV or XLSX; replies the file URL',
        description:
          `Same filters and scope as GET scans; format csv (default) or xlsx. Writes the file (CSV: UTF-8 with BOM; both: Melbourne times) to the file ` +
          `store and replies {data: {url}}: a download link signed for this user, valid ${FILE_LINK_MINUTES} minutes (the file itself also answers ` +
          `this user's bearer token); at most ${EXPORT_MAX_ROWS} rows. The file is removed ${EXPORT_TTL_HOURS} hours later.`,
        querystring: ScanFilterQuery.extend({
          format: z.preprocess(
            (v) => (v === '' ? undefined : v),
            z.enum(EXPORT_FORMATS, { message: 'Format must be csv or xlsx' }).default('csv'),
          ),
          page: z.unknown().optional(),
          per_page: z.unknown().optional(),
        }),
        response: {
          200: dataReply(
            z.object({ url: z.string() }).meta({
              example: { url: '/api/user/files/0f8c6b1e2d3a4f5e6a7b8c9d0e1f2a3b.csv?expires=1764000000&uid=1&sig=<43 characters>' },
            }),
          ),
          ...recordErrors,
        },
      },
    },
    async (req) => {
      const { format, ...filters } = req.query;
      delete filters.page;
      delete filters.per_page;
      const selection = await scanSelection(app.db, req.scope, filters);
      if ((await countUpTo(app.db, selection, EXPORT_MAX_ROWS)) > EXPORT_MAX_ROWS)
        throw new ValidationError({ ts: `An export holds at most ${EXPORT_MAX_ROWS.toLocaleString('en-AU')} scans: narrow the filters` });
      const file = await buildExport(app.db, selection.where, format);
      const key = await storageOf(app).put(file.data, file.contentType);
      await recordExport(app.db, key, req.user!.id, format, file.count);
      // The browser downloads through a plain link (no bearer token): a short-lived link signed for this user.
      return { data: { url: signedFileUrl(app.signer, key, req.user!.id) } };
    },
  );

  r.get(
    '/scans/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'One scan with everything the scan page shows',
        params: IdParams,
        response: { 200: dataReply(ScanDetailRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await detail(req, parseScanId(req.params.id)) }),
  );

  r.put(
    '/scans/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: "Update a scan's vehicle fields",
        description:
          'Any of licensePlate, make, model, carColor, body_type, valuation (digits, commas allowed), location_state, client_id; a blank value clears the field. ' +
          'client_name is resolved by the server from client_id, which must be a client the user may see.',
        params: IdParams,
        body: scanUpdateBody.meta({ example: { licensePlate: '1AB2CD', carColor: 'Silver', valuation: '18,500' } }),
        response: { 200: dataReply(ScanDetailRecord), ...recordErrors },
      },
    },
    async (req) => {
      const id = parseScanId(req.params.id);
      const current = await findScanItem(app.db, id, req.scope);
      if (!current) throw notFound(id);
      const body = req.body as Record<string, unknown>;
      const columns: Record<string, unknown> = {};
      for (const field of SCAN_VEHICLE_FIELDS) if (field in body) columns[COLUMN[field] ?? field] = body[field] ?? null;
      if (Object.keys(columns).length) {
        const item = await app.db.transaction().execute(async (trx) => {
          // The client must be one the user may see (issue 14), checked in the writing transaction; the scan's own may stay.
          await checkReferences(trx, req, scanVehicleFields, body, { current: { client_id: current.client_id } });
          const sets = Object.entries(columns).map(([c, v]) => sql`${sql.ref(c)} = ${v}`);
          await sql`update scans set ${sql.join([...sets, sql`updated_at = now()`])} where id = ${id}`.execute(trx);
          // A Client user who moves a scan to a client outside their scope would lose it: refused, nothing kept.
          if (!(await findScanItem(trx, id, req.scope))) throw new ForbiddenError();
          return queueScanEvent(trx, 'updated', id);
        });
        if (current.status === 'uploaded') await writeScanReport(app.db, storageOf(app), id, req.log);
        await broadcastScan(app, 'updated', item);
      }
      return { data: await detail(req, id) };
    },
  );

  r.delete(
    '/scans/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Delete a scan with its images, videos and reports',
        params: IdParams,
        response: { 200: dataReply(ScanItemRecord), ...recordErrors },
      },
    },
    async (req) => {
      const id = parseScanId(req.params.id);
      const item = await findScanItem(app.db, id, req.scope);
      if (!item) throw notFound(id);
      await deleteScan(app.db, storageOf(app), id, req.log);
      return { data: item };
    },
  );

  r.post(
    '/scans',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Create a manual scan (type tire, status uploaded)',
        description:
          "Body agent_id (an agent the user may see), client_id (default: the agent's default client), startTime. type, status and client_name are " +
          'accepted and ignored: a manual scan is always a tire scan with status uploaded (spec 2 §9).',
        body: ManualScanBody.meta({
          example: {
            agent_id: 1,
            client_id: 1,
            client_name: 'Southern Cross Insurance',
            startTime: '2024-05-31 17:30:00',
            type: 'tire',
            status: 'uploaded',
          },
        }),
        response: { 201: dataReply(ScanDetailRecord), ...recordErrors },
      },
    },
    async (req, reply) => {
      // inputSchema checked them: agent_id a positive id, client_id one or absent, startTime a date or absent.
      const agentId = Number(req.body.agent_id);
      const wantedClient = req.body.client_id == null ? null : Number(req.body.client_id);
      const startTime = typeof req.body.startTime === 'string' ? req.body.startTime : null;
      const { id, item } = await app.db.transaction().execute(async (trx) => {
        // The agent and the client must be ones the user may see (issue 14): 422 on the field, nothing stored.
        await checkReferences(trx, req, manualScanFields, { agent_id: agentId, client_id: wantedClient });
        const agent = await sql<{ default_client_id: number | null }>`select default_client_id from agents where id = ${agentId}`.execute(
          trx,
        );
        const clientId = wantedClient ?? agent.rows[0].default_client_id;
        // A defaulted client outside a Client user's scope would hide the scan from them: refused.
        if (!inScope(req.scope, { agent_id: agentId, client_id: clientId })) throw new ForbiddenError();
        const start = startTime
          ? /(Z|[+-]\d{2}:?\d{2})$/.test(startTime)
            ? sql`${startTime}::timestamptz`
            : sql`(${startTime.replace('T', ' ')}::timestamp at time zone ${SCAN_TIME_ZONE})`
          : sql`now()`;
        const inserted = await sql<{ id: number }>`insert into scans (scan_id, agent_id, client_id, type, status, scanned_at, start_time)
        values (${randomUUID()}, ${agentId}, ${clientId}, 'tire', 'uploaded', now(), ${start}) returning id`.execute(trx);
        return { id: inserted.rows[0].id, item: await queueScanEvent(trx, 'created', inserted.rows[0].id) };
      });
      // Every uploaded scan has its report, a manual one too (vehicle and client, no damage).
      await writeScanReport(app.db, storageOf(app), id, req.log);
      await broadcastScan(app, 'created', item);
      return reply.status(201).send({ data: await detail(req, id) });
    },
  );

  r.post(
    '/scans/:id/refresh',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Refresh a scan: recount its damage totals, write a missing report, and reply the scan',
        params: IdParams,
        response: { 200: dataReply(ScanDetailRecord), ...recordErrors },
      },
    },
    async (req) => {
      const id = parseScanId(req.params.id);
      const item = await findScanItem(app.db, id, req.scope);
      if (!item) throw notFound(id);
      const changed = await app.db.transaction().execute(async (trx) => {
        const counts = async () => {
          const row = await findScanItem(trx, id);
          return `${row?.dentCount}/${row?.scratchCount}`;
        };
        const before = await counts();
        await refreshCounts(trx, id, false);
        // Only a recount that changed the totals is news to the webhooks and the live list.
        return (await counts()) === before ? null : queueScanEvent(trx, 'updated', id);
      });
      await broadcastScan(app, 'updated', changed);
      const hasReport = await sql<{ id: number }>`select id from scan_reports where scan_id = ${id} and kind = 'scan_report'`.execute(
        app.db,
      );
      if (item.status === 'uploaded' && !hasReport.rows[0]) await writeScanReport(app.db, storageOf(app), id, req.log);
      return { data: await detail(req, id) };
    },
  );
  done();
}
