import { lazyPage, type PagePrefetch } from '../../components/lazyPage';
import { invoiceQuery, revisionOf } from './queries';

/** The estimate invoice ("Invoice", the quote's id): permission `scan`; no sidebar, printable. */
export const path = '/quotes/:quoteId/invoice';
export const permission = 'scan';
export const QuoteInvoicePage = lazyPage(() => import('./QuoteInvoicePage'), 'QuoteInvoicePage');

/** The quote the invoice shows, which its title and every line wait for. */
export const prefetch: PagePrefetch = ({ quoteId = '' }, { queryClient, dataProvider }) =>
  void queryClient.prefetchQuery(invoiceQuery(dataProvider, quoteId, revisionOf(new URLSearchParams(window.location.search))));
