import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type RawBuilder, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import { messages } from '../../../src/domain/fields';
import { dataScope } from '../../../src/domain/permissions';
import {
  IMAGE_KINDS,
  type ImageKind,
  ingestResultsBody,
  ingestScanBody,
  ingestStatusBody,
  type ScanStatus,
  statusRank,
  tyreLabel,
} from '../../../src/domain/scans';
import type { Executor } from '../../db/database';
import type { DB } from '../../db/schema';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors';
import { checkImage, IMAGE_MAX_BYTES, type UploadedFile } from '../../lib/images';
import { multipartBody } from '../../lib/multipart';
import { dataReply, ErrorReply } from '../../lib/replies';
import { scopePredicate } from '../../lib/resource';
import { fileUrl, storageOf } from '../../lib/storage';
import { chargeAgentUploads } from '../../lib/upload-quota';
import { hashToken } from '../../lib/tokens';
import { bearerToken } from '../../plugins/auth';
import { clientScope } from '../quote/scopes';
import { type AccessRow, findAccessByApiKeyHash } from '../user/access-repository';
import { broadcastScan, queueScanEvent, type ScanEventKind } from './events';
import { checkVideo, releaseFiles, syncScanFiles, VIDEO_MAX_BYTES, withStoredFiles } from './files';
import { findScanItem, refreshCounts } from './repository';
import { ScanItemRecord } from './schemas';
import { parseScanId, SCAN_MODEL, writeScanReport } from './service';

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
    row: z.coerce.number({ error: 'Row must be a number' }).int().min(1).max(10).optional(),
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
async function videoBody(req: FastifyRequest) {
  if (!req.isMultipart()) return;
  const body: Record<string, unknown> = {};
  for await (const part of req.parts({ limits: { fileSize: VIDEO_MAX_BYTES, files: 2 } })) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (part.fieldname === 'file' || part.fieldname === 'thumbnail') {
        body[part.fieldname] = {
          filename: part.filename,
          mimetype: part.mimetype,
          data,
          truncated: part.file.truncated || (part.fieldname === 'thumbnail' && data.length > IMAGE_MAX_BYTES),
        } satisfies UploadedFile;
      }
    } else {
      body[part.fieldname] = part.value;
    }
  }
  req.body = body;
}

/**
 * The device ingestion API (DECISIONS "API keys", docs/ingestion.md): a scanner authenticates with its user's
 * API key and may act only for that user's agents. Every call is idempotent on the device's own ids.
 */
