import { sql } from 'kysely';
import { DAMAGE_LEVELS, type TyreRepairType } from '../../../src/domain/scan-codes';
import type { Executor } from '../../db/database';
import { type LevelCounts, refreshCounts, zeroCounts } from './scan-repository';

/** The scan page's own statements: meta images, the car sketch, damage counts, saved images and tyre repair choices. */

/** The scan's meta images (GET meta/{id}), null when the device sent none. */
export async function findScanMeta(db: Executor, id: number) {
  const r = await sql<{
    id: number;
    scan_id: string;
    meta_thumbnail: string | null;
    meta_src: string | null;
  }>`select id, scan_id, meta_thumbnail, meta_src from scans where id = ${id}`.execute(db);
  const x = r.rows[0];
  if (!x || (!x.meta_thumbnail && !x.meta_src)) return null;
  return { id: x.id, scan_id: x.scan_id, thumbnailImagePathUrl: x.meta_thumbnail, srcImagePathUrl: x.meta_src };
}

/** The car sketch's data (GET archData/search): the counts by measure and the panel groups with their panels' counts. */
export async function archData(db: Executor, scanId: number, type: string) {
  const [measures, panels] = await Promise.all([
    sql<{ car_panel: string; type: 'dents' | 'scratchs'; level: keyof LevelCounts; count: number }>`
      select car_panel, type, level, count from scan_measures where scan_id = ${scanId} order by car_panel`.execute(db),
    sql<{
      group_id: number;
      group_name: string;
      group_image: string | null;
      group_position: number;
      id: number | null;
      name: string | null;
      label: string | null;
      car_panel: string | null;
      type: string | null;
      position: number | null;
    }>`select g.id as group_id, g.name as group_name, g.image as group_image, g.position as group_position,
        p.id, p.name, p.label, p.car_panel, p.type, p.position
      from panel_groups g left join panels p on p.panel_group_id = g.id and p.status and p.car_panel is not null
      order by g.position, g.id, p.position, p.id`.execute(db),
  ]);
  const countbymeasure: {
    dents: Record<string, LevelCounts>;
    scratchs: Record<string, LevelCounts>;
    damage_count: Record<string, number>;
  } = { dents: {}, scratchs: {}, damage_count: {} };
  for (const m of measures.rows) {
    (countbymeasure[m.type][m.car_panel] ??= zeroCounts())[m.level] = m.count;
    countbymeasure.damage_count[m.car_panel] = (countbymeasure.damage_count[m.car_panel] ?? 0) + m.count;
  }
  const sum = (c: LevelCounts | undefined) => (c ? DAMAGE_LEVELS.reduce((t, l) => t + c[l], 0) : 0);
  const groups = new Map<
    number,
    {
      id: number;
      name: string;
      image: string | null;
      position: number;
      dent_total: number;
      scratch_total: number;
      dents: LevelCounts;
      scratchs: LevelCounts;
      panels: {
        id: number;
        name: string;
        label: string;
        carPanel: string;
        type: string;
        position: number;
        dent_count: number;
        scratch_count: number;
      }[];
    }
  >();
  const placed = new Set<string>();
  for (const row of panels.rows) {
    let g = groups.get(row.group_id);
    if (!g) {
      g = {
        id: row.group_id,
        name: row.group_name,
        image: row.group_image,
        position: row.group_position,
        dent_total: 0,
        scratch_total: 0,
        dents: zeroCounts(),
        scratchs: zeroCounts(),
        panels: [],
      };
      groups.set(row.group_id, g);
    }
    if (row.id === null || row.car_panel === null) continue;
    placed.add(row.car_panel);
    const dents = countbymeasure.dents[row.car_panel];
    const scratchs = countbymeasure.scratchs[row.car_panel];
    for (const l of DAMAGE_LEVELS) {
      g.dents[l] += dents?.[l] ?? 0;
      g.scratchs[l] += scratchs?.[l] ?? 0;
    }
    g.dent_total += sum(dents);
    g.scratch_total += sum(scratchs);
    g.panels.push({
      id: row.id,
      name: row.name!,
      label: row.label!,
      carPanel: row.car_panel,
      type: row.type!,
      position: row.position!,
      dent_count: sum(dents),
      scratch_count: sum(scratchs),
    });
  }
  const unplaced = Object.keys(countbymeasure.damage_count).filter((p) => !placed.has(p));
  return { scan_id: scanId, type, countbymeasure, panel_groups: [...groups.values()], unplaced };
}

