import { localStorageStore, type Store } from 'react-admin';

const base = localStorageStore(undefined, 'ScanQuote');

/**
 * react-admin's store (list params, sidebar, locale) in local storage. Logout resets it;
 * the language choice survives so the sign-in page stays in the user's language.
 */
export const store: Store = {
  ...base,
  reset() {
    const locale = base.getItem<string>('locale');
    base.reset();
    if (locale) base.setItem('locale', locale);
  },
};
