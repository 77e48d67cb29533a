import { sql } from 'kysely';
import type { z } from 'zod';
import { DAMAGE_LEVELS, type DamageType } from '../../../src/domain/scan-codes';
import type { PortalScanDetailRecord, PortalScanRecord } from '../../../src/domain/portal';
import type { Executor } from '../../db/database';

type PortalScan = z.infer<typeof PortalScanRecord>;
type PortalScanDetail = z.infer<typeof PortalScanDetailRecord>;
type LevelCounts = PortalScanDetail['measures']['dents'][string];

/** Whether a scan has a quote (completed); saving or deleting a quote publishes `saved` (quote service). */
const HAS_QUOTE = sql<boolean>`exists (select 1 from quotes q where q.scan_id = s.id)`;

const cardColumns = sql`s.id, s.license_plate as "licensePlate", s.scanned_at as "timestamp", s.status, s.type,
  ${HAS_QUOTE} as has_quote, s.dent_count + s.scratch_count as "damageCount", s.dent_count as "dentCount", s.scratch_count as "scratchCount"`;
const inWindow = (agentId: number, hours: number) =>
  sql<boolean>`s.agent_id = ${agentId} and s.scanned_at > now() - make_interval(hours => ${hours})`;

/** The agent's scans of the last `hours`, newest first (index scans_agent_scanned_idx). */
export async function portalScans(db: Executor, agentId: number, hours: number, limit: number): Promise<PortalScan[]> {
  const r = await sql<PortalScan>`select ${cardColumns} from scans s where ${inWindow(agentId, hours)}
    order by s.scanned_at desc, s.id desc limit ${limit}`.execute(db);
  return r.rows;
}

/** The portal's scan page: only when the scan is this agent's and of the last `hours`; else null. */
export async function portalScanDetail(db: Executor, agentId: number, scanId: number, hours: number): Promise<PortalScanDetail | null> {
  const head = await sql<
    PortalScan & {
      make: string | null;
      model: string | null;
      carColor: string | null;
      body_type: string | null;
      meta_thumbnail: string | null;
      meta_src: string | null;
    }
  >`select ${cardColumns}, s.make, s.model, s.car_color as "carColor", s.body_type, s.meta_thumbnail, s.meta_src
    from scans s where s.id = ${scanId} and ${inWindow(agentId, hours)}`.execute(db);
  const scan = head.rows[0];
  if (!scan) return null;
  const [measures, damages, tyres, photos] = await Promise.all([
    sql<{ car_panel: string; type: DamageType; level: keyof LevelCounts; count: number }>`
      select car_panel, type, level, count from scan_measures where scan_id = ${scanId} order by car_panel`.execute(db),
    sql<{ id: number; type: DamageType; carPanel: string; level: string; src: string | null }>`
      select id, type, car_panel as "carPanel", level, image as src from scan_damages where scan_id = ${scanId}
      order by car_panel, type, id`.execute(db),
    sql<PortalScanDetail['tyres'][number]>`
      select label, "row", direction, position, depths, eaten_tire as "eatenTire", pressure_tire as "pressureTire",
        image_file as "imageFileUrl"
      from scan_tyres where scan_id = ${scanId} order by "row", direction, position`.execute(db),
    sql<{ id: number; src: string }>`
      select id, src from scan_annotates where scan_id = ${scanId} and vehicle_photo order by id`.execute(db),
  ]);
  const counts: PortalScanDetail['measures'] = { dents: {}, scratchs: {} };
  const zero = () => Object.fromEntries(DAMAGE_LEVELS.map((l) => [l, 0])) as LevelCounts;
  for (const m of measures.rows) (counts[m.type][m.car_panel] ??= zero())[m.level] = m.count;
  const { meta_thumbnail, meta_src, ...fields } = scan;
  return {
    ...fields,
    image: meta_thumbnail || meta_src ? { thumbnail: meta_thumbnail, src: meta_src } : null,
    measures: counts,
    damages: damages.rows,
    tyres: tyres.rows,
    photos: photos.rows,
  };
}
