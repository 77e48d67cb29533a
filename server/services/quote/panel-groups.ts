import { z } from 'zod';
import type { ResourcePart } from '../../lib/definitions';

export const PanelGroupRecord = z.object({
  id: z.number(),
  name: z.string(),
  image: z.string().nullable(),
  position: z.number(),
  created_at: z.date(),
  updated_at: z.date(),
});

/** Panel groups: listed with `part`, written with `panelgroup`; created/updated multipart with `imageFile`. */
export const panelGroupsPart: ResourcePart = {
  record: PanelGroupRecord,
};
