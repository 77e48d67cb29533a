import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { calculateCategoryInput } from '../../../src/domain/clients';
import { dataScope } from '../../../src/domain/permissions';
import { DENT_LEVELS } from '../../../src/domain/pricing';
import { dataReply, recordErrors } from '../../lib/replies';
import type { catalogueService } from './catalogue-service';
import { PanelGroupRecord } from './panel-groups';

const CategoryReply = dataReply(z.object({ category: z.enum(DENT_LEVELS).nullable() }));

/**
 * `POST clients/calculate-category` (a panel's category under the client's T or W method, null when the panel has no
 * dents; the quote screens use it, so it needs `scan`) and `GET panelGroups/positions` (the car views in order).
 */
export function catalogueRoutes(app: FastifyInstance, opts: { catalogue: ReturnType<typeof catalogueService> }, done: () => void) {
  const { catalogue } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/clients/calculate-category',
    {
      config: { access: { permission: 'scan' } },
      schema: {
        tags: ['Client'],
        summary: "A panel's dent category under the client's method",
        body: calculateCategoryInput,
        response: { 200: CategoryReply, ...recordErrors },
      },
    },
    async (req) => ({
      // The path names clients, so the header selection does not apply: the user's own scope.
      data: await catalogue.clientCategory(
        { scope: dataScope(req.user!) },
        { client_id: req.body.client_id as number, categories: req.body.categories },
      ),
    }),
  );
  r.get(
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
    async () => ({ data: await catalogue.panelGroupPositions() }),
  );
  done();
}
