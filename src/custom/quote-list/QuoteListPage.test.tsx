import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AppNotification } from '../../components/AppNotification';
import { liveSubscribers } from '../../test/handHeldRealtime';
import { renderListScreen } from '../../test/renderListScreen';
import { callsTo, signedInLister, type stubApi } from '../../test/stubFetch';
import { QuoteListPage } from './QuoteListPage';

// The live connection is replaced by a hand-held one: tests play the server's events through it.
vi.mock('../../realtime/instance', () => import('../../test/handHeldRealtime'));

const quote = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  scan_id: 100 + id,
  created_at: '2024-05-31T07:30:00.000Z',
  licensePlate: `PLATE${id}`,
  pdr: 200,
  conventional: 0,
  replacement: 900,
  p2p: 0,
  paint: 85.5,
  tyre: 189.9,
  product: 89,
  tax_percent: 10,
  grant_total: 1307.9,
  currency: '$',
  pdf: null,
  status: 'sent',
  ...over,
});

const signedIn = signedInLister;
const listCalls = (fetch: ReturnType<typeof stubApi>) => callsTo(fetch, '/api/quote/quotes?');

describe('quotes list', () => {
  it("asks for today to two days later, shows the product's columns in the quote's currency and the row actions", async () => {
    const fetch = signedIn((request) =>
      request.startsWith('GET /api/quote/quotes?')
        ? { body: { items: [quote(1, { pdf: '/api/user/files/q1.pdf' }), quote(2, { currency: '€', grant_total: 5 })], total: 2 } }
        : undefined,
    );
    await renderListScreen('/quotes', <QuoteListPage />);
    expect(await screen.findByText('PLATE1')).toBeTruthy();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual([
      'Created',
      'Registration',
      'Status',
      'PDR',
      'Conventional',
      'Replacement',
      'P2P',
      'Scratch / Paint',
      'Tyres',
      'Product',
      'GST',
      'Grand Total',
      'Action',
    ]);
    const query = new URL(listCalls(fetch)[0], 'http://x').searchParams;
    expect(query.get('ts')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Date.parse(query.get('te')!) - Date.parse(query.get('ts')!)).toBe(2 * 86_400_000);
    expect(screen.getByText('1 filter applied')).toBeTruthy();

    const [first, second] = screen.getAllByRole('row').slice(1);
    expect(within(first).getByText('31-05-2024 05:30 PM')).toBeTruthy();
    expect(within(first).getByText('$1,307.90')).toBeTruthy();
    // Scratch / Paint and Tyres as columns of their own.
    expect(within(first).getByText('$85.50')).toBeTruthy();
    expect(within(first).getByText('$189.90')).toBeTruthy();
    expect(within(first).getByText('10%')).toBeTruthy();
    expect(within(second).getByText('€5.00')).toBeTruthy();
    // PDF only when the quote has one; invoice by the quote's id; edit by its scan.
    expect(within(first).getByRole('button', { name: 'Download PDF' })).toBeTruthy();
    expect(within(second).queryByRole('button', { name: 'Download PDF' })).toBeNull();
    expect(within(first).getByRole('link', { name: 'View Invoice' }).getAttribute('href')).toBe('/quotes/1/invoice');
    expect(within(first).getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/quotes/101');

    fireEvent.click(screen.getByRole('button', { name: 'Sort by Grand Total ascending' }));
    await waitFor(() => expect(screen.getAllByRole('row')[1].textContent).toContain('PLATE2'));
  });

  it('offers a Client user (scan without quote_edit) the PDF, the invoice and a view of the quote, never delete', async () => {
    signedIn(
      (request) =>
        request.startsWith('GET /api/quote/quotes?')
          ? { body: { items: [quote(1, { pdf: '/api/user/files/q1.pdf' })], total: 1 } }
          : undefined,
      { roles: ['Client'], clients: [3], permissions: ['scan', 'dashboard_statistics'] },
    );
    await renderListScreen('/quotes', <QuoteListPage />);
    const row = (await screen.findByText('PLATE1')).closest('tr')!;
    expect(within(row).getByText('Sent')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Download PDF' })).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'View Invoice' }).getAttribute('href')).toBe('/quotes/1/invoice');
    expect(within(row).getByRole('link', { name: 'View Quote' }).getAttribute('href')).toBe('/quotes/101');
    expect(within(row).queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('deletes after the confirmation and reloads; Reset drops the default range', async () => {
    let deleted = false;
    const fetch = signedIn((request) => {
      if (request === 'DELETE /api/quote/quotes/1') {
        deleted = true;
        return { body: { data: quote(1) } };
      }
      if (request.startsWith('GET /api/quote/quotes?'))
        return { body: { items: deleted ? [quote(2)] : [quote(1), quote(2)], total: deleted ? 1 : 2 } };
      return undefined;
    });
    await renderListScreen('/quotes', <QuoteListPage />);
    const row = (await screen.findByText('PLATE1')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('are you sure ?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete it!' }));
    await waitFor(() => expect(screen.queryByText('PLATE1')).toBeNull());
    expect(screen.getByText('PLATE2')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /^Expand to Filter/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Reset' }));
    await waitFor(() => {
      const last = new URL(listCalls(fetch).at(-1)!, 'http://x').searchParams;
      expect(last.get('ts')).toBeNull();
      expect(last.get('te')).toBeNull();
    });
  });

  it("follows a quote's status changed elsewhere: the page is asked for again, once for a burst of events", async () => {
    let status = 'sent';
    const fetch = signedIn((request) =>
      request.startsWith('GET /api/quote/quotes?') ? { body: { items: [quote(1, { status })], total: 1 } } : undefined,
    );
    await renderListScreen('/quotes', <QuoteListPage />);
    expect(await screen.findByText('Sent')).toBeTruthy();
    const before = listCalls(fetch).length;
    // A scan's own change (no quote in it) asks for nothing.
    act(() => liveSubscribers.forEach((h) => h.updated?.({ id: 101, status: 'uploaded' })));
    status = 'approved';
    act(() =>
      liveSubscribers.forEach((h) => {
        h.updated?.({ id: 101, quote_id: 1, quote_status: 'viewed' });
        h.updated?.({ id: 101, quote_id: 1, quote_status: 'approved' });
      }),
    );
    expect(await screen.findByText('Approved', undefined, { timeout: 5000 })).toBeTruthy();
    expect(listCalls(fetch).length).toBe(before + 1);
  });

  it('downloads a PDF by its link, and after the link has expired (a list left open) by a fresh one read with the quote', async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      const href = new URL(this.href);
      clicked.push(`${href.pathname}${href.search}`);
    });
    const now = Math.floor(Date.now() / 1000);
    const link = (id: number, expires: number) => `/api/user/files/q${id}.pdf?expires=${expires}&uid=1&sig=abc`;
    // Signed just now; signed over half an hour ago (a list left open); the same, for a quote whose PDF has gone since.
    const rows = [quote(1, { pdf: link(1, now + 1800) }), quote(2, { pdf: link(2, now - 5) }), quote(3, { pdf: link(3, now + 30) })];
    const fetch = signedIn((request) => {
      if (request.startsWith('GET /api/quote/quotes?')) return { body: { items: rows, total: 3 } };
      if (request === 'GET /api/quote/quotes/2') return { body: { data: quote(2, { pdf: link(2, now + 1800) }) } };
      if (request === 'GET /api/quote/quotes/3') return { body: { data: quote(3, { pdf: null }) } };
      return undefined;
    });
    await renderListScreen(
      '/quotes',
      <>
        <QuoteListPage />
        <AppNotification />
      </>,
    );
    const pdfOf = async (plate: string) =>
      within((await screen.findByText(plate)).closest('tr')!).getByRole('button', { name: 'Download PDF' });
    fireEvent.click(await pdfOf('PLATE1'));
    await waitFor(() => expect(clicked).toEqual([`${link(1, now + 1800)}&download=quote.pdf`]));
    expect(callsTo(fetch, '/api/quote/quotes/')).toEqual([]);

    fireEvent.click(await pdfOf('PLATE2'));
    await waitFor(() => expect(clicked).toHaveLength(2));
    expect(callsTo(fetch, '/api/quote/quotes/')).toEqual(['/api/quote/quotes/2']);
    expect(clicked[1]).toBe(`${link(2, now + 1800)}&download=quote.pdf`);

    // Within the minute's margin counts as expired; a quote whose PDF is gone says so instead of failing unseen.
    fireEvent.click(await pdfOf('PLATE3'));
    expect(await screen.findByText('This quote no longer has a PDF.')).toBeTruthy();
    expect(clicked).toHaveLength(2);
  });
});
