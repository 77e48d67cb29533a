import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import { parseMessageLines } from '../components/ruleMessages';
import { en } from './en';

/** Header language choices (spec 1 §1); names are shown in their own language. */
export const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'ja', name: '日本語' },
];

// Japanese loads on demand so the English sign-in page does not pay for it.
const getMessages = (locale: string): TranslationMessages | Promise<TranslationMessages> =>
  locale === 'ja' ? import('./ja').then((m) => m.ja) : en;

/** Keeps the window title and <html lang> in the chosen language. */
function applyToDocument(provider: I18nProvider) {
  document.title = provider.translate('app.title');
  document.documentElement.lang = provider.getLocale();
}

function createI18nProvider(): I18nProvider {
  const polyglot = polyglotI18nProvider(getMessages, 'en', LOCALES);
  return {
    ...polyglot,
    // A server rule message names its field by the label's key (src/components/ruleMessages.ts): translated first.
    translate: function translate(key: string, options?: Record<string, unknown>): string {
      // Several messages in one toast (a 422's field messages): each line translated on its own.
      const lines = parseMessageLines(key);
      if (lines) return lines.map((line) => translate(line.message, line.args)).join('\n');
      const fieldKey = options?.fieldKey;
      if (typeof fieldKey !== 'string') return polyglot.translate(key, options);
      const field = polyglot.translate(fieldKey, { smart_count: 1, _: fieldKey.split('.').pop() ?? fieldKey });
      return polyglot.translate(key, { ...options, field });
    },
    changeLocale: async (locale, options) => {
      await polyglot.changeLocale(locale, options);
      applyToDocument(polyglot);
    },
  };
}

/** The chosen locale is kept by react-admin's store in local storage (see src/store.ts). */
export const i18nProvider = createI18nProvider();
