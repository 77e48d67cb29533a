import { useCallback } from 'react';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { getImpersonatedUser, toCurrentUser } from '../../session';
import { switchUser } from '../../session/switchUser';

/**
 * `GET auth/impersonate/{adminId}/leave` answers `{data: <the admin with a new token>}`;
 * swap back to it, drop the marker, go to / and reload with 'Leave from impersonation Successfully'.
 */
export function useLeaveImpersonation() {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useCallback(async () => {
    const adminId = getImpersonatedUser();
    if (adminId === null) return;
    try {
      const admin = toCurrentUser(await dataProvider.leaveImpersonation(adminId));
      if (!admin) throw new Error('The leave reply carries no signed-in user');
      switchUser(admin, null, 'app.account.left_impersonation');
    } catch (error) {
      // A failed leave is passed on without a message.
      console.error('Failed to leave impersonation', error);
    }
  }, [dataProvider]);
}
