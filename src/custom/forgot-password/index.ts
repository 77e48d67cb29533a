import { lazyPage } from '../../components/lazyPage';

/** Request a password-reset link: public. */
export const path = '/forgot-password';
export const ForgotPasswordPage = lazyPage(() => import('./ForgotPasswordPage'), 'ForgotPasswordPage');
