import { lazyPage } from '../../components/lazyPage';

/** The estimate invoice ("Invoice", the quote's id): permission `scan`; no sidebar, printable. */
export const path = '/quotes/:quoteId/invoice';
export const permission = 'scan';
export const QuoteInvoicePage = lazyPage(() => import('./QuoteInvoicePage'), 'QuoteInvoicePage');
