import { type Insertable, sql } from 'kysely';
import { DAMAGE_LEVELS, type DamageLevel, type DamageType, tyreLabel } from '../../src/domain/scan-codes';
import { loadConfig } from '../config';
import type { Database, Executor } from '../db/database';
import type { ScanAnnotatesTable, ScanDamagesTable, ScanTyresTable, ScanVideosTable } from '../db/schema';
import { createStorage, type FileStorage, fileUrl } from '../lib/storage';
import {
  CAR_PANELS,
  colourHex,
  createRng,
  generateScan,
  type GeneratedScan,
  type RegistryEntry,
  registryEntry,
  registryVehicles,
  type Rng,
} from '../scans-generator';
import { damageImage, sampleVideo, tyreChart, tyreImage, vehicleImage, videoThumbnail } from '../scans-generator/images';
import type { LevelCounts } from '../services/scan/scan-repository';
import { type ReportInput, SCAN_REPORTS, scanReportPdf } from '../services/scan/report';
import { linkScanVehicle } from '../services/scan/vehicles-service';

const DAY = 24 * 3600 * 1000;
const chunks = <T>(xs: T[], n: number) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/** Files shared by the demo scans: each picture is drawn once and stored once (scan_files keeps them while any scan uses them). */
function imagePool(storage: FileStorage, rng: Rng) {
  const made = new Map<string, Promise<string>>();
  const once = (key: string, draw: () => Promise<Buffer>, type = 'image/png') => {
    let url = made.get(key);
    if (!url) {
      url = draw()
        .then((data) => storage.put(data, type))
        .then(fileUrl);
      made.set(key, url);
    }
    return url;
  };
  return {
    damage: (colour: string, type: DamageType, level: DamageLevel) =>
      once(`d|${colour}|${type}|${level}|${rng.int(0, 1)}`, () => damageImage({ hex: colourHex(colour), type, level, rng })),
    tyre: (wear: string) => once(`t|${wear}`, () => tyreImage(wear as Parameters<typeof tyreImage>[0])),
    chart: (wear: string, depths: number[]) => once(`c|${wear}`, () => tyreChart(depths)),
    thumbnail: (colour: string, body: string) =>
      once(`v|${colour}|${body}`, () => vehicleImage({ hex: colourHex(colour), bodyType: body })),
    src: (colour: string, body: string) =>
      once(`s|${colour}|${body}`, () => vehicleImage({ hex: colourHex(colour), bodyType: body, scale: 3 })),
    video: () => once('video', async () => sampleVideo(), 'video/webm'),
    videoThumb: () => once('video-thumb', videoThumbnail),
  };
}

interface Plan {
  scan: GeneratedScan;
  device: {
    id: number;
    agent_id: number;
    location_id: number;
    default_client_id: number;
    serial: string;
    state: string;
    agent_name: string;
    location_name: string;
  };
  clientId: number;
  status: 'metadata' | 'ready' | 'uploaded';
}

/**
 * ~300 demo scans over the last 30 days across the demo devices (10-20 of them in the last 48 hours), made by the
 * scan generator the simulator uses, inserted directly. Fast: pictures come from a small shared pool.
 */
