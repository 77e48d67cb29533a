import { lazyPage } from '../../components/lazyPage';

/** The e-mail defaults every message is wrapped in (needs `email_template`). */
export const path = '/email-header-footer';
export const permission = 'email_template';
export const EmailHeaderFooterPage = lazyPage(() => import('./EmailHeaderFooterPage'), 'EmailHeaderFooterPage');
