import { describe, expect, it } from 'vitest';
import { quoteDelta, type DeltaLine } from './quote-delta';
import { supplementLabel } from './quote-model';
import { deltaRecordOf } from './quote-revisions';
import { deltaOfRecord, signedMoney, supplementBlockOf } from './supplement-block';

const line = (key: string, label: string, repair_type: string, amount: number): DeltaLine => ({ key, label, repair_type, amount });

// The original: a bonnet pdr line (heavy) and a product. S1: the bonnet goes conventional, a roof line (light) is added, the product is removed.
const delta = quoteDelta(
  [{ ...line('dent:1', 'Bonnet', 'pdr', 30000), category: 'heavy' }, line('product:7', 'Wax', 'Wax', 2000)],
  [line('dent:1', 'Bonnet', 'conventional', 45050), { ...line('dent:2', 'Roof', 'pdr', 12000), category: 'light' }],
  { before: 35200, after: 62755 },
);

describe('supplements', () => {
  it('labels a supplement S1, S2… and the original estimate not at all', () => {
    expect([0, 1, 2].map(supplementLabel)).toEqual([null, 'S1', 'S2']);
  });

  it('sends the delta in currency units with the revision it compares with', () => {
    expect(deltaRecordOf(delta, 0)).toEqual({
      since: 0,
      added: [{ key: 'dent:2', label: 'Roof', repair_type: 'pdr', category: 'light', amount: 120 }],
      removed: [{ key: 'product:7', label: 'Wax', repair_type: 'Wax', category: null, amount: 20 }],
      changed: [
        {
          key: 'dent:1',
          label: 'Bonnet',
          before: { repair_type: 'pdr', category: 'heavy', amount: 300 },
          after: { repair_type: 'conventional', category: null, amount: 450.5 },
          difference: 150.5,
        },
      ],
      total: { before: 352, after: 627.55, difference: 275.55 },
    });
  });

  it("prints the supplement's block: each line with its signed amount and the grand total before and after", () => {
    expect(supplementBlockOf(delta, { number: 1, since: 0 }, '$', 'en')).toEqual({
      title: 'Supplement S1 — changes since the original estimate',
      head: ['Line', 'Change', 'Amount'],
      rows: [
        // The work as the invoice names it; a product's name says it all.
        ['Roof', 'Added: PDR (Light)', '+$120.00'],
        ['Wax', 'Removed', '-$20.00'],
        ['Bonnet', 'Changed: PDR (Heavy) $300.00 to Conventional $450.50', '+$150.50'],
      ],
      total: ['Grand total', '$352.00 to $627.55 (+$275.55)'],
    });
    const ja = supplementBlockOf(delta, { number: 2, since: 1 }, '¥', 'ja');
    expect(ja.title).toBe('追加見積 S2 — S1からの変更');
    expect(ja.rows[2][1]).toContain('PDR（デントリペア） (重度) ¥300.00');
    expect(signedMoney(0, '$')).toBe('$0.00');
  });

  it('reads a delta back from the wire so the invoice screen prints the block the PDF prints', () => {
    const read = deltaOfRecord(deltaRecordOf(delta, 0));
    expect(supplementBlockOf(read, { number: 1, since: 0 }, '$', 'en')).toEqual(
      supplementBlockOf(delta, { number: 1, since: 0 }, '$', 'en'),
    );
    expect(read.changed[0]).toMatchObject({ before: { amount: 30000 }, after: { amount: 45050 }, difference: 15050 });
  });
});
