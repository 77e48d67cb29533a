import { lazyPage } from '../../components/lazyPage';

/**
 * The customer portal (docs/portal.md): no sign-in and no layout, like a kiosk at the agent's
 * site. An enrolled portal asks this browser once for the agent's pincode and keeps the kiosk token it gets (30 days).
 * Without a scan id it lists the agent's new and completed scans; with one it shows that scan read-only.
 */
export const path = '/customer-portal/:agentId';
export const scanPath = '/customer-portal/:agentId/:scanId';
export const CustomerPortalPage = lazyPage(() => import('./CustomerPortalPage'), 'CustomerPortalPage');
