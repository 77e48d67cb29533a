import type { z } from 'zod';
import { messages } from '../../../src/domain/fields';
import { changedFields } from '../../../src/domain/history';
import type { annotateBody, editDamageCountBody, tyreRepairBody } from '../../../src/domain/scans';
import { NotFoundError, ValidationError } from '../../errors';
import type { Caller } from '../../lib/caller';
import { checkImage, putImage } from '../../lib/images';
import { fileUrl, keyOfUrl } from '../../lib/storage';
import { chargeAgentUploads } from '../../lib/upload-quota';
import { versionedWrite } from '../../lib/versions';
import { broadcastScan, queueScanEvent } from './events';
import { releaseFiles, withStoredFiles } from './files';
import { syncScanFiles } from './files-repository';
import { recordScanEvent, scanCounts } from './history-service';
import {
  annotateNumber,
  archData,
  deleteAnnotate,
  findScanMeta,
  insertAnnotate,
  isKnownCarPanel,
  replaceAnnotate,
  setPanelCounts,
  setTyreRepair,
  tyreWheels,
} from './scan-page-repository';
import { tyreRepairs } from './scan-repository';
import { visibleScans } from './scans-service';
import { parseScanId, type ScanDeps, writeScanReport } from './shared';
import { refreshComparisonsAround } from './vehicles-service';
import { scanVersion } from './version-repository';

/** A saved image of a scan (scan_annotates), in the model's 404. */
export const ANNOTATE_MODEL = 'ScanImage';

/** Thrown inside a transaction to undo a write that changed nothing. */
const UNCHANGED = new Error('unchanged');

/**
 * The scan page's own reads and edits (docs/scan-page.md) for a caller who may see the scan: meta images, the car
 * sketch, damage counts, saved images and tyre repair choices.
 */
