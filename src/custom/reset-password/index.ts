import { lazyPage } from '../../components/lazyPage';

/** Choose a new password from the emailed link `/reset-password?token=...`: public. */
export { resetPasswordPath as path } from '../authPaths';
export const ResetPasswordPage = lazyPage(() => import('./ResetPasswordPage'), 'ResetPasswordPage');
