import { useEffect } from 'react';
import { useLogout, useNotify } from 'react-admin';
import { TOKEN_EXPIRED } from '../dataProvider/errors';
import { getCurrentUser, onSessionEnd } from '../session';

/**
 * Signs out once the server has refused the session (a 401 on any call, src/session/sessionEnd.ts): 'Login token
 * expired', then /login, which takes the user back to this page after they sign in again. Calls refused together
 * sign out once (the first clears the stored user).
 */
export function useSessionEnd() {
  const logout = useLogout();
  const notify = useNotify();
  useEffect(
    () =>
      onSessionEnd(() => {
        if (!getCurrentUser()) return;
        notify(TOKEN_EXPIRED, { type: 'error' });
        void logout({}, undefined, true);
      }),
    [logout, notify],
  );
}
