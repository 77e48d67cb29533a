import { describe, expect, it } from 'vitest';
import { quoteDelta, reapproval, type DeltaLine } from './quote-delta';

const line = (key: string, label: string, repair_type: string, amount: number): DeltaLine => ({ key, label, repair_type, amount });

// The sent version: a bonnet pdr line, a door scratch line and a product; grand total 660.00 incl. GST.
const sent = [
  line('dent:1', 'Bonnet', 'pdr', 30000),
  line('scratch:2', 'Left Front Door', 'spot', 10000),
  line('product:7', 'Wheel alignment', 'Wheel alignment', 20000),
];

describe('quoteDelta', () => {
  it('lists added, removed and changed lines with their amounts, and the change of the grand total', () => {
    // S1: the bonnet goes to replacement, the door scratch is gone, a tyre is added, the product stays.
    const s1 = [
      line('dent:1', 'Bonnet', 'replacement', 87000),
      line('product:7', 'Wheel alignment', 'Wheel alignment', 20000),
      line('tyre:1:L', 'Front Left Tyre', 'replace', 25000),
    ];
    const delta = quoteDelta(sent, s1, { before: 66000, after: 145200 });
    expect(delta.added).toEqual([line('tyre:1:L', 'Front Left Tyre', 'replace', 25000)]);
    expect(delta.removed).toEqual([line('scratch:2', 'Left Front Door', 'spot', 10000)]);
    expect(delta.changed).toEqual([
      {
        key: 'dent:1',
        label: 'Bonnet',
        before: { repair_type: 'pdr', category: null, amount: 30000 },
        after: { repair_type: 'replacement', category: null, amount: 87000 },
        difference: 57000,
      },
    ]);
    expect(delta.unchanged).toEqual(['product:7']);
    expect(delta.total).toEqual({ before: 66000, after: 145200, difference: 79200 });
  });

  it('calls a line changed when only its repair type moves (same amount), or only its amount', () => {
    const delta = quoteDelta(sent, [line('dent:1', 'Bonnet', 'conventional', 30000), line('scratch:2', 'Left Front Door', 'spot', 12000)], {
      before: 66000,
      after: 46200,
    });
    expect(delta.changed.map((c) => [c.key, c.difference])).toEqual([
      ['dent:1', 0],
      ['scratch:2', 2000],
    ]);
    expect(delta.removed.map((l) => l.key)).toEqual(['product:7']);
  });

  it("calls a pdr line changed when only its level moves, and keeps each side's level", () => {
    const heavy = { ...line('dent:1', 'Bonnet', 'pdr', 30000), category: 'heavy' };
    const medium = { ...heavy, category: 'medium', amount: 21000 };
    expect(quoteDelta([heavy], [medium], { before: 33000, after: 23100 }).changed).toEqual([
      {
        key: 'dent:1',
        label: 'Bonnet',
        before: { repair_type: 'pdr', category: 'heavy', amount: 30000 },
        after: { repair_type: 'pdr', category: 'medium', amount: 21000 },
        difference: -9000,
      },
    ]);
    expect(quoteDelta([heavy], [{ ...heavy, category: 'severe' }], { before: 33000, after: 33000 }).changed).toHaveLength(1);
  });

  it('adds, removes and changes nothing for the same lines and total, in any order', () => {
    const delta = quoteDelta(sent, [...sent].reverse(), { before: 66000, after: 66000 });
    expect([delta.added, delta.removed, delta.changed, delta.total.difference]).toEqual([[], [], [], 0]);
    expect(delta.unchanged.sort()).toEqual(['dent:1', 'product:7', 'scratch:2']);
  });
});

describe('reapproval', () => {
  it('asks only about added and changed lines and keeps the earlier decisions on unchanged ones', () => {
    const s1 = [line('dent:1', 'Bonnet', 'replacement', 87000), sent[1], sent[2], line('tyre:1:L', 'Front Left Tyre', 'replace', 25000)];
    const delta = quoteDelta(sent, s1, { before: 66000, after: 156200 });
    const { ask, carried } = reapproval(delta, { 'dent:1': 'approved', 'scratch:2': 'declined', 'product:7': 'approved' });
    expect(ask).toEqual(['tyre:1:L', 'dent:1']);
    expect(carried).toEqual({ 'scratch:2': 'declined', 'product:7': 'approved' });
  });

  it('drops the decisions on removed lines and asks about an unchanged line nobody answered', () => {
    const delta = quoteDelta(sent, [sent[0], sent[2]], { before: 66000, after: 55000 });
    const { ask, carried } = reapproval(delta, { 'dent:1': 'approved', 'scratch:2': 'approved' });
    expect(ask).toEqual(['product:7']);
    expect(carried).toEqual({ 'dent:1': 'approved' });
  });
});
