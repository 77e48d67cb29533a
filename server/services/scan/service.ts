import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { messages } from '../../../src/domain/fields';
import { inScope } from '../../../src/domain/permissions';
import {
  type annotateBody,
  type editDamageCountBody,
  type ExportFormat,
  manualScanFields,
  SCAN_VEHICLE_FIELDS,
  type scanUpdateBody,
  scanVehicleFields,
  type tyreRepairBody,
} from '../../../src/domain/scans';
import type { Database } from '../../db/database';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import { checkImage } from '../../lib/images';
import { checkReferences } from '../../lib/resource';
import { chargeAgentUploads } from '../../lib/upload-quota';
import type { Signer } from '../../lib/signing';
import { type FileStorage, fileUrl, keyOfUrl, signedFileUrl } from '../../lib/storage';
import type { Broadcaster } from '../../realtime/broadcaster';
import { broadcastScan, queueScanEvent } from './events';
import { buildExport, recordExport } from './export';
import { releaseFiles, syncScanFiles, withStoredFiles } from './files';
import {
  agentDefaultClient,
  archData,
  countUpTo,
  deleteAnnotate,
  deleteScanRows,
  findScanMeta,
  insertAnnotate,
  isKnownCarPanel,
  replaceAnnotate,
  setPanelCounts,
  setTyreRepair,
  tyreRepairs,
  tyreWheels,
  findScanDetail,
  findScanItem,
  hasScanReport,
  insertManualScan,
  listScans,
  refreshCounts,
  type ScanFilters,
  scanSelection,
  updateScanColumns,
  upsertScanReport,
} from './repository';
import { scanReportPdf } from './report';
import type { ManualScanBody } from './schemas';

export const SCAN_MODEL = 'Scan';
/** A saved image of a scan (scan_annotates), in the model's 404. */
export const ANNOTATE_MODEL = 'ScanImage';
/** An export holds at most this many scans; more must be narrowed by the filters. */
export const EXPORT_MAX_ROWS = 200_000;

/** Wire name -> column for the editable vehicle fields. */
const COLUMN: Record<string, string> = { licensePlate: 'license_plate', carColor: 'car_color' };

/** What the scan service works with: the database, the file store, the link signer, and the live-event side when the app has one. */
export interface ScanDeps {
  db: Database;
  storage: FileStorage;
  /** Signs download links (exports are private to their maker). */
  signer: Signer;
  broadcaster?: Broadcaster;
  log: FastifyBaseLogger;
}

/** Scan ids in paths are positive integers; anything else names no scan, so it is the model's 404. */
export function parseScanId(raw: string) {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new NotFoundError(SCAN_MODEL, raw);
  return Number(raw);
}

/** (Re)writes the scan's report PDF ('View Scan Report') from what the scan holds now, replacing the previous one. */
export async function writeScanReport(db: Database, storage: FileStorage, scanId: number, log?: FastifyBaseLogger) {
  const scan = await findScanDetail(db, scanId);
  if (!scan) return;
  const key = await storage.put(scanReportPdf(scan), 'application/pdf');
  const gone = await withStoredFiles(storage, [key], () =>
    db.transaction().execute(async (trx) => {
      await upsertScanReport(trx, scanId, fileUrl(key));
      return syncScanFiles(trx, scanId);
    }),
  );
  await releaseFiles(db, storage, gone, log);
}

/** Deletes a scan with its rows, then the files no other scan uses. */
export async function deleteScan(db: Database, storage: FileStorage, scanId: number, log?: FastifyBaseLogger) {
  const keys = await db.transaction().execute((trx) => deleteScanRows(trx, scanId));
  await releaseFiles(db, storage, keys, log);
}

/**
 * The scan list and records for a signed-in caller: every method takes the request (its user, data scope
 * and logger), checks, writes in one transaction with the webhooks queued in it, then broadcasts and (for uploaded
 * scans) rewrites the report.
 */
