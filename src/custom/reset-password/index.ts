import { lazyPage } from '../../components/lazyPage';

/** Choose a new password from the emailed link `/reset-password?token=...`: public. */
export const path = '/reset-password';
export const ResetPasswordPage = lazyPage(() => import('./ResetPasswordPage'), 'ResetPasswordPage');
