import { useTranslate } from 'react-admin';

/**
 * MUI's Autocomplete names its clear and open buttons and its loading line in English unless told: the same words
 * react-admin's own autocomplete inputs use, in the user's language.
 */
export function useAutocompleteTexts() {
  const translate = useTranslate();
  return {
    clearText: translate('ra.action.clear_input_value'),
    openText: translate('ra.action.open'),
    closeText: translate('ra.action.close'),
    loadingText: translate('ra.page.loading'),
  };
}
