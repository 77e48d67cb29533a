import { describe, expect, it } from 'vitest';
import { checkField, inputSchema, type FieldSpec, type FieldSpecs } from './fields';
import { locationFields } from './locations';

const name: FieldSpec = { type: 'text', label: 'Name', required: true, max: 20 };
const email: FieldSpec = { type: 'text', label: 'Email', required: true, email: true };
const state = locationFields.state;
const price: FieldSpec = { type: 'number', label: 'Price', min: 1, max: 1000 };
const blanks = [undefined, null, '', '   ', '\t\n'];

describe('checkField', () => {
  it.each(blanks)("says '{label} is required' for a required text given %j", (v) => {
    expect(checkField(name, v)).toBe('Name is required');
  });

  it.each(blanks)("says '{label} is required' for a required choice given %j", (v) => {
    expect(checkField(state, v)).toBe('State is required');
  });

  it.each(blanks)("says '{label} is required' for a required boolean given %j", (v) => {
    expect(checkField({ type: 'boolean', label: 'Enabled', required: true }, v)).toBe('Enabled is required');
  });

  // Known defect, reported to the lead: src/domain/fields.ts coerces a blank value to NaN before the
  // required check, so a required number or reference says '{label} must be a number' / 'must be an id'.
  it("says '{label} is required' for a required number or reference left blank", () => {
    for (const v of blanks) {
      expect(checkField({ type: 'number', label: 'Rate', required: true }, v)).toBe('Rate is required');
      expect(checkField({ type: 'reference', label: 'Client', reference: 'clients', required: true }, v)).toBe('Client is required');
    }
  });

  it('accepts a blank optional field', () => {
    for (const v of blanks) {
      expect(checkField(price, v)).toBeUndefined();
      expect(checkField({ type: 'text', label: 'Note' }, v)).toBeUndefined();
      expect(checkField(locationFields.agent_id, v)).toBeUndefined();
    }
  });

  it('checks an e-mail address', () => {
    for (const bad of ['nope', 'a@b', 'a b@c.de', '@c.de']) expect(checkField(email, bad)).toBe('Enter a valid email address');
    expect(checkField(email, ' someone@example.com ')).toBeUndefined();
    expect(checkField(email, '')).toBe('Email is required');
  });

  it('refuses a choice outside the list', () => {
    expect(checkField(state, 'XX')).toBe('The selected state is invalid');
    expect(checkField(state, 'vic')).toBe('The selected state is invalid');
    expect(checkField(state, 7)).toBe('The selected state is invalid');
    expect(checkField(state, 'VIC')).toBeUndefined();
  });

  it('says the number bounds in the words of the rule messages', () => {
    expect(checkField(price, 0)).toBe('Price must be greater than zero');
    expect(checkField(price, 0.5)).toBe('Price must be at least 1');
    expect(checkField(price, 1001)).toBe('Price must be less than 1000');
    expect(checkField(price, 'abc')).toBe('Price must be a number');
    expect(checkField(price, '12.5')).toBeUndefined();
    expect(checkField(price, 1000)).toBeUndefined();
    expect(checkField({ type: 'number', label: 'Discount', min: 0 }, -1)).toBe('Discount must be greater than or equal to 0');
    expect(checkField({ type: 'number', label: 'Qty', min: 5 }, 4)).toBe('Qty must be at least 5');
    expect(checkField({ type: 'number', label: 'Qty', integer: true }, 2.5)).toBe('Qty must be a whole number');
  });

  it('limits text length', () => {
    expect(checkField(name, 'x'.repeat(21))).toBe('Name must be less than 20');
    expect(checkField(name, 'x'.repeat(20))).toBeUndefined();
    expect(checkField({ type: 'text', label: 'Note' }, 'x'.repeat(256))).toBe('Note must be less than 255');
  });

  it('checks references and booleans', () => {
    const ref = locationFields.agent_id;
    expect(checkField(ref, 0)).toBe('Agent is invalid');
    expect(checkField(ref, -4)).toBe('Agent is invalid');
    expect(checkField(ref, '3')).toBeUndefined();
    expect(checkField({ type: 'boolean', label: 'Enabled' }, 'yes')).toBe('Enabled must be true or false');
  });
});

describe('inputSchema', () => {
  const specs = {
    name: { type: 'text', label: 'Name', required: true },
    state: locationFields.state,
    price: { type: 'number', label: 'Price', min: 1 },
    enabled: { type: 'boolean', label: 'Enabled' },
    created_by: { type: 'text', label: 'Created By', readOnly: true },
  } satisfies FieldSpecs;
  const schema = inputSchema(specs);

  it('trims text, coerces numbers and booleans, and drops unknown and read-only keys', () => {
    const r = schema.parse({ name: '  Depot  ', state: 'NSW', price: '12', enabled: 1, created_by: 'me', password_hash: 'x', id: 9 });
    expect(r).toEqual({ name: 'Depot', state: 'NSW', price: 12, enabled: true });
  });

  it('gives one message per field, keyed by the field', () => {
    const r = schema.safeParse({ name: ' ', state: 'XX', price: 0 });
    expect(r.success).toBe(false);
    const byField = Object.fromEntries(r.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(byField).toEqual({ name: 'Name is required', state: 'The selected state is invalid', price: 'Price must be greater than zero' });
  });

  it('reports every missing required field', () => {
    const r = inputSchema(locationFields).safeParse({});
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['name', 'Name is required'],
      ['state', 'State is required'],
    ]);
  });

  it('keeps an optional blank as absent or null, never as an empty string', () => {
    const r = schema.parse({ name: 'A', state: 'VIC', price: '' }) as Record<string, unknown>;
    expect(r.price ?? null).toBeNull();
    expect(r.price).not.toBe('');
  });
});
