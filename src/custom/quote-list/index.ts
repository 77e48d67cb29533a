import { lazyPage } from '../../components/lazyPage';

/** The quotes list: permission `scan`; advance filter, export and row actions make it a page of its own. */
export const path = '/quotes';
export const permission = 'scan';
export const QuoteListPage = lazyPage(() => import('./QuoteListPage'), 'QuoteListPage');
