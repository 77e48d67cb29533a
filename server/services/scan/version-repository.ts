import { sql } from 'kysely';
import type { SnapshotJson } from '../../../src/domain/versions';
import type { Executor } from '../../db/database';

/**
 * What a conflict compares of a scan, by the scan page's names: the vehicle fields and client, the damage counts per
 * car panel, type and level (`counts.bonnet.dents.light`), and the tyre repair choices by wheel (`tyre_repairs.1L`).
 */
export async function scanSnapshot(db: Executor, id: number): Promise<SnapshotJson> {
  const r = await sql<{ snapshot: SnapshotJson }>`select jsonb_build_object(
      'licensePlate', s.license_plate, 'make', s.make, 'model', s.model, 'carColor', s.car_color, 'body_type', s.body_type,
      'valuation', s.valuation, 'location_state', s.location_state, 'client_id', s.client_id, 'client_name', c.name,
      'counts', coalesce((select jsonb_object_agg(p.car_panel, p.types) from (
        select t.car_panel, jsonb_object_agg(t.type, t.levels) as types from (
          select m.car_panel, m.type, jsonb_object_agg(m.level, m.count) as levels from scan_measures m
          where m.scan_id = s.id group by m.car_panel, m.type) t group by t.car_panel) p), '{}'::jsonb),
      'tyre_repairs', coalesce((select jsonb_object_agg(r."row" || r.direction, r.repair_type) from scan_tyre_repairs r
        where r.scan_id = s.id), '{}'::jsonb)
    ) as snapshot
    from scans s left join clients c on c.id = s.client_id where s.id = ${id}`.execute(db);
  return r.rows[0]?.snapshot ?? {};
}

/** A versioned write of a scan (server/lib/versions.ts versionedWrite): the version it was made from, who writes. */
export const scanVersion = (db: Executor, id: number, expected: number | undefined, actorId: number) => ({
  kind: 'scan' as const,
  id,
  expected,
  actorId,
  snapshot: () => scanSnapshot(db, id),
});
