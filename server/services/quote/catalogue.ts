import { sql } from 'kysely';
import { z } from 'zod';
import type { ResourcePart } from '../../lib/definitions';

/** Reads see a panel with its group's and part's names and the wire names; `place` orders by group, then position. */
const panelSource = sql`(select p.id, p.panel_group_id, g.name as panel_group_name, p.name, p.label, p.type, p.position,
    p.status::int as status, p.has_large_variant as "hasLargeVariant", p.car_panel as "carPanel", p.part_id, pt.name as part_name,
    g.position::bigint * 100000 + p.position as place, p.created_at, p.updated_at
  from panels p join panel_groups g on g.id = p.panel_group_id left join parts pt on pt.id = p.part_id) as panels`;

export const panelsPart: ResourcePart = {
  record: z.object({
    id: z.number(),
    panel_group_id: z.number(),
    panel_group_name: z.string(),
    name: z.string(),
    label: z.string(),
    type: z.string(),
    position: z.number(),
    status: z.number(),
    hasLargeVariant: z.boolean(),
    carPanel: z.string().nullable(),
    part_id: z.number().nullable(),
    part_name: z.string().nullable(),
    created_at: z.date(),
    updated_at: z.date(),
  }),
  from: panelSource,
  reads: ['panel_groups', 'parts'],
  hooks: {
    // The panel group and part must exist: registerResource's reference check (422 on the field).
    beforeWrite(columns) {
      const { hasLargeVariant, carPanel, ...rest } = columns;
      // The wire keeps the wire's camelCase names; the table uses snake_case.
      const renamed: Record<string, unknown> = { ...rest };
      if ('hasLargeVariant' in columns) renamed.has_large_variant = hasLargeVariant;
      if ('carPanel' in columns) renamed.car_panel = carPanel;
      return renamed;
    },
  },
};
