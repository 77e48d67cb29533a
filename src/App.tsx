import { CssBaseline } from '@mui/material';
import type { QueryClient } from '@tanstack/react-query';
import { AdminContext, CoreAdminUI, CustomRoutes, Resource, type DashboardComponent, type LayoutComponent } from 'react-admin';
import { Route } from 'react-router-dom';
import { AppNotification } from './components/AppNotification';
import { PageLoading } from './components/PageLoading';
import { RedirectHome, RequirePermission } from './components/RequirePermission';
import * as dashboard from './custom/dashboard';
import { AppLayout } from './custom/layout';
import * as login from './custom/login';
import { pages, type PageEntry } from './custom/pages';
import { authProvider, dataProvider } from './providers';
import { i18nProvider } from './i18n/i18nProvider';
import { queryClient } from './queryClient';
import { resourceEntries, type ResourceEntry } from './resources/registry';
import { resourceScreens } from './resources/shared';
import { store } from './store';
import { useAppTheme } from './theme';

const pageRoute = ({ path, permission, Page }: PageEntry) => (
  <Route
    key={path}
    path={path}
    element={
      permission ? (
        <RequirePermission permission={permission}>
          <Page />
        </RequirePermission>
      ) : (
        <Page />
      )
    }
  />
);

/** What an admin mounts: the app passes all of it; a screen's test passes the one resource or page under test. */
export interface AdminParts {
  resources: ResourceEntry[];
  pages: PageEntry[];
  layout: LayoutComponent;
  dashboard: DashboardComponent;
  /** The app's query cache (src/queryClient.ts); a screen's test gets a fresh one from react-admin. */
  queryClient?: QueryClient;
}

/**
 * react-admin's <Admin> split in its two halves: <Admin> would also bundle the default layout,
 * login and error pages into the first download, and the sign-in page must stay light.
 */
export const AdminApp = ({ resources, pages, layout, dashboard, queryClient }: AdminParts) => (
  <AdminContext
    dataProvider={dataProvider}
    authProvider={authProvider}
    i18nProvider={i18nProvider}
    store={store}
    theme={useAppTheme()}
    queryClient={queryClient}
  >
    <CssBaseline enableColorScheme />
    <CoreAdminUI
      title="ScanQuote"
      layout={layout}
      loginPage={login.LoginPage}
      dashboard={dashboard}
      loading={PageLoading}
      catchAll={RedirectHome}
      accessDenied={RedirectHome}
      requireAuth
      disableTelemetry
    >
      {resources.map((entry) => (
        <Resource key={entry.name} {...resourceScreens(entry)} />
      ))}
      <CustomRoutes noLayout>
        {pages.filter((page) => page.layout === false).map(pageRoute)}
        <Route path="/home" element={<RedirectHome />} />
        <Route path="/dashboard" element={<RedirectHome />} />
      </CustomRoutes>
      <CustomRoutes>{pages.filter((page) => page.layout !== false).map(pageRoute)}</CustomRoutes>
    </CoreAdminUI>
    <AppNotification />
  </AdminContext>
);

export const App = () => (
  <AdminApp resources={resourceEntries} pages={pages} layout={AppLayout} dashboard={dashboard.DashboardPage} queryClient={queryClient} />
);