export function scanRecords(deps: ScanDeps) {
  const { db, storage } = deps;
  const notFound = (id: number | string) => new NotFoundError(SCAN_MODEL, id);
  const detail = async (req: FastifyRequest, id: number) => {
    const scan = await findScanDetail(db, id, req.scope);
    if (!scan) throw notFound(id);
    return scan;
  };
  const visibleItem = async (req: FastifyRequest, id: number) => {
    const item = await findScanItem(db, id, req.scope);
    if (!item) throw notFound(id);
    return item;
  };

  return {
    async list(req: FastifyRequest, query: ScanFilters & { page: number; per_page: number }) {
      const { page, per_page, ...filters } = query;
      const { items, total, estimate } = await listScans(db, await scanSelection(db, req.scope, filters), page, per_page);
      return { items, total, total_is_estimate: estimate };
    },

    /** Writes the filtered scans as a file (removed EXPORT_TTL_HOURS later) and returns its URL. */
    async exportReport(req: FastifyRequest, query: ScanFilters & { format: ExportFormat }) {
      // Paging parameters may come along (the list's query is reused); the selection reads only the filters.
      const { format, ...filters } = query;
      const selection = await scanSelection(db, req.scope, filters);
      if ((await countUpTo(db, selection, EXPORT_MAX_ROWS)) > EXPORT_MAX_ROWS)
        throw new ValidationError({ ts: `An export holds at most ${EXPORT_MAX_ROWS.toLocaleString('en-AU')} scans: narrow the filters` });
      const file = await buildExport(db, selection.where, format);
      const key = await storage.put(file.data, file.contentType);
      await recordExport(db, key, req.user!.id, format, file.count);
      // The browser downloads through a plain link (no bearer token): a short-lived link signed for this user.
      return { url: signedFileUrl(deps.signer, key, req.user!.id) };
    },

    detail: (req: FastifyRequest, rawId: string) => detail(req, parseScanId(rawId)),

    async update(req: FastifyRequest, rawId: string, body: z.output<typeof scanUpdateBody>) {
      const id = parseScanId(rawId);
      const current = await visibleItem(req, id);
      const input = body as Record<string, unknown>;
      const columns: Record<string, unknown> = {};
      for (const field of SCAN_VEHICLE_FIELDS) if (field in input) columns[COLUMN[field] ?? field] = input[field] ?? null;
      if (Object.keys(columns).length) {
        const item = await db.transaction().execute(async (trx) => {
          // The client must be one the user may see, checked in the writing transaction; the scan's own may stay.
          await checkReferences(trx, req, scanVehicleFields, input, { current: { client_id: current.client_id } });
          await updateScanColumns(trx, id, columns);
          // A Client user who moves a scan to a client outside their scope would lose it: refused, nothing kept.
          if (!(await findScanItem(trx, id, req.scope))) throw new ForbiddenError();
          return queueScanEvent(trx, 'updated', id);
        });
        if (current.status === 'uploaded') await writeScanReport(db, storage, id, req.log);
        await broadcastScan(deps, 'updated', item);
      }
      return detail(req, id);
    },

    async remove(req: FastifyRequest, rawId: string) {
      const id = parseScanId(rawId);
      const item = await visibleItem(req, id);
      await deleteScan(db, storage, id, req.log);
      return item;
    },

    /** A manual scan: always type tire, status uploaded, with its report. */
    async createManual(req: FastifyRequest, input: z.output<typeof ManualScanBody>) {
      // ManualScanBody checked them: agent_id a positive id, client_id one or absent, startTime a date or absent.
      const body = {
        agent_id: Number(input.agent_id),
        client_id: input.client_id == null ? null : Number(input.client_id),
        startTime: typeof input.startTime === 'string' ? input.startTime : null,
      };
      const { id, item } = await db.transaction().execute(async (trx) => {
        // The agent and the client must be ones the user may see: 422 on the field, nothing stored.
        await checkReferences(trx, req, manualScanFields, { agent_id: body.agent_id, client_id: body.client_id });
        const clientId = body.client_id ?? (await agentDefaultClient(trx, body.agent_id));
        // A defaulted client outside a Client user's scope would hide the scan from them: refused.
        if (!inScope(req.scope, { agent_id: body.agent_id, client_id: clientId })) throw new ForbiddenError();
        const id = await insertManualScan(trx, {
          scan_id: randomUUID(),
          agent_id: body.agent_id,
          client_id: clientId,
          startTime: body.startTime,
        });
        return { id, item: await queueScanEvent(trx, 'created', id) };
      });
      // Every uploaded scan has its report, a manual one too (vehicle and client, no damage).
      await writeScanReport(db, storage, id, req.log);
      await broadcastScan(deps, 'created', item);
      return detail(req, id);
    },

    /** GET meta/{id}: the scan's meta images (null without them). */
    async meta(req: FastifyRequest, rawId: string) {
      const id = parseScanId(rawId);
      await visibleItem(req, id);
      return findScanMeta(db, id);
    },

    /** GET archData/search: the car sketch's panel groups with the scan's counts by measure. */
    async archData(req: FastifyRequest, scanId: number) {
      const item = await visibleItem(req, scanId);
      return archData(db, scanId, item.type);
    },

    /**
     * POST scans/arch/edit-damage-count: sets a panel's counts per level and recomputes the scan's totals in the same
     * transaction, with `scan.updated` queued for the webhooks; then the live `updated` event and (uploaded) the report.
     */
    async editDamageCount(req: FastifyRequest, body: z.output<typeof editDamageCountBody>) {
      const id = body.scan_id;
      const current = await visibleItem(req, id);
      const item = await db.transaction().execute(async (trx) => {
        if (!(await isKnownCarPanel(trx, id, body.car_panel))) throw new ValidationError({ car_panel: messages.choice('Car Panel') });
        await setPanelCounts(trx, id, body.car_panel, { dents: body.dents, scratchs: body.scratchs });
        return queueScanEvent(trx, 'updated', id);
      });
      if (current.status === 'uploaded') await writeScanReport(db, storage, id, req.log);
      await broadcastScan(deps, 'updated', item);
      return detail(req, id);
    },

    /**
     * POST scans/{id}/annotates: stores a crop or an annotation (checked by its bytes like every upload, counted in the
     * scan's agent's upload quota) as a new saved image, or with `edit` in place of one; the replaced file leaves storage.
     */
    async saveAnnotate(req: FastifyRequest, rawId: string, body: z.output<typeof annotateBody>) {
      const id = parseScanId(rawId);
      const scan = await visibleItem(req, id);
      if (body.file === undefined) throw new ValidationError({ file: messages.required('File') });
      const image = await checkImage(body.file, 'file', 'File');
      const key = await storage.put(image.data, image.contentType);
      const { saved, gone } = await withStoredFiles(storage, [key], () =>
        db.transaction().execute(async (trx) => {
          await chargeAgentUploads(trx, scan.agent_id, { [key]: image.data.length }, 'file');
          const saved = body.edit
            ? await replaceAnnotate(trx, id, body.image_id!, fileUrl(key), req.user!.id)
            : await insertAnnotate(trx, id, fileUrl(key), req.user!.id);
          if (!saved) throw new ValidationError({ image_id: messages.choice('Image') });
          return { saved, gone: await syncScanFiles(trx, id) };
        }),
      );
      await releaseFiles(db, storage, gone, req.log);
      return { id: saved.id, src: saved.src, path: keyOfUrl(saved.src) ?? key, vehicle_photo: saved.vehicle_photo };
    },

    /** DELETE scans/{id}/annotates/{imageId}: removes a saved image (a vehicle photo too); its file goes when no scan uses it. */
    async deleteAnnotate(req: FastifyRequest, rawId: string, rawImageId: string) {
      const id = parseScanId(rawId);
      await visibleItem(req, id);
      const missing = new NotFoundError(ANNOTATE_MODEL, rawImageId);
      if (!/^\d{1,15}$/.test(rawImageId)) throw missing;
      const gone = await db.transaction().execute(async (trx) => {
        if (!(await deleteAnnotate(trx, id, Number(rawImageId)))) throw missing;
        return syncScanFiles(trx, id);
      });
      await releaseFiles(db, storage, gone, req.log);
      return { message: 'Deleted Successfully' };
    },

    /** PUT scans/{id}/tyre-repairs: one wheel's repair choice (replacing its earlier one); replies every choice of the scan. */
    async setTyreRepair(req: FastifyRequest, rawId: string, body: z.output<typeof tyreRepairBody>) {
      const id = parseScanId(rawId);
      await visibleItem(req, id);
      await db.transaction().execute(async (trx) => {
        const wheels = await tyreWheels(trx, id);
        if (!wheels.some((w) => w.row === body.row && w.direction === body.direction))
          throw new ValidationError({ row: messages.choice('Tyre') });
        await setTyreRepair(trx, id, body, body.repair_type, req.user!.id);
      });
      return tyreRepairs(db, id);
    },

    /** Recounts the damage totals (news to webhooks and the live list only when they changed) and writes a missing report. */
    async refresh(req: FastifyRequest, rawId: string) {
      const id = parseScanId(rawId);
      const item = await visibleItem(req, id);
      const changed = await db.transaction().execute(async (trx) => {
        const counts = async () => {
          const row = await findScanItem(trx, id);
          return `${row?.dentCount}/${row?.scratchCount}`;
        };
        const before = await counts();
        await refreshCounts(trx, id, false);
        return (await counts()) === before ? null : queueScanEvent(trx, 'updated', id);
      });
      await broadcastScan(deps, 'updated', changed);
      if (item.status === 'uploaded' && !(await hasScanReport(db, id))) await writeScanReport(db, storage, id, req.log);
      return detail(req, id);
    },
  };
}