export async function seedScans(
  db: Database,
  storage: FileStorage = createStorage(loadConfig()),
  opts: { count?: number; seed?: number; now?: Date } = {},
) {
  const rng = createRng(opts.seed ?? 20240531);
  const now = opts.now ?? new Date();
  const devices = (
    await sql<Plan['device'] & { type: string; agent_default_client: number | null }>`
    select d.id, d.type, d.agent_id, d.location_id, d.default_client_id, d.serial, l.state, l.name as location_name, a.name as agent_name,
      a.default_client_id as agent_default_client
    from devices d join locations l on l.id = d.location_id join agents a on a.id = d.agent_id order by d.id`.execute(db)
  ).rows;
  if (!devices.length) return 0;
  const clients = new Map(
    (await sql<{ id: number; name: string }>`select id, name from clients`.execute(db)).rows.map((c) => [c.id, c.name]),
  );
  const panelRows = (
    await sql<{ car_panel: string }>`select distinct car_panel from panels where car_panel is not null order by 1`.execute(db)
  ).rows;
  const panels = panelRows.length ? panelRows.map((p) => p.car_panel) : CAR_PANELS;

  const count = opts.count ?? 300;
  const recent = rng.int(12, 16);
  const plans: Plan[] = [];
  for (let i = 0; i < count; i++) {
    const device = rng.pick(devices);
    const at = i < recent ? new Date(now.getTime() - rng.int(5, 47 * 60) * 60_000) : new Date(now.getTime() - 2 * DAY - rng() * 28 * DAY);
    const type = device.type === 'arch' && rng.chance(0.15) ? 'chasis' : (device.type as 'arch' | 'tire' | 'chasis');
    const scan = generateScan(rng, { type, state: device.state, at, panels, prefix: device.serial });
    // The newest few are still on their way in; a handful of older ones never got past ready.
    const status = i < 2 ? 'metadata' : i < 4 || rng.chance(0.04) ? 'ready' : 'uploaded';
    const clientId = rng.chance(0.25) && device.agent_default_client ? device.agent_default_client : device.default_client_id;
    plans.push({ scan, device, clientId, status });
  }

  const revisit = returnVisit(plans, now);
  if (revisit) plans.push(revisit);

  const pool = imagePool(storage, rng);
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('scans')
      .values(
        plans.map((p) => ({
          scan_id: p.scan.scan_id.toLowerCase(),
          agent_id: p.device.agent_id,
          client_id: p.clientId,
          location_id: p.device.location_id,
          device_id: p.device.id,
          type: p.scan.type,
          status: p.status,
          license_plate: p.scan.vehicle.licensePlate,
          make: p.scan.vehicle.make,
          model: p.scan.vehicle.model,
          car_color: p.scan.vehicle.carColor,
          body_type: p.scan.vehicle.body_type,
          valuation: p.scan.vehicle.valuation,
          location_state: p.scan.vehicle.location_state,
          scanned_at: p.scan.timestamp,
          start_time: p.scan.startTime,
          created_at: p.scan.timestamp,
          updated_at: p.scan.timestamp,
        })),
      )
      .returning('id')
      .execute();

    const damages: Insertable<ScanDamagesTable>[] = [];
    const measures: { scan_id: number; car_panel: string; type: string; level: string; count: number }[] = [];
    const tyres: Insertable<ScanTyresTable>[] = [];
    const videos: Insertable<ScanVideosTable>[] = [];
    const annotates: Insertable<ScanAnnotatesTable>[] = [];
    const reports: { scan_id: number; kind: string; label: string; url: string }[] = [];
    const files = new Set<string>();
    const link = (scanId: number, url: string) => {
      files.add(`${scanId}|${url.slice(url.lastIndexOf('/') + 1)}`);
      return url;
    };

    for (const [i, p] of plans.entries()) {
      const id = inserted[i].id;
      const { scan } = p;
      if (p.status === 'metadata') continue;
      const colour = scan.vehicle.carColor;
      const counts: { dents: Record<string, LevelCounts>; scratchs: Record<string, LevelCounts>; damage_count: Record<string, number> } = {
        dents: {},
        scratchs: {},
        damage_count: {},
      };
      for (const d of scan.damages) {
        damages.push({
          scan_id: id,
          damage_id: d.id,
          car_panel: d.carPanel,
          type: d.type,
          level: d.level,
          width_mm: d.width_mm,
          height_mm: d.height_mm,
          image: link(id, await pool.damage(colour, d.type, d.level)),
        });
        const row = (counts[d.type][d.carPanel] ??= Object.fromEntries(DAMAGE_LEVELS.map((l) => [l, 0])) as LevelCounts);
        row[d.level]++;
        counts.damage_count[d.carPanel] = (counts.damage_count[d.carPanel] ?? 0) + 1;
      }
      for (const type of ['dents', 'scratchs'] as const) {
        for (const [panel, levels] of Object.entries(counts[type])) {
          for (const [level, n] of Object.entries(levels))
            if (n > 0) measures.push({ scan_id: id, car_panel: panel, type, level, count: n });
        }
      }
      const lastRow = Math.max(0, ...scan.tyres.map((t) => t.row));
      const tyreRows = [];
      for (const t of scan.tyres) {
        const label = tyreLabel(t.row, lastRow, t.direction);
        tyreRows.push({
          label,
          position: t.position,
          depths: t.depths,
          conclusionDescription: { eatenTire: t.eatenTire ?? 'NONE', pressureTire: t.pressureTire ?? 'NONE' },
        });
        tyres.push({
          scan_id: id,
          row: t.row,
          direction: t.direction,
          position: t.position,
          label,
          depths: t.depths,
          eaten_tire: t.eatenTire ?? 'NONE',
          pressure_tire: t.pressureTire ?? 'NONE',
          coord_x: t.coordinates?.x ?? null,
          coord_y: t.coordinates?.y ?? null,
          measurement_image: link(id, await pool.chart(t.wear, t.depths)),
          image_file: link(id, await pool.tyre(t.wear)),
        });
      }
      const body = scan.vehicle.body_type;
      const thumb = link(id, await pool.thumbnail(colour, body));
      const src = link(id, await pool.src(colour, body));
      const dentCount = scan.damages.filter((d) => d.type === 'dents').length;
      const scratchCount = scan.damages.length - dentCount;
      await trx
        .updateTable('scans')
        .set({
          meta_thumbnail: thumb,
          meta_src: src,
          dent_count: dentCount,
          scratch_count: scratchCount,
          [scan.type]: JSON.stringify(scan.summary),
        })
        .where('id', '=', id)
        .execute();
      if (scan.type === 'arch')
        videos.push({
          scan_id: id,
          video_id: 'v-001',
          src: link(id, await pool.video()),
          thumbnail: link(id, await pool.videoThumb()),
          content_type: 'video/webm',
          size: sampleVideo().length,
        });
      if (rng.chance(0.1))
        annotates.push({ scan_id: id, image_id: 'photo-1', src: link(id, await pool.src(colour, body)), vehicle_photo: true });
      if (p.status === 'uploaded') {
        const input: ReportInput = {
          agent_name: p.device.agent_name,
          location_name: p.device.location_name,
          licensePlate: scan.vehicle.licensePlate,
          location_state: scan.vehicle.location_state,
          make: scan.vehicle.make,
          model: scan.vehicle.model,
          carColor: colour,
          body_type: body,
          timestamp: scan.timestamp,
          type: scan.type,
          status: p.status,
          scan_id: scan.scan_id.toLowerCase(),
          client_name: clients.get(p.clientId) ?? null,
          dentCount,
          scratchCount,
          damageCount: dentCount + scratchCount,
          measures: counts,
          data: tyreRows,
        };
        for (const r of SCAN_REPORTS)
          reports.push({
            scan_id: id,
            kind: r.kind,
            label: r.label,
            url: link(id, fileUrl(await storage.put(scanReportPdf(input, r.audience), 'application/pdf'))),
          });
      }
    }
    for (const part of chunks(damages, 2000)) await trx.insertInto('scan_damages').values(part).execute();
    for (const part of chunks(measures, 5000)) await trx.insertInto('scan_measures').values(part).execute();
    for (const part of chunks(tyres, 2000)) await trx.insertInto('scan_tyres').values(part).execute();
    if (videos.length) await trx.insertInto('scan_videos').values(videos).execute();
    if (annotates.length) await trx.insertInto('scan_annotates').values(annotates).execute();
    if (reports.length) await trx.insertInto('scan_reports').values(reports).execute();
    const links = [...files].map((f) => ({ scan_id: Number(f.slice(0, f.indexOf('|'))), key: f.slice(f.indexOf('|') + 1) }));
    for (const part of chunks(links, 5000)) await trx.insertInto('scan_files').values(part).execute();
    // Every scan joins its vehicle as a device's would (oldest first), which stores the comparisons between them.
    const order = inserted.map((row, i) => ({ id: row.id, at: plans[i].scan.timestamp.getTime() })).sort((a, b) => a.at - b.at);
    for (const { id } of order) await linkScanVehicle(trx, id);
    // The built-in plate look-up answers from this registry (docs/scan-page.md): the scanned vehicles and some not yet scanned.
    await seedRegistrations(trx, [
      ...plans.map((p) => registryEntry(p.scan.vehicle)),
      ...registryVehicles(createRng(opts.seed ?? 20240531), 25),
    ]);
  });
  return plans.length;
}

