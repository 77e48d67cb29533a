import { afterEach, describe, expect, it } from 'vitest';
import { messageLines } from '../components/ruleMessages';
import { i18nProvider } from './i18nProvider';

describe('the i18n provider', () => {
  afterEach(() => i18nProvider.changeLocale('en'));

  it("translates a 422's message lines one by one, naming each field by its label, for the error toast", async () => {
    const text = messageLines([
      { message: 'app.validation.taken', args: { fieldKey: 'resources.roles.fields.name', _: 'The name has already been taken.' } },
      { message: 'app.validation.permissions_held', args: { fieldKey: 'resources.roles.fields.permissions', _: 'x' } },
      { message: 'A text no rule made', args: { _: 'A text no rule made' } },
    ]);
    expect(i18nProvider.translate(text)).toBe(
      'The Name has already been taken.\nYou may only grant permissions you hold.\nA text no rule made',
    );
    await i18nProvider.changeLocale('ja');
    expect(i18nProvider.translate(text)).toBe(
      'この名前は既に使用されています\n付与できるのはご自身が持つ権限のみです\nA text no rule made',
    );
  });
});
