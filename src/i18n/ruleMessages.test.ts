import { describe, expect, it } from 'vitest';
import { checkField, type FieldSpec } from '../domain/fields';
import { messages } from '../domain/messages';
import { en } from './english';
import { i18nProvider, loadScreenMessages } from './i18nProvider';
import { ja } from './ja';
import { translatableRule } from './ruleMessages';

const has = (catalogue: object, key: string) =>
  typeof key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue) === 'string';

describe('translatableRule (by message key, no pattern matching)', () => {
  it.each([
    [messages.required('Name'), 'app.validation.required', {}],
    [messages.email(), 'app.validation.email', {}],
    [messages.match('Confirm Password'), 'app.validation.match', {}],
    [messages.minLength('Password', 8), 'app.validation.min_length', { min: 8 }],
    [messages.min('Quantity', 1), 'app.validation.greater_than_zero', {}],
    [messages.max('Name', 255), 'app.validation.max', { max: 255 }],
    [messages.choice('State'), 'app.validation.choice', {}],
    [messages.invalid('Agent'), 'app.validation.invalid', {}],
    [messages.taken('Email'), 'app.validation.taken', {}],
    [messages.digits('Pincode', 6), 'app.validation.digits', { digits: 6 }],
    [messages.permissionName('Name'), 'resources.permissions.validation.name_format', {}],
  ])('turns %j into %s, with the translated field label', (english, message, args) => {
    expect(translatableRule(english, 'Libellé')).toEqual({ message, args: { ...args, field: 'Libellé', _: english } });
    expect(has(en, message) && has(ja, message)).toBe(true);
  });

  it('recognises what the domain says for a field', () => {
    const spec: FieldSpec = { type: 'choice', label: 'State', required: true, choices: [{ id: 'VIC', name: 'Victoria' }] };
    expect(translatableRule(checkField(spec, '') ?? '', 'State')).toMatchObject({ message: 'app.validation.required' });
    expect(translatableRule(checkField(spec, 'XX') ?? '', 'State')).toMatchObject({ message: 'app.validation.choice' });
  });

  it('passes a text no rule made through, even one shaped like a rule', () => {
    expect(translatableRule('This password reset token is invalid.', 'Token')).toBe('This password reset token is invalid.');
    expect(translatableRule('Something else is required', 'X')).toBe('Something else is required');
  });
});

describe('the i18n provider names a server message field by its label key', () => {
  it('translates fieldKey first, then the message', async () => {
    await loadScreenMessages(); // the field labels are screens' messages
    expect(i18nProvider.translate('app.validation.taken', { fieldKey: 'resources.roles.fields.name', _: 'x' })).toBe(
      'Name has already been taken.',
    );
    await i18nProvider.changeLocale('ja');
    expect(i18nProvider.translate('app.validation.taken', { fieldKey: 'resources.roles.fields.name', _: 'x' })).toBe(
      'この名前は既に使用されています',
    );
    await i18nProvider.changeLocale('en');
  });
});
