import { sql } from 'kysely';
import { z } from 'zod';
import { messages } from '../../../src/domain/fields';
import { AppError } from '../../errors';
import type { ResourcePart } from '../../lib/definitions';
import { panelSource } from './catalogue-repository';

/**
 * Parts: a part still named by panels is not deleted (409 naming them): its rows in every client's price matrix would
 * go with it and those panels would price at nothing, with no way back (a new part is a new row).
 */
export const partsPart: ResourcePart = {
  hooks: {
    async beforeDelete(row, { db }) {
      const r = await sql<{ name: string }>`select coalesce(nullif(label, ''), name) as name from panels
        where part_id = ${row.id} order by position, id`.execute(db);
      if (r.rows.length) throw new AppError(409, messages.partInUse(r.rows.map((p) => p.name)));
    },
  },
};

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
