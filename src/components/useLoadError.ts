import { useEffect } from 'react';
import { useNavigate, useNotify, useTranslate } from 'react-admin';
import { NOT_FOUND_REDIRECT_MS } from '../config';
import { isRecordNotFound } from '../dataProvider/errors';
import { useNotifyError } from './useNotifyError';

/**
 * What a page does when its record fails to load: a missing record says '{Name} Not Found'
 * (`name`: the i18n key of the record's name) and goes to `listPath` after NOT_FOUND_REDIRECT_MS; any other failure
 * shows its message in the error toast, and the page stays.
 */
export function useLoadError(error: unknown, name: string, listPath: string) {
  const notify = useNotify();
  const notifyError = useNotifyError();
  const translate = useTranslate();
  const navigate = useNavigate();
  useEffect(() => {
    if (!error) return undefined;
    if (!isRecordNotFound(error)) {
      notifyError(error);
      return undefined;
    }
    notify('app.error.record_not_found', { type: 'error', messageArgs: { name: translate(name) } });
    const timer = setTimeout(() => navigate(listPath), NOT_FOUND_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [error, name, listPath, navigate, notify, notifyError, translate]);
}
