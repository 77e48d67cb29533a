import { sql } from 'kysely';
import type { ClientPrices } from '../../../src/domain/clients';
import type { DataScope } from '../../../src/domain/permissions';
import type { Executor } from '../../db/database';
import { pricingClientColumns } from '../../lib/pricing-inputs';
import { scopePredicate } from '../../lib/resource';
import { clientScope } from './scopes';

/**
 * Every SQL statement of the catalogue's hand-written parts (clients with their matrices, panels, panel groups), each
 * taking a connection or a transaction; the described CRUD's own statements are registerResource's.
 */

/** What client reads select: the client as pricing reads it (server/lib/pricing-inputs.ts), with its timestamps. */
export const clientSource = sql`(select ${pricingClientColumns}, c.created_at, c.updated_at from clients c) as clients`;

/** Reads see a panel with its group's and part's names and the wire names; `place` orders by group, then position. */
export const panelSource = sql`(select p.id, p.panel_group_id, g.name as panel_group_name, p.name, p.label, p.type, p.position,
    p.status::int as status, p.has_large_variant as "hasLargeVariant", p.car_panel as "carPanel", p.part_id, pt.name as part_name,
    g.position::bigint * 100000 + p.position as place, p.created_at, p.updated_at
  from panels p join panel_groups g on g.id = p.panel_group_id left join parts pt on pt.id = p.part_id) as panels`;

/** The ids of `ids` that are not rows of `table`. */
export async function missingRows(trx: Executor, table: 'products' | 'parts', ids: number[]) {
  if (!ids.length) return [];
  const found = await trx.selectFrom(table).select('id').where('id', 'in', ids).execute();
  const have = new Set(found.map((r) => r.id));
  return ids.filter((id) => !have.has(id));
}

/** Replaces a client's product or part list with these ids. */
export async function replaceClientList(
  trx: Executor,
  table: 'client_products' | 'client_parts',
  column: 'product_id' | 'part_id',
  clientId: number,
  ids: number[],
) {
  await trx.deleteFrom(table).where('client_id', '=', clientId).execute();
  if (ids.length)
    await sql`insert into ${sql.table(table)} (client_id, ${sql.ref(column)})
    select * from unnest(${ids.map(() => clientId)}::bigint[], ${ids}::bigint[])`.execute(trx);
}

/** Replaces the matrices the body carries (dent, scratch); an absent one is left as it is. */
export async function replaceClientPrices(trx: Executor, clientId: number, prices: Partial<ClientPrices> | undefined) {
  if (prices?.dent) {
    await trx.deleteFrom('client_dent_prices').where('client_id', '=', clientId).execute();
    const rows = Object.entries(prices.dent).map(([part, row]) => ({ client_id: clientId, part_id: Number(part), ...row }));
    if (rows.length) await trx.insertInto('client_dent_prices').values(rows).execute();
  }
  if (prices?.scratch) {
    await trx.deleteFrom('client_scratch_prices').where('client_id', '=', clientId).execute();
    const rows = Object.entries(prices.scratch).map(([part, row]) => ({ client_id: clientId, part_id: Number(part), ...row }));
    if (rows.length) await trx.insertInto('client_scratch_prices').values(rows).execute();
  }
}

/** A client's category method columns, inside the scope, or undefined. */
export async function findClientMethod(db: Executor, clientId: number, scope: DataScope) {
  return db
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
    .where('id', '=', clientId)
    .where(scopePredicate(scope, clientScope))
    .executeTakeFirst();
}

/** The car views in display order. */
export async function panelGroupPositions(db: Executor) {
  return db.selectFrom('panel_groups').select(['id', 'name', 'image', 'position']).orderBy('position').orderBy('id').execute();
}
