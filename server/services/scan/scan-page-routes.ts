import { fromDecimalText } from '../../../src/domain/text';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConflictReply } from '../../../src/domain/versions';
import { DAMAGE_COUNT_MAX, DAMAGE_LEVELS, TYRE_REPAIR_TYPES } from '../../../src/domain/scan-codes';
import { annotateBody, editDamageCountBody, tyreRepairBody } from '../../../src/domain/scans';
import { AnnotateRecord, ArchDataRecord, ScanMetaRecord, TyreRepairRecord } from '../../../src/domain/records';
import { messages } from '../../../src/domain/fields';
import { RESOURCES } from '../../../src/domain/resources';
import { callerOf } from '../../lib/caller';
import { IMAGE_MAX_MB } from '../../../src/domain/images';
import { multipartBody } from '../../lib/multipart';
import { scanUploadRoom } from '../../lib/upload-quota';
import { dataReply, MessageReply, recordErrors } from '../../lib/replies';
import { ScanDetailRecord } from './schemas';
import type { scanPage } from './scan-page-service';

const IdParams = z.object({ id: z.string() });

/**
 * The scan page's own calls (docs/scan-page.md), scoped like the scan record: reading needs `scan`, changing
 * (damage counts, saved images, tyre choices) `scan_edit`.
 */
export function scanPageRoutes(app: FastifyInstance, opts: { page: ReturnType<typeof scanPage> }, done: () => void) {
  const { page } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Scan'];
  const access = { permission: RESOURCES.scans.permission };
  const edit = { permission: RESOURCES.scans.edit };

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
    async (req) => ({ data: await page.meta(callerOf(req), req.params.id) }),
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
          scan_id: fromDecimalText(
            z
              .number({ error: messages.type('Scan', 'an id') })
              .int(messages.type('Scan', 'an id'))
              .positive(messages.type('Scan', 'an id'))
              .max(Number.MAX_SAFE_INTEGER, messages.type('Scan', 'an id')),
          ),
          arch_id: z.string().max(100).optional(),
        }),
        response: { 200: dataReply(ArchDataRecord), ...recordErrors },
      },
    },
    async (req) => ({ data: await page.archData(callerOf(req), req.query.scan_id) }),
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
          'recomputed in the same transaction, `scan.updated` webhooks are queued with it, and the live `updated` event follows. Replies the scan.' +
          " `version`: the scan's version the edit was made from; from another version: 409 with `conflict`, nothing stored.",
        body: editDamageCountBody.meta({
          example: {
            scan_id: 1042,
            car_panel: 'bonnet',
            dents: { light: 2, medium: 1, heavy: 0, severe: 0, oversize: 0 },
            scratchs: { light: 1 },
          },
        }),
        response: { 200: dataReply(ScanDetailRecord), 409: ConflictReply, ...recordErrors },
      },
    },
    async (req) => ({ data: await page.editDamageCount(callerOf(req), req.body) }),
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
          `Parts: \`file\` (PNG, JPEG or WebP by its bytes, at most ${IMAGE_MAX_MB} MB; counted in the agent's upload quota), ` +
          '`edit` (1 to replace the saved image `image_id`, whose file then leaves storage), `scan_id` (accepted, the path names the scan). ' +
          'Replies the saved image: 201 when new, 200 when replaced.',
        params: IdParams,
        consumes: ['multipart/form-data'],
        body: annotateBody,
        response: { 200: dataReply(AnnotateRecord), 201: dataReply(AnnotateRecord), ...recordErrors },
      },
    },
    async (req, reply) => {
      const saved = await page.saveAnnotate(callerOf(req), req.params.id, req.body);
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
    async (req) => ({ data: await page.deleteAnnotate(callerOf(req), req.params.id, req.params.imageId) }),
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
          'or null to clear. One choice per wheel: choosing again replaces it.' +
          " `version`: the scan's version the edit was made from; from another version: 409 with `conflict`, nothing stored.",
        params: IdParams,
        body: tyreRepairBody.meta({ example: { row: 1, direction: 'L', repair_type: 'recheck' } }),
        response: { 200: dataReply(z.array(TyreRepairRecord)), 409: ConflictReply, ...recordErrors },
      },
    },
    async (req) => ({ data: await page.setTyreRepair(callerOf(req), req.params.id, req.body) }),
  );
  done();
}
