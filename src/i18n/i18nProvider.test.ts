import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { messageLines } from './ruleMessages';
import { enCore } from './en-core';
import { i18nProvider, loadScreenMessages } from './i18nProvider';

type Catalogue = { [key: string]: string | Catalogue };
const has = (catalogue: Catalogue, key: string) =>
  typeof key.split('.').reduce<Catalogue | string | undefined>((c, part) => (typeof c === 'object' ? c[part] : undefined), catalogue) ===
  'string';

/** What the sign-in page renders or may toast before any screen's messages are loaded. */
const SIGN_IN_SOURCES = [
  'src/custom/login/LoginPage.tsx',
  ...fs.readdirSync('src/components/auth').map((f) => path.join('src/components/auth', f)),
  'src/components/AppNotification.tsx',
  'src/components/PageLoading.tsx',
  'src/components/useNotifyError.ts',
  'src/dataProvider/errors.ts',
  'src/domain/auth.ts',
  'src/domain/messages.ts',
];

describe('the i18n provider', () => {
  afterEach(() => i18nProvider.changeLocale('en'));

  // Runs first: the module's state (screens not loaded yet) is what the sign-in page sees.
  it("starts with the core only (what the sign-in page needs) and adds the screens' messages on demand", async () => {
    const keys = SIGN_IN_SOURCES.filter((f) => fs.existsSync(f)).flatMap((f) =>
      [...fs.readFileSync(f, 'utf8').matchAll(/'((?:app|ra)\.[A-Za-z0-9_.]+[A-Za-z0-9_])'/g)].map((m) => m[1]),
    );
    expect(keys.length).toBeGreaterThan(20);
    expect(keys.filter((key) => !has(enCore as Catalogue, key))).toEqual([]);
    expect(i18nProvider.translate('app.auth.sign_in')).toBe(enCore.app.auth.sign_in);
    expect(i18nProvider.translate('app.scans.search')).toBe('app.scans.search');
    await loadScreenMessages();
    expect(i18nProvider.translate('app.scans.search')).toBe('Search Scan');
    expect(i18nProvider.translate('app.auth.sign_in')).toBe(enCore.app.auth.sign_in);
  });

  it("translates a 422's message lines one by one, naming each field by its label, for the error toast", async () => {
    await loadScreenMessages();
    const text = messageLines([
      { message: 'app.validation.taken', args: { fieldKey: 'resources.roles.fields.name', _: 'Name has already been taken.' } },
      { message: 'app.validation.permissions_held', args: { fieldKey: 'resources.roles.fields.permissions', _: 'x' } },
      { message: 'A text no rule made', args: { _: 'A text no rule made' } },
    ]);
    expect(i18nProvider.translate(text)).toBe(
      'Name has already been taken.\nYou may only grant permissions you hold.\nA text no rule made',
    );
    await i18nProvider.changeLocale('ja');
    expect(i18nProvider.translate(text)).toBe(
      'この名前は既に使用されています\n付与できるのはご自身が持つ権限のみです\nA text no rule made',
    );
    await i18nProvider.changeLocale('en');
    expect(i18nProvider.translate('app.scans.search')).toBe('Search Scan');
  });

  // react-admin changes the provider's locale only when getLocale() differs from the chosen one.
  it('keeps the latest choice when the user switches back before the first catalogue has arrived', async () => {
    await loadScreenMessages();
    const toJapanese = i18nProvider.changeLocale('ja');
    expect(i18nProvider.getLocale()).toBe('ja');
    const backToEnglish = i18nProvider.changeLocale('en');
    expect(i18nProvider.getLocale()).toBe('en');
    await Promise.all([toJapanese, backToEnglish]);
    expect(i18nProvider.getLocale()).toBe('en');
    expect(i18nProvider.translate('app.scans.search')).toBe('Search Scan');
    expect(document.documentElement.lang).toBe('en');
    await i18nProvider.changeLocale('ja');
    expect(i18nProvider.translate('app.scans.search')).not.toBe('Search Scan');
    expect(document.documentElement.lang).toBe('ja');
  });
});
