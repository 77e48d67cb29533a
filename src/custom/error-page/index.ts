import { lazyPage } from '../../components/lazyPage';

/** 'PAGE NOT FOUND !': public. */
export const path = '/error';
export const NotFoundPage = lazyPage(() => import('./NotFoundPage'), 'NotFoundPage');
