import { lazyPage } from '../../components/lazyPage';

/** The signed-in user's own profile (needs `user`; saved on the server). */
export const path = '/update-profile';
export const permission = 'user';
export const UpdateProfilePage = lazyPage(() => import('./UpdateProfilePage'), 'UpdateProfilePage');
