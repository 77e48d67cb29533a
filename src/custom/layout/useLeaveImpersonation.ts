import { useCallback } from 'react';
import { useDataProvider, useNavigate, useNotify, useRefresh } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { getImpersonatedUser, setCurrentUser, setImpersonatedUser, toCurrentUser } from '../../session';

/** Spec 1 §4: swap back to the admin the server returns, drop the marker, go to / and reload the data. */
export function useLeaveImpersonation() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const navigate = useNavigate();
  const refresh = useRefresh();
  const notify = useNotify();
  return useCallback(async () => {
    const adminId = getImpersonatedUser();
    if (adminId === null) return;
    try {
      const admin = toCurrentUser(await dataProvider.send('user', `auth/impersonate/${adminId}/leave`));
      if (!admin) throw new Error('The leave reply carries no signed-in user');
      setCurrentUser(admin);
      setImpersonatedUser(null);
      navigate('/');
      refresh();
      notify('app.account.left_impersonation', { type: 'success' });
    } catch (error) {
      // Spec 1 §8: a failed leave is passed on without a message.
      console.error('Failed to leave impersonation', error);
    }
  }, [dataProvider, navigate, notify, refresh]);
}
