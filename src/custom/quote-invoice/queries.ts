import { queryOptions } from '@tanstack/react-query';
import type { AppDataProvider } from '../../dataProvider';

/** `?revision=n`: that revision as it was sent (its frozen copy); none (or not a number): the quote as it is. */
export const revisionOf = (search: URLSearchParams) => {
  const value = search.get('revision');
  return value !== null && /^\d{1,6}$/.test(value) ? Number(value) : undefined;
};

/**
 * The quote the invoice shows (`GET quote/quotes/{id}`, or its revision). Not asked again for 10 s after it arrives:
 * the page mounting just after the app's start asked for it (src/main.tsx) reads that reply.
 */
export const invoiceQuery = (dataProvider: AppDataProvider, quoteId: string, revision: number | undefined) =>
  queryOptions({
    queryKey: ['quotes', 'getOne', quoteId, revision],
    queryFn: () => dataProvider.quoteInvoice(quoteId, revision),
    retry: false,
    staleTime: 10_000,
  });

/**
 * A supplement's changes since the revision sent before it (`GET quote/quotes/{id}/revisions?revision=n`), asked again
 * once the quote has been saved since (`savedAt`).
 */
export const changesQuery = (dataProvider: AppDataProvider, quoteId: string, revision: number, savedAt: unknown) =>
  queryOptions({
    queryKey: ['quoteRevisions', quoteId, 'changes', revision, String(savedAt)],
    queryFn: () => dataProvider.quoteRevisions(quoteId, revision),
    select: (data) => data.delta,
    retry: false,
    staleTime: 10_000,
  });
