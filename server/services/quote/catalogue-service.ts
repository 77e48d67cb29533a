import type { DentCounts } from '../../../src/domain/pricing';
import { clientCategoryMethod, DENT_LEVELS, panelCategory } from '../../../src/domain/pricing';
import type { DataScope } from '../../../src/domain/permissions';
import { NotFoundError, ValidationError } from '../../errors';
import { findClientMethod, panelGroupPositions } from './catalogue-repository';
import type { QuoteDeps } from './quotes-service';

/** The catalogue's calls beyond the described CRUD: a panel's category under a client's method, the car views. */
export function catalogueService(deps: Pick<QuoteDeps, 'db'>) {
  const { db } = deps;
  return {
    /** A panel's category from its dent counts under the client's T or W method (null without dents). */
    async clientCategory({ scope }: { scope: DataScope }, input: { client_id: number; categories: DentCounts }) {
      const client = await findClientMethod(db, input.client_id, scope);
      if (!client) throw new NotFoundError('Client', input.client_id);
      const method = clientCategoryMethod({
        calculation_method: client.calculation_method,
        sc_threshold: client.sc_threshold,
        weighted_no: Object.fromEntries(DENT_LEVELS.map((l) => [l, client[`weighted_${l}`]])),
      });
      if (!method) throw new ValidationError({ client_id: 'The client has no complete calculation method' });
      return { category: panelCategory(input.categories, method) };
    },

    panelGroupPositions: () => panelGroupPositions(db),
  };
}
