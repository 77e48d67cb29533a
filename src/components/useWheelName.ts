import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { wheelNameKey } from '../domain/scan-codes';

/** A wheel's label ('FRONT LEFT', '2 RIGHT') in the user's language; any other text as it is. */
export function useWheelName() {
  const translate = useTranslate();
  return useCallback(
    (label: string) => {
      const name = wheelNameKey(label);
      return name ? translate(name.key, { n: name.n, _: label }) : label;
    },
    [translate],
  );
}
