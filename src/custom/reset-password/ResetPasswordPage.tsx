import { useCallback } from 'react';
import { Button } from '@mui/material';
import { Navigate, useDataProvider, useLocation, useNavigate, useNotify, useTranslate } from 'react-admin';
import { AuthCard } from '../../components/auth/AuthCard';
import { AuthTextField } from '../../components/auth/AuthTextField';
import { useAuthForm } from '../../components/auth/useAuthForm';
import { useSchemaValidation } from '../../components/auth/useSchemaValidation';
import { useNotifyError } from '../../components/useNotifyError';
import type { AppDataProvider } from '../../dataProvider';
import { path as errorPath } from '../error-page';
import { loginPath } from '../authPaths';

const loadSchema = () => import('../../domain/auth').then((m) => m.ResetPasswordBody);
// The rule messages name the new password 'Password' in its messages, though the input reads 'New Password'.
const LABELS = { password: 'app.auth.password', password_confirmation: 'app.auth.confirm_password', token: 'app.auth.reset_link' };

export const ResetPasswordPage = () => {
  const translate = useTranslate();
  const token = new URLSearchParams(useLocation().search).get('token');
  const dataProvider = useDataProvider<AppDataProvider>();
  const navigate = useNavigate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const checkSchema = useSchemaValidation(loadSchema, LABELS);
  const validate = useCallback(
    async (values: { password: string; password_confirmation: string }) => {
      const errors = await checkSchema({ token: token ?? '', ...values });
      // The server accepts a missing confirmation; this form asks for it.
      if (!values.password_confirmation) {
        errors.password_confirmation = { message: 'app.validation.required', args: { field: translate(LABELS.password_confirmation) } };
      }
      // The token has no input: its problem goes to the toast.
      const tokenError = errors.token;
      if (typeof tokenError === 'string') notify(tokenError, { type: 'error', messageArgs: { _: tokenError } });
      else if (tokenError) notify(tokenError.message, { type: 'error', messageArgs: tokenError.args });
      return errors;
    },
    [checkSchema, notify, token, translate],
  );
  const { field, handleSubmit, submitting } = useAuthForm({ password: '', password_confirmation: '' }, validate);

  if (!token) return <Navigate to={errorPath} replace />;

  const submit = handleSubmit(async (values) => {
    try {
      await dataProvider.resetPassword({ token, ...values });
      notify('app.auth.password_changed', { type: 'success' });
      navigate(loginPath);
    } catch (error) {
      return notifyError(error, LABELS);
    }
  });

  return (
    <AuthCard title={translate('app.auth.change_password')}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <AuthTextField {...field('password')} type="password" label={translate('app.auth.new_password')} autoComplete="new-password" />
        <AuthTextField
          {...field('password_confirmation')}
          type="password"
          label={translate(LABELS.password_confirmation)}
          autoComplete="new-password"
        />
        <Button type="submit" variant="contained" size="large" disabled={submitting} fullWidth>
          {translate('app.auth.change_password')}
        </Button>
      </form>
    </AuthCard>
  );
};
