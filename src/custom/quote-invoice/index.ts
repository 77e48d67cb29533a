import type { QueryClient } from '@tanstack/react-query';
import type { Params } from 'react-router-dom';
import { lazyPage } from '../../components/lazyPage';
import type { AppDataProvider } from '../../dataProvider';
import { invoiceQuery, revisionOf } from './queries';

/** The estimate invoice ("Invoice", the quote's id): permission `scan`; no sidebar, printable. */
export const path = '/quotes/:quoteId/invoice';
export const permission = 'scan';
export const QuoteInvoicePage = lazyPage(() => import('./QuoteInvoicePage'), 'QuoteInvoicePage');

/** The quote the invoice shows, which its title and every line wait for. */
export const prefetch = (
  { quoteId = '' }: Params,
  { queryClient, dataProvider }: { queryClient: QueryClient; dataProvider: AppDataProvider },
) => void queryClient.prefetchQuery(invoiceQuery(dataProvider, quoteId, revisionOf(new URLSearchParams(window.location.search))));
