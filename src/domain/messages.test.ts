import { describe, expect, it } from 'vitest';
import { inputSchema } from './fields';
import { messageKeyOf, messages } from './messages';

describe('rule messages carry their keys', () => {
  it('finds the key and parameters of a text a rule made, exactly', () => {
    expect(messageKeyOf(messages.required('Name'))).toEqual({ key: 'app.validation.required' });
    expect(messageKeyOf(messages.max('Name', 255))).toEqual({ key: 'app.validation.max', params: { max: 255 } });
    expect(messageKeyOf(messages.min('Price', 1))).toEqual({ key: 'app.validation.greater_than_zero' });
    expect(messageKeyOf(messages.choice('Default Client'))).toEqual({ key: 'app.validation.choice' });
    expect(messageKeyOf('Name is required, and more')).toBeUndefined();
    expect(messageKeyOf('Logo must be a PNG, JPEG, WebP or SVG image')).toBeUndefined();
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