export function ingestRoutes(app: FastifyInstance, _opts: unknown, done: () => void) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Scan ingestion (devices)'];
  // The API key travels as a bearer token (or X-Api-Key); the document's one scheme is bearer.
  const security = [{ bearer: [] }];
  const access = 'device' as const;
  const devices = new WeakMap<FastifyRequest, AccessRow>();

  /** The auth plugin leaves 'device' routes to us: an API key (Bearer or X-Api-Key), never a sign-in token. */
  const authenticate = async (req: FastifyRequest) => {
    const header = req.headers['x-api-key'];
    const key = bearerToken(req) ?? (typeof header === 'string' && header.trim() ? header.trim() : null);
    if (!key) throw new UnauthorizedError();
    const user = await findAccessByApiKeyHash(app.db, hashToken(key));
    if (!user) throw new UnauthorizedError();
    devices.set(req, user);
  };
  const deviceUser = (req: FastifyRequest) => devices.get(req)!;
  /** The scan a device addresses: 404 when there is none, 403 when it belongs to an agent the key's user is not in. */
  const ownScan = async (req: FastifyRequest, raw: string) => {
    const id = parseScanId(raw);
    const scan = await sql<{
      id: number;
      agent_id: number;
      status: ScanStatus;
    }>`select id, agent_id, status from scans where id = ${id}`.execute(app.db);
    const row = scan.rows[0];
    if (!row) throw new NotFoundError(SCAN_MODEL, id);
    if (!deviceUser(req).agents.includes(row.agent_id)) throw new ForbiddenError();
    return row;
  };
  const reply = async (id: number) => {
    const item = await findScanItem(app.db, id);
    if (!item) throw new NotFoundError(SCAN_MODEL, id);
    return item;
  };
  /** Queues the scan's webhooks in the writing transaction and returns its list row (a scan deleted meanwhile: 404, nothing kept). */
  const queued = async (trx: Transaction<DB>, kind: ScanEventKind, id: number) => {
    const item = await queueScanEvent(trx, kind, id);
    if (!item) throw new NotFoundError(SCAN_MODEL, id);
    return item;
  };

  r.get(
    '/ingest/devices',
    {
      config: { access },
      onRequest: authenticate,
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
    async (req) => {
      const agents = deviceUser(req).agents;
      const rows = await sql<{
        id: number;
        serial: string;
        type: string;
        agent_id: number;
        location_id: number;
        location_name: string;
        location_state: string;
      }>`
      select d.id, d.serial, d.type, d.agent_id, d.location_id, l.name as location_name, l.state as location_state
      from devices d join locations l on l.id = d.location_id where d.agent_id = any(${agents}::bigint[]) order by d.agent_id, d.id`.execute(
        app.db,
      );
      return { data: rows.rows };
    },
  );

  r.post(
    '/ingest/scans',
    {
      config: { access },
      onRequest: authenticate,
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
      const b = req.body;
      const found = await sql<{ agent_id: number; location_id: number; default_client_id: number; state: string }>`
      select d.agent_id, d.location_id, d.default_client_id, l.state from devices d join locations l on l.id = d.location_id where d.id = ${b.device_id}`.execute(
        app.db,
      );
      const device = found.rows[0];
      if (!device) throw new ValidationError({ device_id: messages.choice('Device') });
      if (!deviceUser(req).agents.includes(device.agent_id)) throw new ForbiddenError();
      if (b.client_id != null) {
        // As on the scan page: a client the key's user may see (for an Agent user, one their agents serve).
        const client = await sql<{
          id: number;
        }>`select id from clients where id = ${b.client_id} and ${scopePredicate(dataScope(deviceUser(req)), clientScope)}`.execute(app.db);
        if (!client.rows[0]) throw new ValidationError({ client_id: messages.choice('Client') });
      }
      const item = await app.db.transaction().execute(async (trx) => {
        const inserted = await sql<{
          id: number;
        }>`insert into scans (scan_id, agent_id, client_id, location_id, device_id, type, status, license_plate, make,
        model, car_color, body_type, valuation, location_state, scanned_at, start_time)
      values (${b.scan_id}, ${device.agent_id}, ${b.client_id ?? device.default_client_id}, ${device.location_id}, ${b.device_id}, ${b.type}, 'metadata',
        ${b.licensePlate ?? null}, ${b.make ?? null}, ${b.model ?? null}, ${b.carColor ?? null}, ${b.body_type ?? null}, ${b.valuation ?? null},
        ${b.location_state ?? device.state}, ${b.timestamp ?? new Date().toISOString()}, ${b.startTime ?? b.timestamp ?? null})
      on conflict (agent_id, scan_id) do nothing returning id`.execute(trx);
        return inserted.rows[0] ? queued(trx, 'created', inserted.rows[0].id) : null;
      });
      if (item) {
        await broadcastScan(app, 'created', item);
        return res.status(201).send({ data: item });
      }
      const existing = await sql<{
        id: number;
      }>`select id from scans where agent_id = ${device.agent_id} and scan_id = ${b.scan_id}`.execute(app.db);
      return res.status(200).send({ data: await reply(existing.rows[0].id) });
    },
  );

  r.put(
    '/ingest/scans/:id/results',
    {
      config: { access },
      onRequest: authenticate,
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
    async (req) => {
      const scan = await ownScan(req, req.params.id);
      const b = req.body;
      const item = await app.db.transaction().execute(async (trx) => {
        const parts = (['arch', 'chasis', 'tire', 'rims'] as const).filter((p) => b[p] !== undefined);
        if (parts.length) {
          await sql`update scans set ${sql.join(parts.map((p) => sql`${sql.ref(p)} = ${b[p] === null ? null : JSON.stringify(b[p])}::jsonb`))} where id = ${scan.id}`.execute(
            trx,
          );
        }
        if (b.damages?.length) await upsertDamages(trx, scan.id, b.damages);
        if (b.tyres?.length) await upsertTyres(trx, scan.id, b.tyres);
        if (b.measures) {
          await sql`delete from scan_measures where scan_id = ${scan.id}`.execute(trx);
          const rows = (['dents', 'scratchs'] as const).flatMap((type) =>
            Object.entries(b.measures?.[type] ?? {}).flatMap(([panel, counts]) =>
              Object.entries(counts)
                .filter(([, n]) => (n ?? 0) > 0)
                .map(([level, n]) => ({ panel, type, level, n })),
            ),
          );
          if (rows.length) {
            await sql`insert into scan_measures (scan_id, car_panel, type, level, count)
            select ${scan.id}, * from unnest(${rows.map((x) => x.panel)}::text[], ${rows.map((x) => x.type)}::text[], ${rows.map((x) => x.level)}::text[], ${rows.map((x) => x.n)}::int[])`.execute(
              trx,
            );
          }
          await refreshCounts(trx, scan.id, false);
        } else {
          await refreshCounts(trx, scan.id, !!b.damages?.length);
        }
        return queued(trx, 'updated', scan.id);
      });
      await broadcastScan(app, 'updated', item);
      return { data: item };
    },
  );

  r.post(
    '/ingest/scans/:id/images',
    {
      config: { access },
      onRequest: authenticate,
      preValidation: multipartBody({ file: 'file' }),
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
    async (req) => {
      const scan = await ownScan(req, req.params.id);
      const b = req.body;
      const image = await checkImage(b.file, 'file', 'File');
      const storage = storageOf(app);
      const key = await storage.put(image.data, image.contentType);
      const url = fileUrl(key);
      const gone = await withStoredFiles(storage, [key], () =>
        app.db.transaction().execute(async (trx) => {
          await chargeAgentUploads(trx, scan.agent_id, { [key]: image.data.length }, 'file');
          await placeImage(trx, scan.id, b.kind, url, b);
          return syncScanFiles(trx, scan.id);
        }),
      );
      await releaseFiles(app.db, storage, gone, req.log);
      return { data: { url } };
    },
  );

  r.post(
    '/ingest/scans/:id/videos',
    {
      config: { access },
      onRequest: authenticate,
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
    async (req) => {
      const scan = await ownScan(req, req.params.id);
      const b = req.body;
      const video = checkVideo(b.file, 'file', 'File');
      const thumb = b.thumbnail ? await checkImage(b.thumbnail, 'thumbnail', 'Thumbnail') : null;
      const storage = storageOf(app);
      const key = await storage.put(video.data, video.contentType);
      const keys = [key];
      try {
        if (thumb) keys.push(await storage.put(thumb.data, thumb.contentType));
      } catch (e) {
        await storage.delete(key).catch(() => {});
        throw e;
      }
      const gone = await withStoredFiles(storage, keys, () =>
        app.db.transaction().execute(async (trx) => {
          await chargeAgentUploads(
            trx,
            scan.agent_id,
            { [key]: video.data.length, ...(keys[1] && thumb ? { [keys[1]]: thumb.data.length } : {}) },
            'file',
          );
          await sql`insert into scan_videos (scan_id, video_id, src, thumbnail, content_type, size)
        values (${scan.id}, ${b.video_id}, ${fileUrl(key)}, ${keys[1] ? fileUrl(keys[1]) : null}, ${video.contentType}, ${video.data.length})
        on conflict (scan_id, video_id) do update set src = excluded.src, thumbnail = excluded.thumbnail, content_type = excluded.content_type, size = excluded.size`.execute(
            trx,
          );
          return syncScanFiles(trx, scan.id);
        }),
      );
      await releaseFiles(app.db, storage, gone, req.log);
      return { data: { url: fileUrl(key) } };
    },
  );

  r.post(
    '/ingest/scans/:id/status',
    {
      config: { access },
      onRequest: authenticate,
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
    async (req) => {
      const scan = await ownScan(req, req.params.id);
      const next = req.body.status;
      if (statusRank(next) < statusRank(scan.status)) throw new ValidationError({ status: `The scan is already ${scan.status}` });
      if (next === scan.status) return { data: await reply(scan.id) };
      const item = await app.db.transaction().execute(async (trx) => {
        await sql`update scans set status = ${next}, updated_at = now() where id = ${scan.id}`.execute(trx);
        return queued(trx, 'updated', scan.id);
      });
      if (next === 'uploaded') await writeScanReport(app.db, storageOf(app), scan.id, req.log);
      await broadcastScan(app, 'updated', item);
      return { data: item };
    },
  );
  done();
}

async function upsertDamages(trx: Executor, scanId: number, damages: NonNullable<z.output<typeof ingestResultsBody>['damages']>) {
  await sql`insert into scan_damages (scan_id, damage_id, car_panel, type, level, width_mm, height_mm)
    select ${scanId}, * from unnest(${damages.map((d) => d.id)}::text[], ${damages.map((d) => d.carPanel)}::text[], ${damages.map((d) => d.type)}::text[],
      ${damages.map((d) => d.level)}::text[], ${damages.map((d) => d.width_mm)}::numeric[], ${damages.map((d) => d.height_mm)}::numeric[])
    on conflict (scan_id, damage_id) do update set car_panel = excluded.car_panel, type = excluded.type, level = excluded.level,
      width_mm = excluded.width_mm, height_mm = excluded.height_mm, updated_at = now()`.execute(trx);
}

async function upsertTyres(trx: Executor, scanId: number, tyres: NonNullable<z.output<typeof ingestResultsBody>['tyres']>) {
  for (const t of tyres) {
    await sql`insert into scan_tyres (scan_id, "row", direction, position, label, depths, eaten_tire, pressure_tire, coord_x, coord_y)
      values (${scanId}, ${t.row}, ${t.direction}, ${t.position}, '', ${t.depths}::real[], ${t.eatenTire}, ${t.pressureTire}, ${t.coordinates?.x ?? null}, ${t.coordinates?.y ?? null})
      on conflict (scan_id, "row", direction, position) do update set depths = excluded.depths, eaten_tire = excluded.eaten_tire,
        pressure_tire = excluded.pressure_tire, coord_x = excluded.coord_x, coord_y = excluded.coord_y, updated_at = now()`.execute(trx);
  }
  // Labels depend on the last row (spec 2: REAR on the last row), so they are set once all rows are known.
  const rows = await sql<{
    id: number;
    row: number;
    direction: 'L' | 'R';
  }>`select id, "row", direction from scan_tyres where scan_id = ${scanId}`.execute(trx);
  const last = Math.max(...rows.rows.map((x) => x.row));
  await sql`update scan_tyres t set label = v.label from unnest(${rows.rows.map((x) => x.id)}::bigint[], ${rows.rows.map((x) => tyreLabel(x.row, last, x.direction))}::text[]) as v(id, label)
    where t.id = v.id`.execute(trx);
}

/** Puts an uploaded image's URL into its slot; a slot naming a detection or tyre the scan lacks is the field's 422. */
async function placeImage(
  trx: Executor,
  scanId: number,
  kind: ImageKind,
  url: string,
  b: { damage_id?: string; row?: number; direction?: string; position?: string; image_id?: string },
) {
  const changed = async (q: RawBuilder<unknown>) => Number((await q.execute(trx)).numAffectedRows ?? 0) > 0;
  switch (kind) {
    case 'thumbnail':
      await sql`update scans set meta_thumbnail = ${url}, updated_at = now() where id = ${scanId}`.execute(trx);
      return;
    case 'src':
      await sql`update scans set meta_src = ${url}, updated_at = now() where id = ${scanId}`.execute(trx);
      return;
    case 'damage':
      if (
        !(await changed(
          sql`update scan_damages set image = ${url}, updated_at = now() where scan_id = ${scanId} and damage_id = ${b.damage_id!}`,
        ))
      ) {
        throw new ValidationError({ damage_id: 'The selected damage id is invalid: upload the results first' });
      }
      return;
    case 'tyre_measurement':
    case 'tyre_image': {
      const column = kind === 'tyre_measurement' ? sql.ref('measurement_image') : sql.ref('image_file');
      if (
        !(await changed(sql`update scan_tyres set ${column} = ${url}, updated_at = now()
          where scan_id = ${scanId} and "row" = ${b.row!} and direction = ${b.direction!} and position = ${b.position!}`))
      ) {
        throw new ValidationError({ row: 'The selected tyre is invalid: upload the results first' });
      }
      return;
    }
    case 'vehicle_photo':
      await sql`insert into scan_annotates (scan_id, image_id, src, vehicle_photo) values (${scanId}, ${b.image_id!}, ${url}, true)
        on conflict (scan_id, image_id) do update set src = excluded.src`.execute(trx);
  }
}
