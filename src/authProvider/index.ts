import { request } from '../dataProvider/http';
import { createAuthProvider } from './authProvider';
import { resourceAccess } from './resourceAccess';

export { createAuthProvider, LOGIN_PATH, TOKEN_EXPIRED, type Credentials } from './authProvider';
export { resourceAccess, permissionFor, type ResourceAccess } from './resourceAccess';

export const authProvider = createAuthProvider({ request, access: resourceAccess });
