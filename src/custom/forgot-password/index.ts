import { lazyPage } from '../../components/lazyPage';

/** Request a password-reset link: public. */
export { forgotPasswordPath as path } from '../authPaths';
export const ForgotPasswordPage = lazyPage(() => import('./ForgotPasswordPage'), 'ForgotPasswordPage');
