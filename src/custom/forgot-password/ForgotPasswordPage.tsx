import { Button } from '@mui/material';
import { LinkBase, useDataProvider, useNavigate, useNotify, useTranslate } from 'react-admin';
import { AuthCard } from '../../components/auth/AuthCard';
import { AuthTextField } from '../../components/auth/AuthTextField';
import { useAuthForm } from '../../components/auth/useAuthForm';
import { useSchemaValidation } from '../../components/auth/useSchemaValidation';
import { useNotifyError } from '../../components/useNotifyError';
import type { AppDataProvider } from '../../dataProvider';
import { loginPath } from '../authPaths';

const loadSchema = () => import('../../domain/auth').then((m) => m.ForgotPasswordBody);
const LABELS = { email: 'app.auth.email' };

export const ForgotPasswordPage = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const navigate = useNavigate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const validate = useSchemaValidation(loadSchema, LABELS);
  const { field, handleSubmit, submitting } = useAuthForm({ email: '' }, validate);

  const submit = handleSubmit(async ({ email }) => {
    try {
      await dataProvider.forgotPassword(email.trim());
      notify('app.auth.reset_link_sent', { type: 'success' });
      navigate(loginPath);
    } catch (error) {
      return notifyError(error, LABELS);
    }
  });

  return (
    <AuthCard title={translate('app.auth.forgot_password')}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <AuthTextField {...field('email')} type="email" label={translate(LABELS.email)} autoComplete="email" />
        <Button type="submit" variant="contained" size="large" disabled={submitting} fullWidth>
          {translate('app.auth.send_reset_link')}
        </Button>
        <Button component={LinkBase} to={loginPath} fullWidth sx={{ mt: 1 }}>
          {translate('app.auth.back_to_sign_in')}
        </Button>
      </form>
    </AuthCard>
  );
};
