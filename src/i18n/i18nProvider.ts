import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import { parseMessageLines } from './ruleMessages';
import { enCore, withScreens } from './en-core';

/** Header language choices; names are shown in their own language. */
export const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'ja', name: '日本語' },
];

/** The whole English catalogue once loaded; until then the core (sign-in page and frame) only. */
let english: TranslationMessages | undefined;
let started = false;
const loadEnglish = () =>
  import('./en').then((m) => {
    english = withScreens(m.enScreens);
    return english;
  });

// Japanese loads on demand, and English screens' messages after sign-in, so the sign-in page pays for neither.
const getMessages = (locale: string): TranslationMessages | Promise<TranslationMessages> => {
  if (locale === 'ja') return import('./ja').then((m) => m.ja);
  if (english) return english;
  return started ? loadEnglish() : enCore;
};

/** Keeps the window title and <html lang> in the chosen language. */
function applyToDocument(provider: I18nProvider) {
  document.title = provider.translate('app.title');
  document.documentElement.lang = provider.getLocale();
}

function createI18nProvider(): I18nProvider {
  const polyglot = polyglotI18nProvider(getMessages, 'en', LOCALES);
  let chosen: string | undefined;
  let applied: Promise<unknown> = Promise.resolve();
  return {
    ...polyglot,
    // A server rule message names its field by the label's key (src/i18n/ruleMessages.ts): translated first.
    translate: function translate(key: string, options?: Record<string, unknown>): string {
      // Several messages in one toast (a 422's field messages): each line translated on its own.
      const lines = parseMessageLines(key);
      if (lines) return lines.map((line) => translate(line.message, line.args)).join('\n');
      const fieldKey = options?.fieldKey;
      if (typeof fieldKey !== 'string') return polyglot.translate(key, options);
      const field = polyglot.translate(fieldKey, { smart_count: 1, _: fieldKey.split('.').pop() ?? fieldKey });
      return polyglot.translate(key, { ...options, field });
    },
    // react-admin asks for a change only when getLocale() differs from the chosen locale, and a catalogue may still
    // be downloading when the user chooses again: so getLocale() names the latest choice at once, the changes apply
    // in the order asked, and a choice overtaken by a later one is skipped. Otherwise Japanese arriving after a quick
    // switch back to English would win, with English selected.
    getLocale: () => chosen ?? polyglot.getLocale(),
    changeLocale: (locale, options) => {
      chosen = locale;
      const messages = Promise.resolve(getMessages(locale));
      const change = applied.then(async () => {
        try {
          await messages;
        } catch (error) {
          if (chosen === locale) chosen = undefined;
          throw error;
        }
        if (chosen !== locale) return;
        await polyglot.changeLocale(locale, options);
        applyToDocument(polyglot);
      });
      applied = change.catch(() => undefined);
      return change;
    },
  };
}

/** The chosen locale is kept by react-admin's store in local storage (see src/store.ts). */
export const i18nProvider = createI18nProvider();
started = true;

let screenMessages: Promise<void> | undefined;
/**
 * Loads every screen's messages (./en.ts) once; lazyPage awaits it beside a screen's code, so a screen never renders
 * a missing key. Japanese is loaded whole by changeLocale; English swaps the core for the whole catalogue here.
 */
export function loadScreenMessages(): Promise<void> {
  screenMessages ??= loadEnglish().then(
    async () => {
      if (i18nProvider.getLocale() === 'en') await i18nProvider.changeLocale('en');
    },
    (error: unknown) => {
      screenMessages = undefined; // a failed download is tried again by the next screen
      throw error;
    },
  );
  return screenMessages;
}