/** Whether a car panel code is one the catalogue's panels name or the scan already counts. */
export async function isKnownCarPanel(db: Executor, scanId: number, carPanel: string) {
  const r = await sql<{ ok: boolean }>`select exists (select 1 from panels where car_panel = ${carPanel})
    or exists (select 1 from scan_measures where scan_id = ${scanId} and car_panel = ${carPanel}) as ok`.execute(db);
  return r.rows[0].ok;
}

/** Sets a panel's counts for the levels given (a 0 removes the row), then recomputes the scan's totals, in `trx`. */
export async function setPanelCounts(
  trx: Executor,
  scanId: number,
  carPanel: string,
  counts: Partial<Record<'dents' | 'scratchs', Partial<LevelCounts>>>,
) {
  for (const type of ['dents', 'scratchs'] as const) {
    for (const [level, n] of Object.entries(counts[type] ?? {})) {
      if (n === undefined) continue;
      if (n === 0)
        await sql`delete from scan_measures where scan_id = ${scanId} and car_panel = ${carPanel} and type = ${type} and level = ${level}`.execute(
          trx,
        );
      else
        await sql`insert into scan_measures (scan_id, car_panel, type, level, count) values (${scanId}, ${carPanel}, ${type}, ${level}, ${n})
          on conflict (scan_id, car_panel, type, level) do update set count = excluded.count`.execute(trx);
    }
  }
  await refreshCounts(trx, scanId, false);
}

export async function insertAnnotate(trx: Executor, scanId: number, src: string, userId: number) {
  const r = await sql<{ id: number; src: string; vehicle_photo: boolean }>`insert into scan_annotates (scan_id, src, user_id)
    values (${scanId}, ${src}, ${userId}) returning id, src, vehicle_photo`.execute(trx);
  return r.rows[0];
}

/** Replaces a saved image's file (the `edit` flag); null when the scan has no such image. */
export async function replaceAnnotate(trx: Executor, scanId: number, annotateId: number, src: string, userId: number) {
  const r = await sql<{ id: number; src: string; vehicle_photo: boolean }>`update scan_annotates set src = ${src}, user_id = ${userId}
    where id = ${annotateId} and scan_id = ${scanId} returning id, src, vehicle_photo`.execute(trx);
  return r.rows[0] ?? null;
}

/** Deletes a saved image of the scan; false when it has none of that id. */
/** A saved image's number on its scan (1 the oldest), as the Saved Images strip and the mail's names count them. */
export async function annotateNumber(trx: Executor, scanId: number, annotateId: number) {
  const r = await sql<{
    n: number;
  }>`select count(*)::int as n from scan_annotates where scan_id = ${scanId} and id <= ${annotateId}`.execute(trx);
  return r.rows[0]?.n ?? 0;
}

export async function deleteAnnotate(trx: Executor, scanId: number, annotateId: number) {
  const r = await sql`delete from scan_annotates where id = ${annotateId} and scan_id = ${scanId}`.execute(trx);
  return Number(r.numAffectedRows ?? 0) > 0;
}

/** The tyre labels of a scan's wheels, by row and side (none when it has no tyre data). */
export async function tyreWheels(db: Executor, scanId: number) {
  const r = await sql<{ row: number; direction: 'L' | 'R'; label: string }>`select distinct "row", direction, label from scan_tyres
    where scan_id = ${scanId} order by "row", direction`.execute(db);
  return r.rows;
}

/** Sets (or, with null, clears) a wheel's repair choice: one per scan, row and side. */
export async function setTyreRepair(
  trx: Executor,
  scanId: number,
  wheel: { row: number; direction: 'L' | 'R' },
  repairType: TyreRepairType | null,
  userId: number,
) {
  if (repairType === null) {
    await sql`delete from scan_tyre_repairs where scan_id = ${scanId} and "row" = ${wheel.row} and direction = ${wheel.direction}`.execute(
      trx,
    );
    return;
  }
  await sql`insert into scan_tyre_repairs (scan_id, "row", direction, repair_type, user_id) values (${scanId}, ${wheel.row}, ${wheel.direction}, ${repairType}, ${userId})
    on conflict (scan_id, "row", direction) do update set repair_type = excluded.repair_type, user_id = excluded.user_id, updated_at = now()`.execute(
    trx,
  );
}

/** A panel's stored counts, one row per damage type and level that has any. */
export async function panelMeasures(db: Executor, scanId: number, carPanel: string) {
  const r = await sql<{ type: 'dents' | 'scratchs'; level: string; count: number }>`select type, level, count from scan_measures
    where scan_id = ${scanId} and car_panel = ${carPanel}`.execute(db);
  return r.rows;
}
