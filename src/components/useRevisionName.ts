import { useTranslate } from 'react-admin';
import { supplementLabel } from '../domain/quote-model';

/** A quote revision's name by its number: 'Original estimate' for 0, else 'Supplement S1', 'Supplement S2'… */
export function useRevisionName() {
  const translate = useTranslate();
  return (revision: number) =>
    revision === 0 ? translate('app.revisions.original') : translate('app.revisions.supplement', { label: supplementLabel(revision) });
}
