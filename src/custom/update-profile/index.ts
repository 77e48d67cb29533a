import { lazyPage } from '../../components/lazyPage';

/** The signed-in user's own profile (spec 1 §2: needs `user`; DECISIONS: saved on the server). */
export const path = '/update-profile';
export const permission = 'user';
export const UpdateProfilePage = lazyPage(() => import('./UpdateProfilePage'), 'UpdateProfilePage');
