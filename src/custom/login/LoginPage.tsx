import { Button } from '@mui/material';
import { LinkBase, Navigate, useLocation, useLogin, useNotify, useTranslate } from 'react-admin';
import { AuthCard } from '../../components/auth/AuthCard';
import { AuthTextField } from '../../components/auth/AuthTextField';
import { useAuthForm } from '../../components/auth/useAuthForm';
import { useSchemaValidation } from '../../components/auth/useSchemaValidation';
import { useNotifyError } from '../../components/useNotifyError';
import { useCurrentUser } from '../../session';
import { forgotPasswordPath } from '../authPaths';

const loadSchema = () => import('../../domain/auth').then((m) => m.LoginBody);
const LABELS = { email: 'app.auth.email', password: 'app.auth.password' };

/** Where a signed-in user goes from /login: the path (and query) a session expiry left, else the dashboard. */
export function returnPath(state: unknown): string {
  const { nextPathname, nextSearch } = (state ?? {}) as { nextPathname?: unknown; nextSearch?: unknown };
  if (typeof nextPathname !== 'string' || !nextPathname.startsWith('/') || nextPathname.startsWith('//')) return '/';
  return nextPathname + (typeof nextSearch === 'string' ? nextSearch : '');
}

export const LoginPage = () => {
  const translate = useTranslate();
  const user = useCurrentUser();
  const login = useLogin();
  const location = useLocation();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const validate = useSchemaValidation(loadSchema, LABELS);
  const { field, handleSubmit, submitting } = useAuthForm({ email: '', password: '' }, validate);

  // Signed in: back to the page a session expiry left (react-admin's logout keeps it in the location state), else /.
  if (user) return <Navigate to={returnPath(location.state)} replace />;

  const submit = handleSubmit(async ({ email, password }) => {
    try {
      await login({ email: email.trim(), password });
      notify('app.auth.login_success', { type: 'success' });
    } catch (error) {
      console.error('Invalid Login Credentials', error);
      notifyError(error, LABELS);
    }
  });

  return (
    <AuthCard title={translate('app.auth.sign_in')}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <AuthTextField {...field('email')} type="email" label={translate(LABELS.email)} autoComplete="email" />
        <AuthTextField {...field('password')} type="password" label={translate(LABELS.password)} autoComplete="current-password" />
        <Button type="submit" variant="contained" size="large" disabled={submitting} fullWidth>
          {translate('app.auth.sign_in')}
        </Button>
        <Button component={LinkBase} to={forgotPasswordPath} fullWidth sx={{ mt: 1 }}>
          {translate('app.auth.forgot_password')}
        </Button>
      </form>
    </AuthCard>
  );
};
