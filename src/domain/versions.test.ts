import { describe, expect, it } from 'vitest';
import { changedFields, reapplyEdits } from './versions';

describe('changedFields', () => {
  it('lists the dotted fields whose values differ, with the current value (null when gone)', () => {
    const before = { make: 'Mazda', counts: { bonnet: { dents: { light: 2 } } }, tyre_repairs: { '1L': 'repair' } };
    const now = { make: 'Mazda', counts: { bonnet: { dents: { light: 3 } } }, tyre_repairs: {}, model: null };
    expect(changedFields(before, now)).toEqual([
      { field: 'counts.bonnet.dents.light', value: 3 },
      { field: 'tyre_repairs.1L', value: null },
    ]);
  });
});

describe('reapplyEdits', () => {
  it("puts the user's own edits on the current version and keeps the rest of it", () => {
    const base = { metallic: false, pearl: false, panels: { '1': { repair_type: 'pdr' }, '2': { repair_type: 'pdr' } }, parts: ['a'] };
    const mine = {
      metallic: false,
      pearl: true,
      panels: { '1': { repair_type: 'pdr' }, '2': { repair_type: 'conventional' } },
      parts: ['a'],
    };
    const theirs = {
      metallic: true,
      pearl: false,
      panels: { '1': { repair_type: 'replacement' }, '2': { repair_type: 'pdr' } },
      parts: ['b'],
    };
    expect(reapplyEdits(base, mine, theirs)).toEqual({
      metallic: true,
      pearl: true,
      panels: { '1': { repair_type: 'replacement' }, '2': { repair_type: 'conventional' } },
      parts: ['b'],
    });
    expect(reapplyEdits(base, base, theirs)).toBe(theirs);
  });
});
