import type { Validator } from 'react-admin';
import { checkField, type FieldSpec, type FormMode } from '../domain/fields';
import { translatableRule } from '../i18n/ruleMessages';

/**
 * A react-admin validator running the domain's checkField (the rule the server applies), shown in
 * the user's language: '{field} is required' is rebuilt from the translated field label.
 */
export function fieldValidator(spec: FieldSpec, label: string, mode: FormMode = 'create'): Validator {
  const validator = (value: unknown) => {
    const english = checkField(spec, value, mode);
    return english ? translatableRule(english, label) : undefined;
  };
  // react-admin marks an input required (the asterisk) when its validator says so.
  const required = !!spec.required || (!!spec.requiredOnCreate && mode === 'create');
  return Object.assign(validator, { isRequired: required });
}
