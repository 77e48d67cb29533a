import { describe, expect, it } from 'vitest';
import { checkField, type FieldSpec } from '../domain/fields';
import { en } from '../i18n/en';
import { ja } from '../i18n/ja';
import { translatableRule } from './ruleMessages';

const has = (catalogue: object, key: string) =>
  typeof key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue) === 'string';

describe('translatableRule', () => {
  it.each([
    ['Name is required', 'app.validation.required', {}],
    ['Enter a valid email address', 'app.validation.email', {}],
    ['Confirm Password does not match', 'app.validation.match', {}],
    ['Password must be at least 8 characters', 'app.validation.min_length', { min: 8 }],
    ['Quantity must be greater than zero', 'app.validation.greater_than_zero', {}],
    ['Name must be less than 255', 'app.validation.max', { max: 255 }],
    ['The selected state is invalid', 'app.validation.choice', {}],
    ['Agent is invalid', 'app.validation.invalid', {}],
  ])('turns %j into %s, with the translated field label', (english, message, args) => {
    expect(translatableRule(english, 'Libellé')).toEqual({ message, args: { ...args, field: 'Libellé' } });
    expect(has(en, message) && has(ja, message)).toBe(true);
  });

  it('recognises what the domain says for a field', () => {
    const spec: FieldSpec = { type: 'choice', label: 'State', required: true, choices: [{ id: 'VIC', name: 'Victoria' }] };
    expect(translatableRule(checkField(spec, '') ?? '', 'State')).toMatchObject({ message: 'app.validation.required' });
    expect(translatableRule(checkField(spec, 'XX') ?? '', 'State')).toMatchObject({ message: 'app.validation.choice' });
  });

  it('passes an unknown message through', () => {
    expect(translatableRule('This password reset token is invalid.', 'Token')).toBe('This password reset token is invalid.');
  });
});
