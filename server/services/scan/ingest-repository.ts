import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import { type ImageKind, type ScanStatus, tyreLabel } from '../../../src/domain/scan-codes';
import { type ingestResultsBody } from '../../../src/domain/scans';
import type { Executor } from '../../db/database';
import { ValidationError } from '../../errors';
import { idArray } from '../../lib/resource';
import { refreshCounts } from './scan-repository';

/** The device ingestion API's statements: devices, device scans, results, images, videos and status. */

/** A scan's owner and status: what a device call checks before it writes. */
export async function findScanHead(db: Executor, id: number) {
  const r = await sql<{
    id: number;
    agent_id: number;
    client_id: number | null;
    status: ScanStatus;
  }>`select id, agent_id, client_id, status from scans where id = ${id}`.execute(db);
  return r.rows[0] ?? null;
}

export interface DeviceRow {
  id: number;
  serial: string;
  type: string;
  agent_id: number;
  location_id: number;
  location_name: string;
  location_state: string;
}

/** The devices of these agents with their site, by agent then id; for a key user held to clients, those whose default client is one of theirs. */
export async function devicesOfAgents(db: Executor, agents: number[], clients: number[] | null) {
  const r = await sql<DeviceRow>`
    select d.id, d.serial, d.type, d.agent_id, d.location_id, l.name as location_name, l.state as location_state
    from devices d join locations l on l.id = d.location_id where d.agent_id = any(${idArray(agents)})
    ${clients === null ? sql`` : sql`and d.default_client_id = any(${idArray(clients)})`} order by d.agent_id, d.id`.execute(db);
  return r.rows;
}

/** What a new device scan takes from its device: agent, site, default client and the site's state. */
export async function findDeviceOrigin(db: Executor, deviceId: number) {
  const r = await sql<{ agent_id: number; location_id: number; default_client_id: number; state: string }>`
    select d.agent_id, d.location_id, d.default_client_id, l.state from devices d join locations l on l.id = d.location_id
    where d.id = ${deviceId}`.execute(db);
  return r.rows[0] ?? null;
}

export interface NewDeviceScan {
  scan_id: string;
  agent_id: number;
  client_id: number;
  location_id: number;
  device_id: number;
  type: string;
  license_plate: string | null;
  make: string | null;
  model: string | null;
  car_color: string | null;
  body_type: string | null;
  valuation: number | null;
  location_state: string;
  scanned_at: string;
  start_time: string | null;
}

/** Inserts a device's scan (status metadata); null when the agent already has that scan_id (a replay). */
export async function insertDeviceScan(trx: Executor, s: NewDeviceScan) {
  const r = await sql<{
    id: number;
  }>`insert into scans (scan_id, agent_id, client_id, location_id, device_id, type, status, license_plate, make,
      model, car_color, body_type, valuation, location_state, scanned_at, start_time)
    values (${s.scan_id}, ${s.agent_id}, ${s.client_id}, ${s.location_id}, ${s.device_id}, ${s.type}, 'metadata',
      ${s.license_plate}, ${s.make}, ${s.model}, ${s.car_color}, ${s.body_type}, ${s.valuation},
      ${s.location_state}, ${s.scanned_at}, ${s.start_time})
    on conflict (agent_id, scan_id) do nothing returning id`.execute(trx);
  return r.rows[0]?.id ?? null;
}

/** The scan an agent's device created under its own scan_id. */
export async function findScanIdByDeviceScanId(db: Executor, agentId: number, scanId: string): Promise<number | null> {
  const r = await sql<{ id: number }>`select id from scans where agent_id = ${agentId} and scan_id = ${scanId}`.execute(db);
  return r.rows[0]?.id ?? null;
}

export type ScanResults = z.output<typeof ingestResultsBody>;

/**
 * Stores a results upload: part summaries, detections (by id), tyres (by wheel), then the counts: the `measures` sent
 * replace them, else they are derived from the detections when some came.
 */
