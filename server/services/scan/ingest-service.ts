import type { Transaction } from 'kysely';
import type { z } from 'zod';
import { messages } from '../../../src/domain/fields';
import { inScope } from '../../../src/domain/permissions';
import { type ScanStatus, scanVehicleFields, statusRank } from '../../../src/domain/scan-codes';
import { type ingestScanBody } from '../../../src/domain/scans';
import type { DB } from '../../db/schema';
import { ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import type { Caller } from '../../lib/caller';
import { checkImage, putImage, type UploadedFile } from '../../lib/images';
import { checkReferences } from '../../lib/resource';
import { fileUrl } from '../../lib/storage';
import { chargeAgentUploads } from '../../lib/upload-quota';
import { broadcastScan, queueScanEvent, type ScanEventKind } from './events';
import { checkVideo, releaseFiles, withStoredFiles } from './files';
import { syncScanFiles } from './files-repository';
import {
  devicesOfAgents,
  findDeviceOrigin,
  findScanHead,
  findScanIdByDeviceScanId,
  type ImageSlot,
  insertDeviceScan,
  placeImage,
  type ScanResults,
  setScanStatus,
  upsertVideo,
  writeScanResults,
} from './ingest-repository';
import { findScanItem } from './scan-repository';
import { parseScanId, SCAN_MODEL, type ScanDeps, writeScanReport } from './shared';
import { linkScanVehicle, refreshComparisonsAround } from './vehicles-service';

/** A device's caller: the API key's user (the auth plugin checked the key), their data scope, and where the call's log lines go. */
type Device = Pick<Caller, 'actor' | 'scope' | 'log'>;

/**
 * The device ingestion API's work (docs/ingestion.md). A device acts only for its API key's user's agents, and only
 * on scans inside that user's data scope (a key user held to clients too reaches only their clients' scans). Every
 * call is idempotent on the device's own ids.
 */
export function scanIngestion(deps: Pick<ScanDeps, 'db' | 'storage' | 'broadcaster' | 'log'>) {
  const { db, storage } = deps;
  const agentsOf = (device: Device) => device.actor.agents;
  /** The scan a device addresses: 404 when there is none, 403 when it is outside the key user's agents or scope. */
  const ownScan = async (device: Device, raw: string) => {
    const id = parseScanId(raw);
    const scan = await findScanHead(db, id);
    if (!scan) throw new NotFoundError(SCAN_MODEL, id);
    if (!agentsOf(device).includes(scan.agent_id) || !inScope(device.scope, scan)) throw new ForbiddenError();
    return scan;
  };
  const item = async (id: number) => {
    const row = await findScanItem(db, id);
    if (!row) throw new NotFoundError(SCAN_MODEL, id);
    return row;
  };
  /** Queues the scan's webhooks in the writing transaction and returns its list row (a scan deleted meanwhile: 404, nothing kept). */
  const queued = async (trx: Transaction<DB>, kind: ScanEventKind, id: number) => {
    const row = await queueScanEvent(trx, kind, id);
    if (!row) throw new NotFoundError(SCAN_MODEL, id);
    return row;
  };
  /** Stores the files, runs the write, then releases the files the scan no longer uses. */
  const withFiles = async (device: Device, scanId: number, keys: string[], write: (trx: Transaction<DB>) => Promise<void>) => {
    const gone = await withStoredFiles(storage, keys, () =>
      db.transaction().execute(async (trx) => {
        await write(trx);
        return syncScanFiles(trx, scanId);
      }),
    );
    await releaseFiles(db, storage, gone, device.log);
  };

  return {
    devices: (device: Device) => devicesOfAgents(db, agentsOf(device), device.scope.clients),

    /** Creates a scan from its device; a replayed scan_id returns the agent's existing scan (`created` false). */
    async createScan(caller: Caller, b: z.output<typeof ingestScanBody>) {
      const device = await findDeviceOrigin(db, b.device_id);
      if (!device) throw new ValidationError({ device_id: messages.choice('Device') });
      if (!agentsOf(caller).includes(device.agent_id)) throw new ForbiddenError();
      // A client named in the body is a field: as on the scan page, one the key's user may see (for an Agent user, one
      // their agents serve), else 422 naming it.
      if (b.client_id != null)
        await checkReferences(
          db,
          { user: caller.actor, scope: caller.scope },
          { client_id: scanVehicleFields.client_id },
          { client_id: b.client_id },
        );
      // The scan's client (the device's default unless one is named) must be one the key's user may see.
      const clientId = b.client_id ?? device.default_client_id;
      if (!inScope(caller.scope, { agent_id: device.agent_id, client_id: clientId })) throw new ForbiddenError();
      const created = await db.transaction().execute(async (trx) => {
        const id = await insertDeviceScan(trx, {
          scan_id: b.scan_id,
          agent_id: device.agent_id,
          client_id: clientId,
          location_id: device.location_id,
          device_id: b.device_id,
          type: b.type,
          license_plate: b.licensePlate ?? null,
          make: b.make ?? null,
          model: b.model ?? null,
          car_color: b.carColor ?? null,
          body_type: b.body_type ?? null,
          valuation: b.valuation ?? null,
          location_state: b.location_state ?? device.state,
          scanned_at: b.timestamp ?? new Date().toISOString(),
          start_time: b.startTime ?? b.timestamp ?? null,
        });
        if (id !== null) await linkScanVehicle(trx, id, { vin: b.vin, odometer_km: b.odometer_km });
        return id === null ? null : queued(trx, 'created', id);
      });
      if (created) {
        await broadcastScan(deps, 'created', created);
        return { created: true, item: created };
      }
      return { created: false, item: await item((await findScanIdByDeviceScanId(db, device.agent_id, b.scan_id))!) };
    },

    async uploadResults(device: Device, rawId: string, b: ScanResults) {
      const scan = await ownScan(device, rawId);
      const row = await db.transaction().execute(async (trx) => {
        await writeScanResults(trx, scan.id, b);
        await refreshComparisonsAround(trx, scan.id);
        return queued(trx, 'updated', scan.id);
      });
      await broadcastScan(deps, 'updated', row);
      return row;
    },

    async uploadImage(device: Device, rawId: string, b: ImageSlot & { file: UploadedFile }) {
      const scan = await ownScan(device, rawId);
      const image = await checkImage(b.file, 'file', 'File', { photo: true });
      const key = await putImage(storage, image);
      const url = fileUrl(key);
      await withFiles(device, scan.id, [key], async (trx) => {
        await chargeAgentUploads(trx, scan.agent_id, { [key]: image.data.length }, 'file');
        await placeImage(trx, scan.id, url, b);
      });
      return { url };
    },

    async uploadVideo(device: Device, rawId: string, b: { video_id: string; file: UploadedFile; thumbnail?: UploadedFile }) {
      const scan = await ownScan(device, rawId);
      const video = checkVideo(b.file, 'file', 'File');
      const thumb = b.thumbnail ? await checkImage(b.thumbnail, 'thumbnail', 'Thumbnail', { photo: true }) : null;
      const key = await storage.put(video.data, video.contentType);
      const keys = [key];
      try {
        if (thumb) keys.push(await putImage(storage, thumb));
      } catch (e) {
        await storage.delete(key).catch(() => {});
        throw e;
      }
      const src = fileUrl(key);
      const thumbnail = keys[1] ? fileUrl(keys[1]) : null;
      await withFiles(device, scan.id, keys, async (trx) => {
        await chargeAgentUploads(
          trx,
          scan.agent_id,
          { [key]: video.data.length, ...(keys[1] && thumb ? { [keys[1]]: thumb.data.length } : {}) },
          'file',
        );
        await upsertVideo(trx, scan.id, { video_id: b.video_id, src, thumbnail, content_type: video.contentType, size: video.data.length });
      });
      return { url: src };
    },

    /** Moves the status forward only; on uploaded the report PDF is written. */
    async setStatus(device: Device, rawId: string, next: ScanStatus) {
      const scan = await ownScan(device, rawId);
      if (statusRank(next) < statusRank(scan.status)) throw new ValidationError({ status: `The scan is already ${scan.status}` });
      if (next === scan.status) return item(scan.id);
      const row = await db.transaction().execute(async (trx) => {
        await setScanStatus(trx, scan.id, next);
        return queued(trx, 'updated', scan.id);
      });
      if (next === 'uploaded') await writeScanReport(db, storage, scan.id, device.log);
      await broadcastScan(deps, 'updated', row);
      return row;
    },
  };
}
