import { CssBaseline } from '@mui/material';
import { AdminContext, CoreAdminUI, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { AppNotification } from './components/AppNotification';
import { PageLoading } from './components/PageLoading';
import { RedirectHome } from './components/RequirePermission';
import * as dashboard from './custom/dashboard';
import { AppLayout } from './custom/layout';
import * as login from './custom/login';
import { pageRoute } from './custom/pageRoute';
import { pages } from './custom/pages';
import { authProvider, dataProvider } from './providers';
import { i18nProvider } from './i18n/i18nProvider';
import { resourceEntries } from './resources/registry';
import { resourceScreens } from './resources/shared';
import { store } from './store';
import { useAppTheme } from './theme';

/**
 * react-admin's <Admin> split in its two halves: <Admin> would also bundle the default layout,
 * login and error pages into the first download, and the sign-in page must stay light.
 */
export const App = () => (
  <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} store={store} theme={useAppTheme()}>
    <CssBaseline enableColorScheme />
    <CoreAdminUI
      title="ScanQuote"
      layout={AppLayout}
      loginPage={login.LoginPage}
      dashboard={dashboard.DashboardPage}
      loading={PageLoading}
      catchAll={RedirectHome}
      accessDenied={RedirectHome}
      requireAuth
      disableTelemetry
    >
      {resourceEntries.map((entry) => (
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
