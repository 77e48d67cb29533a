import type { AuthProvider } from 'react-admin';
import { can, dataScope } from '../domain/permissions';
import type { Request } from '../dataProvider/http';
import {
  claimSelection,
  displayName,
  endSession,
  getCurrentUser,
  setCurrentUser,
  setImpersonatedUser,
  setLastSeenPage,
  toCurrentUser,
} from '../session';
import { type AccessRules, permissionFor, scopeAllows } from './resourceAccess';

export const LOGIN_PATH = '/login';
export { TOKEN_EXPIRED } from '../dataProvider/errors';

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
      // No redirect of its own: react-admin goes back to the page a session expiry left (its location state), else /.
      return {};
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
      // A 401 ends the session (src/session/sessionEnd.ts) and the call still fails: the caller says 'Login token
      // expired' (the error's message) and never its success. 403 and the rest only tell: the caller shows the
      // server's message.
      if (statusOf(error) === 401) endSession();
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
