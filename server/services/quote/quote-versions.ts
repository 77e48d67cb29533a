import type { SavedQuote } from '../../../src/domain/quote-model';
import { quoteRecordOf } from '../../../src/domain/quote-wire';
import type { SnapshotJson } from '../../../src/domain/versions';
import type { Executor } from '../../db/database';
import { findQuote } from './quotes-repository';

/**
 * What a conflict compares of a quote, by the screen's names: the options, each panel's choices and line total by
 * its label (`items.Bonnet.repair_type`), the products' prices by name, the parts and the grand total.
 */
export function quoteSnapshotOf(q: SavedQuote): SnapshotJson {
  const r = quoteRecordOf(q);
  return {
    metallic: r.metallic,
    pearl: r.pearl,
    aluminium: r.aluminium,
    vehicle_type: r.vehicle_type,
    manual_check: r.manual_check,
    assessor_comments: r.assessor_comments,
    items: Object.fromEntries(
      Object.values(r.items).map((i) => [
        i.label,
        { repair_type: i.repair_type, category: i.category, scratch_repair_type: i.scratch?.repair_type ?? null, lineTotal: i.lineTotal },
      ]),
    ),
    products: Object.fromEntries(r.products.map((p) => [p.text, p.price])),
    parts: r.parts.map((p) => p.text).join(', '),
    grant_total: r.grant_total,
  };
}

/** The snapshot of a stored quote, read in the writing transaction. */
export const quoteSnapshot = (db: Executor, id: number) => async () => {
  const quote = await findQuote(db, id);
  return quote ? quoteSnapshotOf(quote) : {};
};
