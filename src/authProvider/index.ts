import { request } from '../dataProvider/http';
import { createAuthProvider } from './authProvider';
import { resourceAccess } from './resourceAccess';

export const authProvider = createAuthProvider({ request, access: resourceAccess });
