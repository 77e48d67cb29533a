import { describe, expect, it } from 'vitest';
import { panelFields } from './catalogue';
import { clientExtraInput, clientFields, clientRules } from './clients';
import { checkField, inputSchema } from './fields';

describe('field defaults (fields.ts `default`)', () => {
  it('fills an optional field left blank, and keeps a given value', () => {
    const schema = inputSchema(clientFields);
    expect(schema.parse({ name: 'A' })).toMatchObject({
      currency: '$',
      sc_metallic: 0,
      sc_pearl: 0,
      sc_p2p: false,
      calculation_method: 'T',
    });
    expect(schema.parse({ name: 'A', currency: '', sc_p2p: null })).toMatchObject({ currency: '$', sc_p2p: false });
    expect(schema.parse({ name: 'A', currency: '€', sc_p2p: 1 })).toMatchObject({ currency: '€', sc_p2p: true });
  });

  it('does not make a required field optional', () => {
    expect(checkField(panelFields.type, '')).toBe('Type is required');
    expect(checkField(panelFields.status, undefined)).toBeUndefined();
  });
});

describe('clientRules', () => {
  it('needs all five weighted counts for W, nothing but the name otherwise (T takes its default threshold)', () => {
    expect(clientRules({ calculation_method: 'T', sc_threshold: 2 }, 'create')).toBeNull();
    expect(clientRules({ calculation_method: 'T' }, 'create')).toBeNull();
    expect(clientRules({}, 'create')).toBeNull();
    expect(clientRules({ calculation_method: 'W', weighted_no: { oversize: 1, severe: 1, heavy: 1, medium: 1 } }, 'update')).toEqual({
      'weighted_no.light': 'Light is required',
    });
  });
});

describe('clientExtraInput', () => {
  it('reports a bad matrix cell at its own path', () => {
    const r = clientExtraInput.prices.safeParse({
      dent: { 12: { light: 1, medium: 2, heavy: -3, severe: 4, oversize: 5, p2p: 1, aluminium: 0, conventional: 1, replacement: 1 } },
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['dent.12.heavy', 'Heavy must be greater than or equal to 0'],
    ]);
  });
});
