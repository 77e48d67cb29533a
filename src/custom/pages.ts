import type { ComponentType } from 'react';
import type { PagePrefetch } from '../components/lazyPage';
import * as approval from './approval';
import * as customerPortal from './customer-portal';
import * as emailHeaderFooter from './email-header-footer';
import * as error403 from './error-403';
import * as errorPage from './error-page';
import * as forgotPassword from './forgot-password';
import * as quoteGeneration from './quote-generation';
import * as quoteInvoice from './quote-invoice';
import * as quoteList from './quote-list';
import * as resetPassword from './reset-password';
import * as scanList from './scan-list';
import * as scanPage from './scan-page';
import * as updateProfile from './update-profile';
import * as vehicleList from './vehicle-list';
import * as vehiclePage from './vehicle-page';

/**
 * A bespoke page's route, as the app mounts it: behind `permission` when it has one, and inside the signed-in
 * layout unless `layout` is false (the public pages, the kiosk portal and the printable invoice).
 */
export interface PageEntry {
  path: string;
  permission?: string;
  Page: ComponentType;
  layout?: boolean;
  /**
   * Asks for the data the page shows first, into the app's query cache, when the app starts at the page's address
   * for a signed-in user (src/main.tsx): beside the code's download instead of after the page's first render.
   */
  prefetch?: PagePrefetch;
}

/** The bespoke pages under src/custom, in route order. */
export const pages: PageEntry[] = [
  { path: forgotPassword.path, Page: forgotPassword.ForgotPasswordPage, layout: false },
  { path: resetPassword.path, Page: resetPassword.ResetPasswordPage, layout: false },
  { path: error403.path, Page: error403.AccessDeniedPage, layout: false },
  { path: errorPage.path, Page: errorPage.NotFoundPage, layout: false },
  { path: customerPortal.path, Page: customerPortal.CustomerPortalPage, layout: false },
  // The customer's approval link: the token alone opens it.
  { path: approval.path, Page: approval.ApprovalPage, layout: false },
  { path: customerPortal.scanPath, Page: customerPortal.CustomerPortalPage, layout: false },
  // The invoice hides the sidebar; the page signs in and checks the permission itself.
  {
    path: quoteInvoice.path,
    permission: quoteInvoice.permission,
    Page: quoteInvoice.QuoteInvoicePage,
    layout: false,
    prefetch: quoteInvoice.prefetch,
  },
  { path: updateProfile.path, permission: updateProfile.permission, Page: updateProfile.UpdateProfilePage },
  { path: emailHeaderFooter.path, permission: emailHeaderFooter.permission, Page: emailHeaderFooter.EmailHeaderFooterPage },
  { path: scanList.path, permission: scanList.permission, Page: scanList.ScanListPage },
  { path: scanPage.path, permission: scanPage.permission, Page: scanPage.ScanPage, prefetch: scanPage.prefetch },
  { path: quoteList.path, permission: quoteList.permission, Page: quoteList.QuoteListPage },
  { path: quoteGeneration.path, permission: quoteGeneration.permission, Page: quoteGeneration.QuoteGenerationPage },
  { path: quoteGeneration.agentPath, permission: quoteGeneration.permission, Page: quoteGeneration.QuoteGenerationPage },
  { path: scanPage.agentPath, permission: scanPage.permission, Page: scanPage.ScanPage, prefetch: scanPage.prefetch },
  { path: vehicleList.path, permission: vehicleList.permission, Page: vehicleList.VehicleListPage },
  { path: vehiclePage.path, permission: vehiclePage.permission, Page: vehiclePage.VehiclePage },
];
