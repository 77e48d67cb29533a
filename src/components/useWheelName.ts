import { useCallback } from 'react';
import { useLocaleState } from 'react-admin';
import { wheelName } from '../domain/invoice-labels';

/** A wheel's label ('FRONT LEFT', '2 RIGHT') in the user's language, in the documents' words; any other text as it is. */
export function useWheelName() {
  const [locale] = useLocaleState();
  return useCallback((label: string) => wheelName(label, locale), [locale]);
}
