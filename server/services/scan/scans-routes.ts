import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConflictReply } from '../../../src/domain/versions';
import { exportFormatField, orderedDays, reportLanguageField, scanUpdateBody } from '../../../src/domain/scans';
import { callerOf } from '../../lib/caller';
import { dataReply, recordErrors } from '../../lib/replies';
import { FILE_LINK_MINUTES } from '../../lib/storage';
import { ManualScanBody, ScanDetailRecord, ScanFilterQuery, ScanItemRecord, ScanListQuery, ScanPageReply } from './schemas';
import { type scanRecords } from './scans-service';
import { REPORT_MAX_ROWS, REPORT_TTL_HOURS } from '../../lib/report-file';
import { RESOURCES } from '../../../src/domain/resources';

const IdParams = z.object({ id: z.string() });

/**
 * The scan list and the scan record, scoped by the user's agents and clients: reading needs `scan`, every
 * change (vehicle fields, manual scan, refresh, delete) `scan_edit`.
 */
export function scanRoutes(app: FastifyInstance, opts: { scans: ReturnType<typeof scanRecords> }, done: () => void) {
  const { scans } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Scan'];
  const access = { permission: RESOURCES.scans.permission };
  const edit = { permission: RESOURCES.scans.edit };

  r.get(
    '/scans',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Page of scans, newest first',
        description:
          'Filters: q (registration prefix, make, model, client or agent name), ts/te (YYYY-MM-DD or YYYY-MM-DD HH:mm:ss in Australia/Melbourne time, ' +
          'te inclusive), ago (48h: the customer portal), status, type, agent_id, client_id, location_id, new_damage (true: damage new since the ' +
          'vehicle’s previous scan; false: none; each row’s new_damage counts it). `total` is exact when only the scope, one agent or one client, and a date range narrow the list; ' +
          'with q, status, type, location_id or new_damage and beyond 10,000 matches it is an estimate and `total_is_estimate` is true.',
        querystring: ScanListQuery,
        response: { 200: ScanPageReply, ...recordErrors },
      },
    },
    async (req) => scans.list(callerOf(req), req.query),
  );

  r.get(
    '/scans/export-scan-report',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Export the filtered scans as CSV or XLSX; replies the file URL',
        description:
          `Same filters and scope as GET scans; format csv (default) or xlsx; lang en (default) or ja, the language of the headings and words. Writes the file (CSV: UTF-8 with BOM; both: Melbourne times) to the file ` +
          `store and replies {data: {url}}: a download link signed for this user, valid ${FILE_LINK_MINUTES} minutes (the file itself also answers ` +
          `this user's bearer token); at most ${REPORT_MAX_ROWS} rows. The file is removed ${REPORT_TTL_HOURS} hours later.`,
        querystring: ScanFilterQuery.extend({
          format: exportFormatField,
          lang: reportLanguageField,
          page: z.unknown().optional(),
          per_page: z.unknown().optional(),
        }).refine(...orderedDays('ts', 'te')),
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
    async (req) => ({ data: await scans.exportReport(callerOf(req), req.query) }),
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
    async (req) => ({ data: await scans.detail(callerOf(req), req.params.id) }),
  );

  r.put(
    '/scans/:id',
    {
      config: { access: edit },
      schema: {
        tags,
        summary: "Update a scan's vehicle fields",
        description:
          'Any of licensePlate, make, model, carColor, body_type, valuation (digits, commas allowed), location_state, client_id; a blank value clears the field. ' +
          'client_name is resolved by the server from client_id, which must be a client the user may see.' +
          " `version`: the scan's version the edit was made from; from another version: 409 with `conflict`, nothing stored.",
        params: IdParams,
        body: scanUpdateBody.meta({ example: { licensePlate: '1AB2CD', carColor: 'Silver', valuation: '18,500', version: 3 } }),
        response: { 200: dataReply(ScanDetailRecord), 409: ConflictReply, ...recordErrors },
      },
    },
    async (req) => ({ data: await scans.update(callerOf(req), req.params.id, req.body) }),
  );

  r.delete(
    '/scans/:id',
    {
      config: { access: edit },
      schema: {
        tags,
        summary: 'Delete a scan with its images, videos and reports',
        params: IdParams,
        response: { 200: dataReply(ScanItemRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await scans.remove(callerOf(req), req.params.id) }),
  );

  r.post(
    '/scans',
    {
      config: { access: edit },
      schema: {
        tags,
        summary: 'Create a manual scan (type tire, status uploaded)',
        description:
          "Body agent_id (an agent the user may see), client_id (default: the agent's default client), startTime. type, status and client_name are " +
          'accepted and ignored: a manual scan is always a tire scan with status uploaded.',
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
    async (req, reply) => reply.status(201).send({ data: await scans.createManual(callerOf(req), req.body) }),
  );

  r.post(
    '/scans/:id/refresh',
    {
      config: { access: edit },
      schema: {
        tags,
        summary: 'Refresh a scan: recount its damage totals, write a missing report, and reply the scan',
        params: IdParams,
        response: { 200: dataReply(ScanDetailRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await scans.refresh(callerOf(req), req.params.id) }),
  );
  done();
}
