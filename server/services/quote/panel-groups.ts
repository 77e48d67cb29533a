import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ResourcePart } from '../../lib/definitions';
import { dataReply, recordErrors } from '../../lib/replies';

const PanelGroupRecord = z.object({
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

/** `panelGroups/positions`: the car views in order, for the quote screen. */
export async function panelGroupRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/panelGroups/positions',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['PanelGroup'],
        summary: 'Panel groups in display order',
        response: {
          200: dataReply(z.array(PanelGroupRecord.pick({ id: true, name: true, image: true, position: true }))),
          ...recordErrors,
        },
      },
    },
    async () => ({
      data: await app.db.selectFrom('panel_groups').select(['id', 'name', 'image', 'position']).orderBy('position').orderBy('id').execute(),
    }),
  );
}
