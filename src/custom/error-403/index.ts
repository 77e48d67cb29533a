import { lazyPage } from '../../components/lazyPage';

/** 'page access denied !': public. */
export const path = '/error-403';
export const AccessDeniedPage = lazyPage(() => import('./AccessDeniedPage'), 'AccessDeniedPage');
