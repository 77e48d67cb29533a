import { z } from 'zod';
import { clientExtraInput, clientRules, type ClientPrices } from '../../../src/domain/clients';
import { messages } from '../../../src/domain/fields';
import { DENT_LEVELS } from '../../../src/domain/pricing';
import { PricingClientRecord } from '../../../src/domain/records';
import type { Executor } from '../../db/database';
import { ValidationError } from '../../errors';
import type { ResourcePart } from '../../lib/definitions';
import { clientSource, missingRows, replaceClientList, replaceClientPrices } from './catalogue-repository';
import { clientScope } from './scopes';

export const ClientRecord = PricingClientRecord.extend({ created_at: z.date(), updated_at: z.date() });

const unique = (ids: unknown) => [...new Set((ids ?? []) as number[])];

/**
 * Every priced part the body names must exist: a 422 on the field, not a 409 from a foreign key (products and
 * parts are fields, checked by registerResource).
 */
async function checkPricedParts(trx: Executor, input: Record<string, unknown>) {
  const errors: Record<string, string> = {};
  const prices = input.prices as Partial<ClientPrices> | undefined;
  for (const kind of ['dent', 'scratch'] as const) {
    const rows = prices?.[kind];
    if (!rows) continue;
    for (const id of await missingRows(trx, 'parts', Object.keys(rows).map(Number)))
      errors[`prices.${kind}.${id}`] = messages.choice('Part');
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** Replaces a relation list when the body carries it; an absent list is left as it is. */
async function replaceList(
  trx: Executor,
  table: 'client_products' | 'client_parts',
  column: 'product_id' | 'part_id',
  clientId: number,
  ids: unknown,
) {
  if (ids !== undefined) await replaceClientList(trx, table, column, clientId, unique(ids));
}

export const clientsPart: ResourcePart = {
  extraInput: clientExtraInput,
  refine: clientRules,
  record: ClientRecord,
  scope: clientScope,
  from: clientSource,
  hooks: {
    async beforeWrite(columns, input, { trx }) {
      await checkPricedParts(trx, input);
      const w = input.weighted_no as Partial<Record<(typeof DENT_LEVELS)[number], number>> | undefined;
      if (w === undefined) return columns;
      return { ...columns, ...Object.fromEntries(DENT_LEVELS.map((l) => [`weighted_${l}`, w[l] ?? null])) };
    },
    async afterWrite(id, input, { trx }) {
      await replaceList(trx, 'client_products', 'product_id', id, input.products);
      await replaceList(trx, 'client_parts', 'part_id', id, input.parts);
      await replaceClientPrices(trx, id, input.prices as Partial<ClientPrices> | undefined);
    },
  },
};
