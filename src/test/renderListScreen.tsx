import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter } from 'react-admin';
import { i18nProvider, loadScreenMessages } from '../i18n/i18nProvider';
import { authProvider, dataProvider } from '../providers';

/**
 * One list screen at `path` in a test admin with the app's providers (and a fresh store), without the layout, the
 * menu or the other screens: what the list screens' tests render.
 */
export async function renderListScreen(path: string, screen: ReactElement) {
  await loadScreenMessages();
  return render(
    <TestMemoryRouter initialEntries={[path]}>
      <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        {screen}
      </AdminContext>
    </TestMemoryRouter>,
  );
}
