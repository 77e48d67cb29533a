import { fromDecimalText } from '../../../src/domain/text';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../../src/domain/fields';
import { IMAGE_KINDS, TYRE_ROWS_MAX } from '../../../src/domain/scan-codes';
import { ingestResultsBody, ingestScanBody, ingestStatusBody } from '../../../src/domain/scans';
import { IMAGE_MAX_BYTES, type UploadedFile } from '../../lib/images';
import { callerOf } from '../../lib/caller';
import { multipartBody } from '../../lib/multipart';
import { scanUploadRoom } from '../../lib/upload-quota';
import { dataReply, ErrorReply } from '../../lib/replies';
import { VIDEO_MAX_BYTES } from './files';
import type { scanIngestion } from './ingest-service';
import { ScanItemRecord } from './schemas';

const when = '2024-05-31T07:30:00Z';
const deviceErrors = { 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 422: ErrorReply, 429: ErrorReply, 500: ErrorReply } as const;
const IdParams = z.object({ id: z.string() });
const FileUrlReply = dataReply(z.object({ url: z.string() }));
const fileField = (label: string) =>
  z.custom<UploadedFile>((v) => typeof v === 'object' && v !== null, {
    error: (i) => (i.input === undefined ? messages.required(label) : `${label} must be a file`),
  });
const deviceText = (label: string) =>
  z
    .string({ error: messages.required(label) })
    .trim()
    .min(1, messages.required(label))
    .max(100, messages.max(label, 100))
    .regex(/^[A-Za-z0-9._:-]+$/, `${label} may hold only letters, digits and . _ : -`);

/** Which slot an uploaded image fills: a meta image, a detection's close-up, a tyre's images, or a vehicle photo. */
const ImageUploadBody = z
  .object({
    kind: z.enum(IMAGE_KINDS, { error: (i) => (i.input === undefined ? messages.required('Kind') : messages.choice('Kind')) }),
    damage_id: deviceText('Damage Id').optional(),
    row: fromDecimalText(
      z
        .number({ error: 'Row must be a number' })
        .int(messages.integer('Row'))
        .min(1, messages.min('Row', 1))
        .max(TYRE_ROWS_MAX, messages.max('Row', TYRE_ROWS_MAX + 1))
        .optional(),
    ),
    direction: z.enum(['L', 'R'], { error: messages.choice('Direction') }).optional(),
    position: z.enum(['I', 'O'], { error: messages.choice('Position') }).optional(),
    image_id: deviceText('Image Id').optional(),
    file: fileField('File'),
  })
  .superRefine((b, ctx) => {
    const need = (field: 'damage_id' | 'row' | 'direction' | 'position' | 'image_id', label: string) => {
      if (b[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: messages.required(label) });
    };
    if (b.kind === 'damage') need('damage_id', 'Damage Id');
    if (b.kind === 'tyre_measurement' || b.kind === 'tyre_image') {
      need('row', 'Row');
      need('direction', 'Direction');
      need('position', 'Position');
    }
    if (b.kind === 'vehicle_photo') need('image_id', 'Image Id');
  });
const VideoUploadBody = z.object({
  video_id: deviceText('Video Id'),
  file: fileField('File'),
  thumbnail: fileField('Thumbnail').optional(),
});

/** Repeated device-side ids inside one upload would update one row twice: named instead. */
const ResultsBody = ingestResultsBody.superRefine((b, ctx) => {
  const seen = new Set<string>();
  b.damages?.forEach((d, i) => {
    if (seen.has(d.id)) ctx.addIssue({ code: 'custom', path: ['damages', i, 'id'], message: 'Damage Id is repeated in this upload' });
    seen.add(d.id);
  });
  const wheels = new Set<string>();
  b.tyres?.forEach((t, i) => {
    const k = `${t.row}${t.direction}${t.position}`;
    if (wheels.has(k))
      ctx.addIssue({
        code: 'custom',
        path: ['tyres', i, 'row'],
        message: 'This tyre (row, direction, position) is repeated in this upload',
      });
    wheels.add(k);
  });
});

/** multipart for video uploads: the video up to VIDEO_MAX_BYTES, its thumbnail (checked as an image), text parts as strings. */
const videoBody = multipartBody(
  { file: 'file', thumbnail: 'thumbnail' },
  {
    maxBytes: { file: VIDEO_MAX_BYTES, thumbnail: IMAGE_MAX_BYTES },
    room: (req) => scanUploadRoom(req.server.db, (req.params as { id: string }).id),
  },
);

/**
 * The device ingestion API (docs/ingestion.md): a scanner authenticates with its user's
 * API key and may act only for that user's agents. Every call is idempotent on the device's own ids.
 */
