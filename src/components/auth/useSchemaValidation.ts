import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import type { ZodType } from 'zod';
import type { FormErrors } from '../schemaErrors';

/**
 * Validates with a schema of src/domain/auth.ts, the one the server applies. The schema (with zod
 * and the message translation) loads on the first submit, so it is not part of the sign-in page's
 * first download. Pass module-level `load` and `labels` (i18n keys by field) so the validator is stable.
 */
export function useSchemaValidation(load: () => Promise<ZodType>, labels: Record<string, string>) {
  const translate = useTranslate();
  return useCallback(
    async (values: Record<string, string>): Promise<FormErrors> => {
      const [{ schemaErrors }, schema] = await Promise.all([import('../schemaErrors'), load()]);
      const translated = Object.fromEntries(Object.entries(labels).map(([field, key]) => [field, translate(key)]));
      return schemaErrors(schema, values, translated);
    },
    [load, labels, translate],
  );
}
