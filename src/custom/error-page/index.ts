import { lazyPage } from '../../components/lazyPage';

/** 'PAGE NOT FOUND !' (spec 1 §2): public. */
export const path = '/error';
export const NotFoundPage = lazyPage(() => import('./NotFoundPage'), 'NotFoundPage');
