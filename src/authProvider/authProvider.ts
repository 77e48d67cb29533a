import type { AuthProvider } from 'react-admin';
import { can, dataScope } from '../domain/permissions';
import type { Request } from '../dataProvider/http';
import {
  claimSelection,
  displayName,
  getCurrentUser,
  setCurrentUser,
  setImpersonatedUser,
  setLastSeenPage,
  toCurrentUser,
} from '../session';
import { type AccessRules, permissionFor, scopeAllows } from './resourceAccess';

export const LOGIN_PATH = '/login';
/** i18n key of 'Login token expired'. */
export const TOKEN_EXPIRED = 'app.auth.token_expired';

export interface Credentials {
  email: string;
  password: string;
}

const statusOf = (error: unknown) => (typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : undefined);

/** Sign-in, session and access checks over the user service; the session lives in local storage. */
export function createAuthProvider({ request, access }: { request: Request; access: AccessRules }): AuthProvider {
  return {
    async login({ email, password }: Credentials) {
      const reply = await request('user', 'auth/login', { method: 'POST', body: { email, password }, token: null });
      const user = toCurrentUser(reply);
      if (!user) throw new Error('app.error.server');
      claimSelection(user.id);
      setCurrentUser(user);
      return { redirectTo: '/' };
    },

    async logout() {
      const user = getCurrentUser();
      const path = window.location.pathname;
      if (path !== LOGIN_PATH) setLastSeenPage(path);
      setCurrentUser(null);
      setImpersonatedUser(null);
      // Best effort: the session is over locally even when the server cannot be told.
      if (user) request('user', 'auth/logout', { method: 'POST', token: user.token }).catch(() => undefined);
    },

    async checkAuth() {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- react-admin's protocol: a plain object; `message: false` means no notification.
      if (!getCurrentUser()) throw { message: false };
    },

    async checkError(error: unknown) {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- react-admin's protocol: a plain object with the message and where to go.
      if (statusOf(error) === 401) throw { message: TOKEN_EXPIRED, redirectTo: LOGIN_PATH };
      // 403 and the rest only tell: the caller shows the server's message.
    },

    async getIdentity() {
      const user = getCurrentUser();
      if (!user) throw new Error('Not signed in');
      return { id: user.id, fullName: displayName(user), avatar: undefined };
    },

    async canAccess({ resource, action }) {
      const rule = await access(resource);
      const permission = permissionFor(rule, action);
      const user = getCurrentUser();
      if (permission === undefined || !user || !can(user, permission)) return false;
      return scopeAllows(rule, action, dataScope(user));
    },
  };
}
