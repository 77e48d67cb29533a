import { lazyPage } from '../../components/lazyPage';

/** Sign-in (spec 1 §2): public; redirects to / when already signed in. */
export const path = '/login';
export const LoginPage = lazyPage(() => import('./LoginPage'), 'LoginPage', { screenMessages: false });
