import { useCallback, useState } from 'react';
import { useDataProvider, useNotify, type Identifier } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { getCurrentUser, setImpersonatedUser, toCurrentUser } from '../../session';
import { switchUser } from '../../session/switchUser';

/**
 * Keep the admin's id under `impersonatedUser`, call `auth/impersonate/take/{id}`, become the
 * returned user (with its token), go to / and reload with 'Impersonated Successfully'.
 * A refusal removes the marker again and says 'Failed to impersonate user'.
 */
export function useImpersonate() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const [pending, setPending] = useState(false);
  const take = useCallback(
    async (userId: Identifier) => {
      const admin = getCurrentUser();
      if (!admin) return;
      setPending(true);
      setImpersonatedUser(admin.id);
      try {
        const user = toCurrentUser(await dataProvider.impersonate(userId));
        if (!user) throw new Error('The impersonation reply carries no signed-in user');
        switchUser(user, admin.id, 'resources.users.impersonate.done');
      } catch (error) {
        setImpersonatedUser(null);
        setPending(false);
        console.error('Failed to impersonate user', error);
        notify('resources.users.impersonate.failed', { type: 'error' });
      }
    },
    [dataProvider, notify],
  );
  return { take, pending };
}
