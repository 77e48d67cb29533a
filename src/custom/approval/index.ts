import { lazyPage } from '../../components/lazyPage';

/**
 * The public approval page (docs/browser.md): no sign-in and no layout. The link's token alone opens the estimate,
 * which the customer approves or declines line by line, accepts the terms and signs.
 */
export const path = '/approve/:token';
export const ApprovalPage = lazyPage(() => import('./ApprovalPage'), 'ApprovalPage');
