import { lazyPage } from '../../components/lazyPage';

/**
 * The customer portal (spec 1 §2, DECISIONS): no sign-in and no layout, like a kiosk at the agent's site. An enrolled
 * portal asks this browser once for the agent's pincode and keeps the kiosk token it gets (30 days).
 */
export const path = '/customer-portal/:agentId';
export const CustomerPortalPage = lazyPage(() => import('./CustomerPortalPage'), 'CustomerPortalPage');
