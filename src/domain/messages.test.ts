import { describe, expect, it } from 'vitest';
import { inputSchema } from './fields';
import { en } from '../i18n/english';
import { ja } from '../i18n/ja';
import { messageKeyOf, messages } from './messages';

describe('rule messages carry their keys', () => {
  it('finds the key and parameters of a text a rule made, exactly', () => {
    expect(messageKeyOf(messages.required('Name'))).toEqual({ key: 'app.validation.required' });
    expect(messageKeyOf(messages.max('Name', 255))).toEqual({ key: 'app.validation.max', params: { max: 255 } });
    expect(messageKeyOf(messages.min('Price', 1))).toEqual({ key: 'app.validation.greater_than_zero' });
    expect(messageKeyOf(messages.choice('Default Client'))).toEqual({ key: 'app.validation.choice' });
    expect(messageKeyOf('Name is required, and more')).toBeUndefined();
    expect(messageKeyOf('Logo must be a bitmap of some sort')).toBeUndefined();
  });

  it('keys the messages of the field DSL the server validates with', () => {
    const schema = inputSchema({ name: { type: 'text', label: 'Site Name', required: true } }, 'create');
    const result = schema.safeParse({ name: '' });
    expect(result.success).toBe(false);
    const text = result.error!.issues[0].message;
    expect(text).toBe('Site Name is required');
    expect(messageKeyOf(text)).toEqual({ key: 'app.validation.required' });
  });
});

describe('every rule message', () => {
  // One call of each rule with sample arguments: its key must name a message in both catalogues.
  const samples: string[] = [
    ...Object.entries(messages)
      .filter(
        ([name]) => !['type', 'fixedName', 'min', 'partInUse', 'unknownMergeFields', 'superAdminTarget', 'accessExceeds'].includes(name),
      )
      .map(([, rule]) => (rule as (...args: unknown[]) => string)('Name', 2, 'x')),
    ...(['a string', 'a number', 'an id', 'a list', 'true or false'] as const).map((t) => messages.type('Name', t)),
    messages.fixedName('role', 'Admin'),
    messages.fixedName('permission', 'scan'),
    ...(['edit', 'delete', 'api_key'] as const).flatMap((a) => [messages.superAdminTarget(a), messages.accessExceeds(a)]),
    messages.min('Price', 0),
    messages.min('Price', 1),
    messages.min('Price', 5),
    messages.partInUse(['Bonnet', 'Roof']),
    messages.unknownMergeFields(['{{foo}}']),
  ];
  const lookup = (catalogue: object, key: string) =>
    key
      .split('.')
      .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), catalogue);

  it('has a key translated in English and Japanese', () => {
    const keys = samples.map((text) => messageKeyOf(text)?.key);
    expect(keys.filter((k) => !k)).toEqual([]);
    const missing = keys.filter((k) => typeof lookup(en, k!) !== 'string' || typeof lookup(ja, k!) !== 'string');
    expect(missing).toEqual([]);
  });
});
