import type { ValidationErrorMessage } from 'react-admin';
import type { ZodType } from 'zod';
import { translatableRule } from '../i18n/ruleMessages';

export type FormErrors = Record<string, ValidationErrorMessage | undefined>;

/** First message per field of a domain schema (e.g. src/domain/auth.ts LoginBody), ready to translate. */
export function schemaErrors(schema: ZodType, values: unknown, labels: Record<string, string>): FormErrors {
  const result = schema.safeParse(values);
  const errors: FormErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!errors[field]) errors[field] = translatableRule(issue.message, labels[field] ?? field);
  }
  return errors;
}