/**
 * A second arch scan of an uploaded, damaged car three days after its first, with two more medium dents on one of
 * its panels: the demo's vehicle with a history and new damage since its last scan. Null when no scan fits.
 */
function returnVisit(plans: Plan[], now: Date): Plan | null {
  const later = (p: Plan) => new Date(p.scan.timestamp.getTime() + 3 * DAY);
  const base = plans.find(
    (p) => p.scan.type === 'arch' && p.status === 'uploaded' && p.scan.damages.length > 0 && later(p).getTime() < now.getTime(),
  );
  if (!base) return null;
  const panel = base.scan.damages[0].carPanel;
  const extra = [1, 2].map((n) => ({
    id: `revisit-${n}`,
    carPanel: panel,
    type: 'dents' as const,
    level: 'medium' as const,
    width_mm: 80,
    height_mm: 60,
  }));
  const at = later(base);
  return {
    ...base,
    scan: {
      ...base.scan,
      scan_id: `${base.scan.scan_id}-revisit`,
      timestamp: at,
      startTime: at,
      damages: [...base.scan.damages, ...extra],
    },
  };
}

/** Writes registry rows for the built-in plate look-up; a plate already registered in its state keeps its row. */
export async function seedRegistrations(db: Executor, entries: RegistryEntry[]) {
  for (const part of chunks(entries, 2000))
    await db
      .insertInto('registrations')
      .values(part)
      .onConflict((oc) => oc.columns(['number', 'state']).doNothing())
      .execute();
}
