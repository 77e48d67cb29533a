import { lazyPage } from '../../components/lazyPage';

/** Request a password-reset link (spec 1 §2, DECISIONS): public. */
export const path = '/forgot-password';
export const ForgotPasswordPage = lazyPage(() => import('./ForgotPasswordPage'), 'ForgotPasswordPage');
