import { lazyPage } from '../../components/lazyPage';

/** Sign-in: public; redirects to / when already signed in. */
export { loginPath as path } from '../authPaths';
export const LoginPage = lazyPage(() => import('./LoginPage'), 'LoginPage', { screenMessages: false });