export function scanPage(deps: Pick<ScanDeps, 'db' | 'storage' | 'broadcaster' | 'log'>) {
  const { db, storage } = deps;
  const visible = visibleScans(db);

  return {
    /** GET meta/{id}: the scan's meta images (null without them). */
    async meta(caller: Pick<Caller, 'scope'>, rawId: string) {
      const id = parseScanId(rawId);
      await visible.item(caller, id);
      return findScanMeta(db, id);
    },

    /** GET archData/search: the car sketch's panel groups with the scan's counts by measure. */
    async archData(caller: Pick<Caller, 'scope'>, scanId: number) {
      const item = await visible.item(caller, scanId);
      return archData(db, scanId, item.type);
    },

    /**
     * POST scans/arch/edit-damage-count: sets a panel's counts per level and recomputes the scan's totals in the same
     * transaction, with `scan.updated` queued for the webhooks; then the live `updated` event and (uploaded) the report.
     */
    async editDamageCount(caller: Pick<Caller, 'actor' | 'scope' | 'log'>, body: z.output<typeof editDamageCountBody>) {
      const id = body.scan_id;
      const current = await visible.item(caller, id);
      const item = await db
        .transaction()
        .execute(async (trx) => {
          if (!(await isKnownCarPanel(trx, id, body.car_panel))) throw new ValidationError({ car_panel: messages.choice('Car Panel') });
          const before = await scanCounts(trx, id, body.car_panel);
          await versionedWrite(trx, scanVersion(trx, id, body.version, caller.actor.id), () =>
            setPanelCounts(trx, id, body.car_panel, { dents: body.dents, scratchs: body.scratchs }),
          );
          const after = await scanCounts(trx, id, body.car_panel);
          // Counts saved as they were change nothing: no version, no history, no webhook (the write is undone).
          if (Object.keys(changedFields(before, after).after).length === 0) throw UNCHANGED;
          await refreshComparisonsAround(trx, id);
          await recordScanEvent(trx, caller.actor, current, 'scan.counts_changed', before, after);
          return queueScanEvent(trx, 'updated', id);
        })
        .catch((e: unknown) => {
          if (e === UNCHANGED) return null;
          throw e;
        });
      if (!item) return visible.detail(caller, id);
      if (current.status === 'uploaded') await writeScanReport(db, storage, id, caller.log);
      await broadcastScan(deps, 'updated', item);
      return visible.detail(caller, id);
    },

    /**
     * POST scans/{id}/annotates: stores a crop or an annotation (checked by its bytes like every upload, counted in the
     * scan's agent's upload quota) as a new saved image, or with `edit` in place of one; the replaced file leaves storage.
     */
    async saveAnnotate(caller: Caller, rawId: string, body: z.output<typeof annotateBody>) {
      const id = parseScanId(rawId);
      const scan = await visible.item(caller, id);
      if (body.file === undefined) throw new ValidationError({ file: messages.required('File') });
      const image = await checkImage(body.file, 'file', 'File', { photo: true });
      const key = await putImage(storage, image);
      const { saved, gone } = await withStoredFiles(storage, [key], () =>
        db.transaction().execute(async (trx) => {
          await chargeAgentUploads(trx, scan.agent_id, { [key]: image.data.length }, 'file');
          const saved = body.edit
            ? await replaceAnnotate(trx, id, body.image_id!, fileUrl(key), caller.actor.id)
            : await insertAnnotate(trx, id, fileUrl(key), caller.actor.id);
          if (!saved) throw new ValidationError({ image_id: messages.choice('Image') });
          await recordScanEvent(trx, caller.actor, scan, 'scan.image_saved', {}, { saved_image: await annotateNumber(trx, id, saved.id) });
          return { saved, gone: await syncScanFiles(trx, id) };
        }),
      );
      await releaseFiles(db, storage, gone, caller.log);
      return { id: saved.id, src: saved.src, path: keyOfUrl(saved.src) ?? key, vehicle_photo: saved.vehicle_photo };
    },

    /** DELETE scans/{id}/annotates/{imageId}: removes a saved image (a vehicle photo too); its file goes when no scan uses it. */
    async deleteAnnotate(caller: Pick<Caller, 'actor' | 'scope' | 'log'>, rawId: string, rawImageId: string) {
      const id = parseScanId(rawId);
      const scan = await visible.item(caller, id);
      const missing = new NotFoundError(ANNOTATE_MODEL, rawImageId);
      if (!/^\d{1,15}$/.test(rawImageId)) throw missing;
      const gone = await db.transaction().execute(async (trx) => {
        const n = await annotateNumber(trx, id, Number(rawImageId));
        if (!(await deleteAnnotate(trx, id, Number(rawImageId)))) throw missing;
        await recordScanEvent(trx, caller.actor, scan, 'scan.image_deleted', { saved_image: n });
        return syncScanFiles(trx, id);
      });
      await releaseFiles(db, storage, gone, caller.log);
      return { message: 'Deleted Successfully' };
    },

    /** PUT scans/{id}/tyre-repairs: one wheel's repair choice (replacing its earlier one); replies every choice of the scan. */
    async setTyreRepair(caller: Pick<Caller, 'actor' | 'scope'>, rawId: string, body: z.output<typeof tyreRepairBody>) {
      const id = parseScanId(rawId);
      const scan = await visible.item(caller, id);
      await db.transaction().execute(async (trx) => {
        const wheels = await tyreWheels(trx, id);
        if (!wheels.some((w) => w.row === body.row && w.direction === body.direction))
          throw new ValidationError({ row: messages.choice('Tyre') });
        const wheel = `tyre.${body.row}.${body.direction}`;
        const was = (await tyreRepairs(trx, id)).find((r) => r.row === body.row && r.direction === body.direction);
        await versionedWrite(trx, scanVersion(trx, id, body.version, caller.actor.id), () =>
          setTyreRepair(trx, id, body, body.repair_type, caller.actor.id),
        );
        await recordScanEvent(
          trx,
          caller.actor,
          scan,
          'scan.tyre_choice',
          { [wheel]: was?.repair_type ?? null },
          { [wheel]: body.repair_type },
        );
      });
      return tyreRepairs(db, id);
    },
  };
}