export function ingestRoutes(app: FastifyInstance, opts: { ingestion: ReturnType<typeof scanIngestion> }, done: () => void) {
  const { ingestion } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Scan ingestion (devices)'];
  // The API key travels as a bearer token (or X-Api-Key); the document's one scheme is bearer.
  const security = [{ bearer: [] }];
  // The auth plugin checks the API key of 'device' routes and puts its user on the request.
  const access = 'device' as const;

  r.get(
    '/ingest/devices',
    {
      config: { access },
      schema: {
        tags,
        security,
        summary: "The devices of the API key's agents (a scanner finds its device id here)",
        response: {
          200: dataReply(
            z
              .array(
                z.object({
                  id: z.number(),
                  serial: z.string(),
                  type: z.string(),
                  agent_id: z.number(),
                  location_id: z.number(),
                  location_name: z.string(),
                  location_state: z.string(),
                }),
              )
              .meta({
                example: [
                  {
                    id: 1,
                    serial: '4100000000',
                    type: 'arch',
                    agent_id: 1,
                    location_id: 1,
                    location_name: 'Collingwood Depot',
                    location_state: 'VIC',
                  },
                ],
              }),
          ),
          ...deviceErrors,
        },
      },
    },
    async (req) => ({ data: await ingestion.devices(callerOf(req)) }),
  );

  r.post(
    '/ingest/scans',
    {
      config: { access },
      schema: {
        tags,
        security,
        summary: 'Create a scan (status metadata); replaying a scan_id returns the same scan',
        description:
          'The scan takes its agent, location and (unless client_id is given) client from the device. 201 for a new scan, 200 with the ' +
          'existing one when this agent already has the scan_id (the rest of the body is then ignored).',
        body: ingestScanBody.meta({
          example: {
            scan_id: '4100000000-20240531-073000',
            device_id: 1,
            type: 'arch',
            timestamp: when,
            startTime: '2024-05-31T07:29:12Z',
            licensePlate: '1AB2CD',
            make: 'Toyota',
            model: 'Corolla',
            carColor: 'Silver',
            body_type: 'Hatchback',
            location_state: 'VIC',
          },
        }),
        response: { 200: dataReply(ScanItemRecord), 201: dataReply(ScanItemRecord), ...deviceErrors },
      },
    },
    async (req, res) => {
      const { created, item } = await ingestion.createScan(callerOf(req), req.body);
      return res.status(created ? 201 : 200).send({ data: item });
    },
  );

  r.put(
    '/ingest/scans/:id/results',
    {
      config: { access },
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags,
        security,
        summary: "Upload a scan's results: part summaries, detections, counts, tyres (JSON)",
        description:
          'Detections are keyed by their `id`, tyres by (row, direction, position): sending one again updates it, nothing is duplicated. ' +
          "`measures`, when sent, replace the scan's counts; otherwise the counts are derived from all of the scan's detections. " +
          'Everything is checked before anything is stored: a bad item answers 422 naming its path (damages.3.level) and stores nothing.',
        params: IdParams,
        body: ResultsBody.meta({
          example: {
            arch: { panels_scanned: 28, duration_s: 41 },
            damages: [
              { id: 'd-001', carPanel: 'bonnet', type: 'dents', level: 'medium', width_mm: 24, height_mm: 18 },
              { id: 'd-002', carPanel: 'left_front_door', type: 'scratchs', level: 'light', width_mm: 120, height_mm: 3 },
            ],
            tyres: [{ row: 1, direction: 'L', position: 'O', depths: [6.1, 6.4, 6.6, 6.5, 6.2], eatenTire: 'NONE', pressureTire: 'NONE' }],
          },
        }),
        response: { 200: dataReply(ScanItemRecord), ...deviceErrors },
      },
    },
    async (req) => ({ data: await ingestion.uploadResults(callerOf(req), req.params.id, req.body) }),
  );

  r.post(
    '/ingest/scans/:id/images',
    {
      config: { access },
      preValidation: multipartBody({ file: 'file' }, { room: (req) => scanUploadRoom(req.server.db, (req.params as { id: string }).id) }),
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        summary: 'Upload one image of a scan (multipart)',
        description:
          'Parts: `kind` (thumbnail | src | damage | tyre_measurement | tyre_image | vehicle_photo), the slot it fills (`damage_id` for damage; ' +
          '`row`, `direction`, `position` for tyres; `image_id` for a vehicle photo) and `file` (PNG, JPEG or WebP, at most 5 MB). ' +
          "Uploading to the same slot again replaces the image. Upload a detection's or tyre's results before its images.",
        params: IdParams,
        body: ImageUploadBody,
        response: { 200: FileUrlReply, ...deviceErrors },
      },
    },
    async (req) => ({ data: await ingestion.uploadImage(callerOf(req), req.params.id, req.body) }),
  );

  r.post(
    '/ingest/scans/:id/videos',
    {
      config: { access },
      preValidation: videoBody,
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        summary: 'Upload a video of a scan (multipart)',
        description:
          `Parts: \`video_id\` (the device's id for it: uploading it again replaces it), \`file\` (MP4 or WebM, at most ${VIDEO_MAX_BYTES / 1024 / 1024} MB) ` +
          'and optionally `thumbnail` (PNG, JPEG or WebP).',
        params: IdParams,
        body: VideoUploadBody,
        response: { 200: FileUrlReply, ...deviceErrors },
      },
    },
    async (req) => ({ data: await ingestion.uploadVideo(callerOf(req), req.params.id, req.body) }),
  );

  r.post(
    '/ingest/scans/:id/status',
    {
      config: { access },
      schema: {
        tags,
        security,
        summary: 'Mark a scan ready, then uploaded',
        description:
          'Statuses only move forward (metadata, ready, uploaded); sending the current one again changes nothing. ' +
          'On uploaded the server writes the scan report PDF.',
        params: IdParams,
        body: ingestStatusBody.meta({ example: { status: 'uploaded' } }),
        response: { 200: dataReply(ScanItemRecord), ...deviceErrors },
      },
    },
    async (req) => ({ data: await ingestion.setStatus(callerOf(req), req.params.id, req.body.status) }),
  );
  done();
}
