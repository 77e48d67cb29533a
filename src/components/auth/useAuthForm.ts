import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { FormErrors } from '../schemaErrors';

/**
 * The small form state of the public pages (react-admin's <Form> and react-hook-form stay out of
 * the sign-in download). Validates on submit, blocks it when invalid and focuses the first invalid
 * field; onValid may return the server's field errors to show.
 */
export function useAuthForm<N extends string>(initial: Record<N, string>, validate: (values: Record<N, string>) => Promise<FormErrors>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const inputs = useRef<Partial<Record<N, HTMLInputElement | null>>>({});
  const names = Object.keys(initial) as N[];

  const field = (name: N) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const { value } = event.target;
      setValues((current) => ({ ...current, [name]: value }));
      setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
    },
    inputRef: (element: HTMLInputElement | null) => {
      inputs.current[name] = element;
    },
  });

  const handleSubmit = (onValid: (values: Record<N, string>) => Promise<FormErrors | undefined | void>) => async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    try {
      const found = await validate(values);
      setErrors(found);
      if (Object.values(found).some(Boolean)) {
        const firstInvalid = names.find((name) => found[name]);
        if (firstInvalid) inputs.current[firstInvalid]?.focus();
        return;
      }
      const serverErrors = await onValid(values);
      if (serverErrors) setErrors(serverErrors);
    } finally {
      setSubmitting(false);
    }
  };

  return { field, handleSubmit, submitting };
}
