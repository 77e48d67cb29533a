import { useEffect } from 'react';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../dataProvider';
import { mergeCurrentUser } from '../../session';

/** Re-reads the signed-in user once per visit, so roles, permissions and consent follow the server; a 401 signs out. */
export function useRefreshCurrentUser() {
  const dataProvider = useDataProvider<AppDataProvider>();
  useEffect(() => {
    dataProvider
      .currentUser()
      .then(mergeCurrentUser)
      .catch((error: unknown) => console.error('Failed to refresh the current user', error));
  }, [dataProvider]);
}
