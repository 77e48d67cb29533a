import { CssBaseline } from '@mui/material';
import { AdminContext, CoreAdminUI, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { authProvider } from './authProvider';
import { AppNotification } from './components/AppNotification';
import { PageLoading } from './components/PageLoading';
import { RedirectHome, RequirePermission } from './components/RequirePermission';
import * as customerPortal from './custom/customer-portal';
import * as dashboard from './custom/dashboard';
import * as emailHeaderFooter from './custom/email-header-footer';
import * as error403 from './custom/error-403';
import * as errorPage from './custom/error-page';
import * as forgotPassword from './custom/forgot-password';
import { AppLayout } from './custom/layout';
import * as login from './custom/login';
import * as quoteGeneration from './custom/quote-generation';
import * as quoteInvoice from './custom/quote-invoice';
import * as quoteList from './custom/quote-list';
import * as resetPassword from './custom/reset-password';
import * as scanList from './custom/scan-list';
import * as scanPage from './custom/scan-page';
import * as updateProfile from './custom/update-profile';
import { dataProvider } from './dataProvider';
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
        <Route path={forgotPassword.path} element={<forgotPassword.ForgotPasswordPage />} />
        <Route path={resetPassword.path} element={<resetPassword.ResetPasswordPage />} />
        <Route path={error403.path} element={<error403.AccessDeniedPage />} />
        <Route path={errorPage.path} element={<errorPage.NotFoundPage />} />
        <Route path={customerPortal.path} element={<customerPortal.CustomerPortalPage />} />
        <Route path={customerPortal.scanPath} element={<customerPortal.CustomerPortalPage />} />
        {/* The invoice hides the sidebar; the page signs in and checks the permission itself. */}
        <Route
          path={quoteInvoice.path}
          element={
            <RequirePermission permission={quoteInvoice.permission}>
              <quoteInvoice.QuoteInvoicePage />
            </RequirePermission>
          }
        />
        <Route path="/home" element={<RedirectHome />} />
        <Route path="/dashboard" element={<RedirectHome />} />
      </CustomRoutes>
      <CustomRoutes>
        <Route
          path={updateProfile.path}
          element={
            <RequirePermission permission={updateProfile.permission}>
              <updateProfile.UpdateProfilePage />
            </RequirePermission>
          }
        />
        <Route
          path={emailHeaderFooter.path}
          element={
            <RequirePermission permission={emailHeaderFooter.permission}>
              <emailHeaderFooter.EmailHeaderFooterPage />
            </RequirePermission>
          }
        />
        <Route
          path={scanList.path}
          element={
            <RequirePermission permission={scanList.permission}>
              <scanList.ScanListPage />
            </RequirePermission>
          }
        />
        <Route
          path={scanPage.path}
          element={
            <RequirePermission permission={scanPage.permission}>
              <scanPage.ScanPage />
            </RequirePermission>
          }
        />
        <Route
          path={quoteList.path}
          element={
            <RequirePermission permission={quoteList.permission}>
              <quoteList.QuoteListPage />
            </RequirePermission>
          }
        />
        {[quoteGeneration.path, quoteGeneration.agentPath].map((path) => (
          <Route
            key={path}
            path={path}
            element={
              <RequirePermission permission={quoteGeneration.permission}>
                <quoteGeneration.QuoteGenerationPage />
              </RequirePermission>
            }
          />
        ))}
        <Route
          path={scanPage.agentPath}
          element={
            <RequirePermission permission={scanPage.permission}>
              <scanPage.ScanPage />
            </RequirePermission>
          }
        />
      </CustomRoutes>
    </CoreAdminUI>
    <AppNotification />
  </AdminContext>
);
