import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  annotateBody,
  DAMAGE_COUNT_MAX,
  DAMAGE_LEVELS,
  editDamageCountBody,
  EXPORT_FORMATS,
  scanUpdateBody,
  TYRE_REPAIR_TYPES,
  tyreRepairBody,
} from '../../../src/domain/scans';
import { AnnotateRecord, ArchDataRecord, ScanMetaRecord, TyreRepairRecord } from '../../../src/domain/records';
import { messages } from '../../../src/domain/fields';
import { IMAGE_MAX_BYTES } from '../../lib/images';
import { multipartBody } from '../../lib/multipart';
import { scanUploadRoom } from '../../lib/upload-quota';
import { dataReply, MessageReply, recordErrors } from '../../lib/replies';
import { FILE_LINK_MINUTES } from '../../lib/storage';
import { EXPORT_TTL_HOURS } from './export';
import { ManualScanBody, ScanDetailRecord, ScanFilterQuery, ScanItemRecord, ScanListQuery, ScanPageReply } from './schemas';
import { EXPORT_MAX_ROWS, type scanRecords } from './service';
import { RESOURCES } from '../../../src/domain/resources';

const IdParams = z.object({ id: z.string() });

/**
 * The scan list and the scan record, scoped by the user's agents and clients: reading needs `scan`, every
 * change (vehicle fields, manual scan, refresh, delete, damage counts, saved images, tyre choices) `scan_edit`.
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
          'te inclusive), ago (48h: the customer portal), status, type, agent_id, client_id, location_id. `total` is exact when only the scope, one agent or one client, and a date range narrow the list; ' +
          'with q, status, type or location_id and beyond 10,000 matches it is an estimate and `total_is_estimate` is true.',
        querystring: ScanListQuery,
        response: { 200: ScanPageReply, ...recordErrors },
      },
    },
    async (req) => scans.list(req, req.query),
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
    async (req) => ({ data: await scans.exportReport(req, req.query) }),
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
    async (req) => ({ data: await scans.detail(req, req.params.id) }),
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
          'client_name is resolved by the server from client_id, which must be a client the user may see.',
        params: IdParams,
        body: scanUpdateBody.meta({ example: { licensePlate: '1AB2CD', carColor: 'Silver', valuation: '18,500' } }),
        response: { 200: dataReply(ScanDetailRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await scans.update(req, req.params.id, req.body) }),
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
    async (req) => ({ data: await scans.remove(req, req.params.id) }),
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
    async (req, reply) => reply.status(201).send({ data: await scans.createManual(req, req.body) }),
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
    async (req) => ({ data: await scans.refresh(req, req.params.id) }),
  );

  // ---- The scan page ----

  r.get(
    '/meta/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: "A scan's meta images (null when the device sent none: the page then shows no tabs)",
        params: IdParams,
        response: { 200: dataReply(ScanMetaRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await scans.meta(req, req.params.id) }),
  );

  r.get(
    '/archData/search',
    {
      config: { access },
      schema: {
        tags,
        summary: "The car sketch: the scan's counts by measure and the panel groups with their panels' dent and scratch counts",
        description: "`scan_id` is the scan's id; `arch_id` (a legacy parameter) is accepted and ignored: a scan has one set of counts.",
        querystring: z.object({
          scan_id: z.coerce
            .number({ error: messages.type('Scan', 'an id') })
            .int(messages.type('Scan', 'an id'))
            .positive(messages.type('Scan', 'an id'))
            .max(Number.MAX_SAFE_INTEGER, messages.type('Scan', 'an id')),
          arch_id: z.string().max(100).optional(),
        }),
        response: { 200: dataReply(ArchDataRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await scans.archData(req, req.query.scan_id) }),
  );

  r.post(
    '/scans/arch/edit-damage-count',
    {
      config: { access: edit },
      schema: {
        tags,
        summary: "Edit a panel's dent and scratch counts per level; the scan's totals follow",
        description:
          `dents and scratchs keyed by lower-case level (${DAMAGE_LEVELS.join(', ')}), each a whole number from 0 to ${DAMAGE_COUNT_MAX}; ` +
          'a level left out keeps its count. car_panel must be a panel code of the catalogue or one the scan counts. The totals are ' +
          'recomputed in the same transaction, `scan.updated` webhooks are queued with it, and the live `updated` event follows. Replies the scan.',
        body: editDamageCountBody.meta({
          example: {
            scan_id: 1042,
            car_panel: 'bonnet',
            dents: { light: 2, medium: 1, heavy: 0, severe: 0, oversize: 0 },
            scratchs: { light: 1 },
          },
        }),
        response: { 200: dataReply(ScanDetailRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await scans.editDamageCount(req, req.body) }),
  );

  r.post(
    '/scans/:id/annotates',
    {
      config: { access: edit },
      preValidation: multipartBody({ file: 'file' }, { room: (req) => scanUploadRoom(req.server.db, (req.params as { id: string }).id) }),
      schema: {
        tags,
        summary: 'Save a cropped or annotated image with the scan (multipart)',
        description:
          `Parts: \`file\` (PNG, JPEG or WebP by its bytes, at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB; counted in the agent's upload quota), ` +
          '`edit` (1 to replace the saved image `image_id`, whose file then leaves storage), `scan_id` (accepted, the path names the scan). ' +
          'Replies the saved image: 201 when new, 200 when replaced.',
        params: IdParams,
        consumes: ['multipart/form-data'],
        body: annotateBody,
        response: { 200: dataReply(AnnotateRecord), 201: dataReply(AnnotateRecord), ...recordErrors },
      },
    },
    async (req, reply) => {
      const saved = await scans.saveAnnotate(req, req.params.id, req.body);
      return reply.status(req.body.edit ? 200 : 201).send({ data: saved });
    },
  );

  r.delete(
    '/scans/:id/annotates/:imageId',
    {
      config: { access: edit },
      schema: {
        tags,
        summary: 'Delete a saved image of the scan (a vehicle photo too)',
        params: z.object({ id: z.string(), imageId: z.string() }),
        response: { 200: MessageReply, ...recordErrors },
      },
    },
    async (req) => ({ data: await scans.deleteAnnotate(req, req.params.id, req.params.imageId) }),
  );

  r.put(
    '/scans/:id/tyre-repairs',
    {
      config: { access: edit },
      schema: {
        tags,
        summary: "Choose a wheel's repair (agent viewer); replies every choice of the scan",
        description:
          `row and direction (L or R) name a wheel the scan has tyre data for; repair_type ${TYRE_REPAIR_TYPES.map((t) => `${t.id} (${t.name})`).join(', ')}, ` +
          'or null to clear. One choice per wheel: choosing again replaces it.',
        params: IdParams,
        body: tyreRepairBody.meta({ example: { row: 1, direction: 'L', repair_type: 'recheck' } }),
        response: { 200: dataReply(z.array(TyreRepairRecord)), ...recordErrors },
      },
    },
    async (req) => ({ data: await scans.setTyreRepair(req, req.params.id, req.body) }),
  );
  done();
}
