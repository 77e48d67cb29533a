import { useMemo } from 'react';
import { useTranslate, type Validator } from 'react-admin';
import type { FormMode } from '../../domain/fields';
import { fieldValidator } from '../../components/fieldValidation';
import type { ResourceDescription } from '../types';

/** One validator per editable field, labelled with the translated `resources.<name>.fields.<field>`. */
export function useResourceValidators({ name, fields }: ResourceDescription, mode: FormMode): Record<string, Validator> {
  const translate = useTranslate();
  return useMemo(
    () =>
      Object.fromEntries(
        Object.entries(fields)
          .filter(([, spec]) => !spec.readOnly)
          .map(([source, spec]) => [source, fieldValidator(spec, translate(`resources.${name}.fields.${source}`, { _: spec.label }), mode)]),
      ),
    [fields, name, translate, mode],
  );
}
