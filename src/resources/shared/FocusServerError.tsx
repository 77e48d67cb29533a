import { useEffect, useRef } from 'react';
import { useFormState, type FieldErrors } from 'react-hook-form';

const hasServerError = (errors: FieldErrors): boolean =>
  Object.values(errors).some(
    (e) => !!e && (e.type === 'server' || (typeof e === 'object' && !('type' in e) && hasServerError(e as FieldErrors))),
  );

/**
 * After a save the server refused with field errors (a 422 that react-admin puts under the inputs), the first input
 * showing one takes the focus, as it does for the form's own rules; once per submission, so typing is never
 * interrupted.
 */
export const FocusServerError = () => {
  const { errors, submitCount } = useFormState();
  const focusedFor = useRef(0);
  const here = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (focusedFor.current === submitCount || !hasServerError(errors)) return;
    focusedFor.current = submitCount;
    here.current?.closest('form')?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });
  return <span ref={here} hidden />;
};