export async function writeScanResults(trx: Executor, scanId: number, b: ScanResults) {
  const parts = (['arch', 'chasis', 'tire', 'rims'] as const).filter((p) => b[p] !== undefined);
  if (parts.length) {
    await sql`update scans set ${sql.join(parts.map((p) => sql`${sql.ref(p)} = ${b[p] === null ? null : JSON.stringify(b[p])}::jsonb`))} where id = ${scanId}`.execute(
      trx,
    );
  }
  if (b.damages?.length) await upsertDamages(trx, scanId, b.damages);
  if (b.tyres?.length) await upsertTyres(trx, scanId, b.tyres);
  if (!b.measures) return refreshCounts(trx, scanId, !!b.damages?.length);
  await sql`delete from scan_measures where scan_id = ${scanId}`.execute(trx);
  const rows = (['dents', 'scratchs'] as const).flatMap((type) =>
    Object.entries(b.measures?.[type] ?? {}).flatMap(([panel, counts]) =>
      Object.entries(counts)
        .filter(([, n]) => (n ?? 0) > 0)
        .map(([level, n]) => ({ panel, type, level, n })),
    ),
  );
  if (rows.length) {
    await sql`insert into scan_measures (scan_id, car_panel, type, level, count)
      select ${scanId}, * from unnest(${rows.map((x) => x.panel)}::text[], ${rows.map((x) => x.type)}::text[], ${rows.map((x) => x.level)}::text[], ${rows.map((x) => x.n)}::int[])`.execute(
      trx,
    );
  }
  await refreshCounts(trx, scanId, false);
}

async function upsertDamages(trx: Executor, scanId: number, damages: NonNullable<ScanResults['damages']>) {
  await sql`insert into scan_damages (scan_id, damage_id, car_panel, type, level, width_mm, height_mm)
    select ${scanId}, * from unnest(${damages.map((d) => d.id)}::text[], ${damages.map((d) => d.carPanel)}::text[], ${damages.map((d) => d.type)}::text[],
      ${damages.map((d) => d.level)}::text[], ${damages.map((d) => d.width_mm)}::numeric[], ${damages.map((d) => d.height_mm)}::numeric[])
    on conflict (scan_id, damage_id) do update set car_panel = excluded.car_panel, type = excluded.type, level = excluded.level,
      width_mm = excluded.width_mm, height_mm = excluded.height_mm, updated_at = now()`.execute(trx);
}

async function upsertTyres(trx: Executor, scanId: number, tyres: NonNullable<ScanResults['tyres']>) {
  for (const t of tyres) {
    await sql`insert into scan_tyres (scan_id, "row", direction, position, label, depths, eaten_tire, pressure_tire, coord_x, coord_y)
      values (${scanId}, ${t.row}, ${t.direction}, ${t.position}, '', ${t.depths}::real[], ${t.eatenTire}, ${t.pressureTire}, ${t.coordinates?.x ?? null}, ${t.coordinates?.y ?? null})
      on conflict (scan_id, "row", direction, position) do update set depths = excluded.depths, eaten_tire = excluded.eaten_tire,
        pressure_tire = excluded.pressure_tire, coord_x = excluded.coord_x, coord_y = excluded.coord_y, updated_at = now()`.execute(trx);
  }
  // Labels depend on the last row (REAR on the last row), so they are set once all rows are known.
  const rows = await sql<{
    id: number;
    row: number;
    direction: 'L' | 'R';
  }>`select id, "row", direction from scan_tyres where scan_id = ${scanId}`.execute(trx);
  const last = Math.max(...rows.rows.map((x) => x.row));
  await sql`update scan_tyres t set label = v.label from unnest(${rows.rows.map((x) => x.id)}::bigint[], ${rows.rows.map((x) => tyreLabel(x.row, last, x.direction))}::text[]) as v(id, label)
    where t.id = v.id`.execute(trx);
}

/** The slot an uploaded image fills (ingestion): a meta image, a detection, a tyre, or a vehicle photo. */
export interface ImageSlot {
  kind: ImageKind;
  damage_id?: string;
  row?: number;
  direction?: string;
  position?: string;
  image_id?: string;
}

/** Puts an uploaded image's URL into its slot; a slot naming a detection or tyre the scan lacks is the field's 422. */
export async function placeImage(trx: Executor, scanId: number, url: string, b: ImageSlot) {
  const changed = async (q: RawBuilder<unknown>) => Number((await q.execute(trx)).numAffectedRows ?? 0) > 0;
  switch (b.kind) {
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
      const column = b.kind === 'tyre_measurement' ? sql.ref('measurement_image') : sql.ref('image_file');
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

/** Stores (or replaces, by the device's video id) a scan's video. */
export async function upsertVideo(
  trx: Executor,
  scanId: number,
  v: { video_id: string; src: string; thumbnail: string | null; content_type: string; size: number },
) {
  await sql`insert into scan_videos (scan_id, video_id, src, thumbnail, content_type, size)
    values (${scanId}, ${v.video_id}, ${v.src}, ${v.thumbnail}, ${v.content_type}, ${v.size})
    on conflict (scan_id, video_id) do update set src = excluded.src, thumbnail = excluded.thumbnail, content_type = excluded.content_type, size = excluded.size`.execute(
    trx,
  );
}

export async function setScanStatus(trx: Executor, scanId: number, status: ScanStatus) {
  await sql`update scans set status = ${status}, updated_at = now() where id = ${scanId}`.execute(trx);
}
