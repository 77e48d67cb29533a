import { useMemo } from 'react';
import { useTranslate, type Validator } from 'react-admin';
import type { FormMode } from '../../domain/fields';
import { fieldValidator } from '../../components/fieldValidation';
import { translatableRule } from '../../i18n/ruleMessages';
import type { FormBehaviour, ResourceDescription } from '../types';

/** One validator per editable field, labelled with the translated `resources.<name>.fields.<field>`. */
export function useResourceValidators({ name, fields, form }: ResourceDescription, mode: FormMode): Record<string, Validator> {
  const translate = useTranslate();
  const refine = form?.refine;
  return useMemo(
    () =>
      Object.fromEntries(
        Object.entries(fields)
          .filter(([, spec]) => !spec.readOnly)
          .map(([source, spec]) => {
            const label = translate(`resources.${name}.fields.${source}`, { _: spec.label });
            const own = fieldValidator(spec, label, mode);
            const validator = refine ? withRefine(own, refine, source, label, mode) : own;
            // A choice with a default always holds a value (the server gives it the default): no blank choice to offer.
            const alwaysSet = spec.type === 'choice' && spec.default !== undefined;
            if (!alwaysSet && !form?.conditions?.[source]?.required) return [source, validator];
            const required: Validator = (value, values, props) => validator(value, values, props);
            return [source, Object.assign(required, { isRequired: true })];
          }),
      ),
    [fields, name, translate, mode, refine, form?.conditions],
  );
}

/** The field's own rule first, then the description's cross-field rule for this source (e.g. agents required with role Agent). */
function withRefine(
  own: Validator,
  refine: NonNullable<FormBehaviour['refine']>,
  source: string,
  label: string,
  mode: FormMode,
): Validator {
  const validator: Validator = (value, values, props) => {
    const first = own(value, values, props);
    if (first) return first;
    const english = refine((values ?? {}) as Record<string, unknown>, mode)?.[source];
    return english ? translatableRule(english, label) : undefined;
  };
  return Object.assign(validator, { isRequired: (own as { isRequired?: boolean }).isRequired });
}
