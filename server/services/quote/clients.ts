import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { calculateCategoryInput, clientExtraInput, clientRules, type ClientPrices } from '../../../src/domain/clients';
import { messages } from '../../../src/domain/fields';
import { dataScope } from '../../../src/domain/permissions';
import { clientCategoryMethod, DENT_LEVELS, panelCategory } from '../../../src/domain/pricing';
import { PricingClientRecord } from '../../../src/domain/records';
import type { Executor } from '../../db/database';
import { NotFoundError, ValidationError } from '../../errors';
import { pricingClientColumns } from '../../lib/pricing-inputs';
import { dataReply, recordErrors } from '../../lib/replies';
import type { ResourcePart } from '../../lib/definitions';
import { scopePredicate } from '../../lib/resource';
import { clientScope } from './scopes';

/** What reads select: the client as pricing reads it (server/lib/pricing-inputs.ts), with its timestamps. */
const clientSource = sql`(select ${pricingClientColumns}, c.created_at, c.updated_at from clients c) as clients`;

const Level = z.enum(DENT_LEVELS);

export const ClientRecord = PricingClientRecord.extend({ created_at: z.date(), updated_at: z.date() });

const unique = (ids: unknown) => [...new Set((ids ?? []) as number[])];

/** The ids of `ids` that are not rows of `table`. */
async function missing(trx: Executor, table: 'products' | 'parts', ids: number[]) {
  if (!ids.length) return [];
  const found = await trx.selectFrom(table).select('id').where('id', 'in', ids).execute();
  const have = new Set(found.map((r) => r.id));
  return ids.filter((id) => !have.has(id));
}

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
    for (const id of await missing(trx, 'parts', Object.keys(rows).map(Number))) errors[`prices.${kind}.${id}`] = messages.choice('Part');
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
  if (ids === undefined) return;
  await trx.deleteFrom(table).where('client_id', '=', clientId).execute();
  const rows = unique(ids).map((id) => ({ client_id: clientId, [column]: id }));
  if (rows.length)
    await sql`insert into ${sql.table(table)} (client_id, ${sql.ref(column)})
    select * from unnest(${rows.map((r) => r.client_id)}::bigint[], ${rows.map((r) => r[column])}::bigint[])`.execute(trx);
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
      const prices = input.prices as Partial<ClientPrices> | undefined;
      if (prices?.dent) {
        await trx.deleteFrom('client_dent_prices').where('client_id', '=', id).execute();
        const rows = Object.entries(prices.dent).map(([part, row]) => ({ client_id: id, part_id: Number(part), ...row }));
        if (rows.length) await trx.insertInto('client_dent_prices').values(rows).execute();
      }
      if (prices?.scratch) {
        await trx.deleteFrom('client_scratch_prices').where('client_id', '=', id).execute();
        const rows = Object.entries(prices.scratch).map(([part, row]) => ({ client_id: id, part_id: Number(part), ...row }));
        if (rows.length) await trx.insertInto('client_scratch_prices').values(rows).execute();
      }
    },
  },
};

const CategoryReply = dataReply(z.object({ category: Level.nullable() }));

/**
 * `POST clients/calculate-category`: a panel's category under the client's T or W method
 *, null when the panel has no dents. Used by the quote screens, so it needs `scan`.
 */
export function calculateCategoryRoute(app: FastifyInstance, _opts: unknown, done: () => void) {
  app.withTypeProvider<ZodTypeProvider>().post(
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
    async (req) => {
      const { categories } = req.body;
      const client_id = req.body.client_id as number;
      // The path names clients, so the header selection does not apply.
      const client = await app.db
        .selectFrom('clients')
        .select([
          'calculation_method',
          'sc_threshold',
          'weighted_oversize',
          'weighted_severe',
          'weighted_heavy',
          'weighted_medium',
          'weighted_light',
        ])
        .where('id', '=', client_id)
        .where(scopePredicate(dataScope(req.user!), clientScope))
        .executeTakeFirst();
      if (!client) throw new NotFoundError('Client', client_id);
      const method = clientCategoryMethod({
        calculation_method: client.calculation_method,
        sc_threshold: client.sc_threshold,
        weighted_no: Object.fromEntries(DENT_LEVELS.map((l) => [l, client[`weighted_${l}`]])),
      });
      if (!method) throw new ValidationError({ client_id: 'The client has no complete calculation method' });
      return { data: { category: panelCategory(categories, method) } };
    },
  );
  done();
}
