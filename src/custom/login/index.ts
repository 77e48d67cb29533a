import { lazyPage } from '../../components/lazyPage';

/** Sign-in: public; redirects to / when already signed in. */
export const path = '/login';
export const LoginPage = lazyPage(() => import('./LoginPage'), 'LoginPage', { screenMessages: false });
