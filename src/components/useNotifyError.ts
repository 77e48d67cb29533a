import { useCallback } from 'react';
import { useNotify } from 'react-admin';
import { SERVER_ERROR, fieldErrorsOf } from '../dataProvider/errors';

/** What a react-admin <Form> hands to onSubmit. */
export type FormValues = Record<string, unknown>;

/**
 * Shows a failed call's message in the error toast and returns its 422 field map,
 * so a form's onSubmit can hand it back to react-admin to show under the inputs. With `labels`
 * (field → i18n key of the screen's label), a 422's keyed messages show in the user's language,
 * under the inputs and in the toast.
 */
export function useNotifyError() {
  const notify = useNotify();
  return useCallback(
    (error: unknown, labels?: Record<string, string>) => {
      const errors = fieldErrorsOf(error, labels);
      const message = error instanceof Error && error.message ? error.message : SERVER_ERROR;
      notify(message, { type: 'error', messageArgs: { _: message } });
      return errors;
    },
    [notify],
  );
}
