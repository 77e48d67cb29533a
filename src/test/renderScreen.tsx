import { Suspense, type ReactNode } from 'react';
import { AdminContext, CoreAdminUI, CustomRoutes, Resource, type DashboardComponent } from 'react-admin';
import { AppNotification } from '../components/AppNotification';
import { lazyPage } from '../components/lazyPage';
import { PageLoading } from '../components/PageLoading';
import { RedirectHome } from '../components/RequirePermission';
import { AppLayout } from '../custom/layout';
import * as login from '../custom/login';
import { pageRoute } from '../custom/pageRoute';
import { pages as allPages } from '../custom/pages';
import { i18nProvider } from '../i18n/i18nProvider';
import { authProvider, dataProvider } from '../providers';
import type { DescribedResource } from '../resources/define';
import { resourceEntries } from '../resources/registry';
import { resourceScreens } from '../resources/shared';
import { store } from '../store';
import { useAppTheme } from '../theme';
import { renderAt } from './renderApp';

export interface ScreenOptions {
  /** The described resources to register, by name. */
  resources?: DescribedResource[];
  /** The bespoke pages to mount, by their path in src/custom/pages.ts. */
  pages?: string[];
  /** What / shows: an empty page unless the test follows a redirect to the dashboard. */
  dashboard?: DashboardComponent;
  /** The signed-in shell (menu, header, footer) around the screen; only the shell's own tests need it. */
  layout?: boolean;
}

const Home = () => null;

const Bare = ({ children }: { children: ReactNode }) => <Suspense fallback={<PageLoading />}>{children}</Suspense>;
/**
 * No menu, header or footer (their DOM and styles slow every jsdom query of the screen); lazy like the app's layout,
 * so the screens' messages load with it.
 */
const BareLayout = lazyPage(async () => ({ Bare }), 'Bare');

const TestAdmin = ({ resources = [], pages = [], dashboard = Home, layout = false }: ScreenOptions) => {
  const entries = resourceEntries.filter((entry) => resources.includes(entry.name));
  const mounted = allPages.filter((page) => pages.includes(page.path));
  return (
    <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} store={store} theme={useAppTheme()}>
      <CoreAdminUI
        layout={layout ? AppLayout : BareLayout}
        loginPage={login.LoginPage}
        dashboard={dashboard}
        loading={PageLoading}
        catchAll={RedirectHome}
        accessDenied={RedirectHome}
        requireAuth
        disableTelemetry
      >
        {entries.map((entry) => (
          <Resource key={entry.name} {...resourceScreens(entry)} />
        ))}
        <CustomRoutes noLayout>{mounted.filter((page) => page.layout === false).map(pageRoute)}</CustomRoutes>
        <CustomRoutes>{mounted.filter((page) => page.layout !== false).map(pageRoute)}</CustomRoutes>
      </CoreAdminUI>
      <AppNotification />
    </AdminContext>
  );
};

/**
 * One screen at `path` in a test admin: the app's providers, i18n, theme, store, sign-in and notifications, with only
 * the resources and pages the test names; returns the render and a spy on the router's current location.
 */
export const renderScreen = (path: string, options: ScreenOptions = {}) => renderAt(path, <TestAdmin {...options} />);
