import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { buildInvoice, invoiceSourceOfQuote, invoiceTexts } from '../../domain/invoice';
import { invoiceQuoteOfRecord } from '../../domain/quote-wire';
import { aUser } from '../../test/builders';
import { sampleQuoteRecord } from '../../test/invoiceSample';
import { renderScreen } from '../../test/renderScreen';
import { QueryClient } from '@tanstack/react-query';
import { dataProvider } from '../../providers';
import { path, prefetch } from '.';
import { callsTo, stubApi, type Reply } from '../../test/stubFetch';

/** The invoice alone in a test admin. */
const renderInvoice = (at: string) => renderScreen(at, { pages: [path] });

function signedIn(answer: (request: string) => Reply | undefined, permissions = ['scan']) {
  const user = aUser({ permissions, roles: ['Super Admin'], agents: [], clients: [] });
  localStorage.setItem('currentUser', JSON.stringify(user));
  return stubApi((request) => {
    if (request === 'GET /api/user/auth/user') return { body: { data: user } };
    return answer(request);
  });
}

const quoteReply =
  (record = sampleQuoteRecord()) =>
  (request: string) =>
    request === `GET /api/quote/quotes/${record.id}` ? { body: { data: record } } : undefined;

const rowTexts = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((r) =>
      within(r)
        .queryAllByRole('cell')
        .concat(within(r).queryAllByRole('rowheader'))
        .map((c) => c.textContent),
    );

// The whole app renders lazily per test: slow on a busy 2-core machine.
describe('invoice screen', { timeout: 30_000 }, () => {
  it('shows the saved quote as its invoice: ESTIMATE #, agent block, vehicle, sections, products, parts, totals', async () => {
    const fetch = signedIn(quoteReply());
    renderInvoice('/quotes/42/invoice');
    expect(await screen.findByRole('heading', { level: 1, name: 'ESTIMATE # 42' })).toBeTruthy();
    expect(fetch.mock.calls.map(([url]) => url)).toContain('/api/quote/quotes/42');
    // No app chrome: no menu.
    expect(screen.queryByRole('navigation')).toBeNull();

    // The agent's logo, phone and ABN grouped 4-3-3.
    expect(screen.getByRole('img', { name: 'Dent Doctors logo' }).getAttribute('src')).toBe('/api/user/files/logo.png');
    const agent = screen.getByRole('region', { name: 'Agent' });
    expect(within(agent).getByText('0412 345 678')).toBeTruthy();
    expect(within(agent).getByText('5182 446 0393')).toBeTruthy();
    const vehicle = screen.getByRole('region', { name: 'Vehicle' });
    expect(within(vehicle).getByText('ABC123')).toBeTruthy();
    expect(within(vehicle).getByText('20-11-2026 02:15 PM')).toBeTruthy();

    // Each section's lines and total, with the surcharge columns of the toggles that are on.
    const pdr = screen.getByRole('region', { name: 'PDR' });
    expect(
      within(pdr)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Panel', 'Description', 'Repair', 'Aluminium', 'Metallic', 'Amount']);
    expect(rowTexts(within(pdr).getByRole('table')).slice(1)).toEqual([
      ['BonnetHeavy', 'Heavy', '$200.00', '$25.00', '$20.00', '$245.00'],
      ['Right Rear DoorLight', 'Light', '$100.00', '$12.50', '$10.00', '$122.50'],
      ['PDR Total', '', '$367.50'],
    ]);
    // Scratch work in its own section, never under Replace.
    const replace = screen.getByRole('region', { name: 'Replace' });
    expect(within(replace).queryByText('Scratch (Paint)', { selector: 'td' })).toBeNull();
    const paint = screen.getByRole('region', { name: 'Scratch / Paint' });
    expect(within(paint).getByText('Scratch (Paint)', { selector: 'td' })).toBeTruthy();
    expect(within(paint).getAllByText('$242.28').length).toBeGreaterThan(0);
    // The agent's tyre choices, the recheck as an advisory line under its tyre; a wheel bears no surcharge.
    const tyres = screen.getByRole('region', { name: 'Tyres' });
    expect(
      within(tyres)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Wheel', 'Description', 'Repair', 'Amount']);
    expect(within(tyres).getByText('Recheck Next Visit', { selector: 'td' })).toBeTruthy();
    expect(within(tyres).getAllByText('$189.90').length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { name: 'Products' })).toBeTruthy();
    expect(screen.getByText('Paint protection')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Parts' })).toBeTruthy();
    expect(screen.getByText('Emblem')).toBeTruthy();

    const totals = screen.getByRole('region', { name: 'Totals' });
    expect(rowTexts(within(totals).getByRole('table'))).toEqual([
      ['$367.50', 'PDR Total'],
      ['$861.86', 'Conventional Total'],
      ['$98.00', 'Push to Paint Total'],
      ['$1,470.00', 'Replace Total'],
      ['$242.28', 'Scratch / Paint Total'],
      ['$224.90', 'Tyres Total'],
      ['$149.95', 'Products Total'],
      ['$3,414.49', 'Sub Total'],
      ['$341.45', 'GST 10 %'],
      ['$3,755.94', 'Grand Total'],
    ]);
    expect(within(totals).getByRole('heading', { name: 'Totals' })).toBeTruthy();
  });

  it("reads the quote asked for at the app's start, without asking again", async () => {
    const fetch = signedIn(quoteReply());
    const queryClient = new QueryClient();
    prefetch({ quoteId: '42' }, { queryClient, dataProvider });
    expect(callsTo(fetch, '/api/quote/')).toEqual(['/api/quote/quotes/42']);
    renderScreen('/quotes/42/invoice', { pages: [path], queryClient });
    expect(await screen.findByRole('heading', { level: 1, name: 'ESTIMATE # 42' })).toBeTruthy();
    expect(callsTo(fetch, '/api/quote/')).toEqual(['/api/quote/quotes/42']);
  });

  it("shows the body type, the vehicle photo, the assessor's comments and the GST rate", async () => {
    signedIn(quoteReply());
    renderInvoice('/quotes/42/invoice');
    await screen.findByRole('heading', { level: 1, name: 'ESTIMATE # 42' });
    const vehicle = screen.getByRole('region', { name: 'Vehicle' });
    expect(within(vehicle).getByText('Body Type')).toBeTruthy();
    expect(within(vehicle).getByText('Sedan')).toBeTruthy();
    const photo = screen.getByRole('region', { name: 'Vehicle Photo' });
    expect(within(photo).getByRole('img', { name: 'Vehicle Photo' }).getAttribute('src')).toBe('/api/user/files/photo.jpg');
    const comments = screen.getByRole('region', { name: 'Comments' });
    expect(comments.textContent).toContain('Hail damage on the roof and bonnet.');
    expect(comments.textContent).toContain('Customer to bring the car back on Monday.');
    expect(within(screen.getByRole('region', { name: 'Totals' })).getByRole('rowheader', { name: 'GST 10 %' })).toBeTruthy();
  });

  it('leaves the photo out when it cannot be loaded, and the comments when there are none', async () => {
    signedIn(quoteReply(sampleQuoteRecord({ assessor_comments: null })));
    renderInvoice('/quotes/42/invoice');
    fireEvent.error(await screen.findByRole('img', { name: 'Vehicle Photo' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Vehicle Photo' })).toBeNull());
    expect(screen.queryByRole('region', { name: 'Comments' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Totals' })).toBeTruthy();
  });

  it('prints every text of the invoice model, so it matches the PDF line for line', async () => {
    signedIn(quoteReply());
    renderInvoice('/quotes/42/invoice');
    await screen.findByRole('heading', { level: 1, name: 'ESTIMATE # 42' });
    const page = document.body.textContent ?? '';
    const invoice = buildInvoice(invoiceSourceOfQuote(invoiceQuoteOfRecord(sampleQuoteRecord()), 'en'));
    for (const text of invoiceTexts(invoice).filter((t) => t && !['Pearl'].includes(t))) expect(page, text).toContain(text);
  });

  it("shows the agent's name when the logo cannot be loaded", async () => {
    signedIn(quoteReply());
    renderInvoice('/quotes/42/invoice');
    const logo = await screen.findByRole('img', { name: 'Dent Doctors logo' });
    fireEvent.error(logo);
    const agent = screen.getByRole('region', { name: 'Agent' });
    await waitFor(() => expect(within(agent).getByText('Dent Doctors')).toBeTruthy());
    expect(screen.queryByRole('img', { name: 'Dent Doctors logo' })).toBeNull();
  });

  it('says a supplement is one above its estimate and lists its changes as its PDF does; the first estimate says nothing', async () => {
    const delta = {
      since: 1,
      added: [{ key: 'dent:9', label: 'Roof', repair_type: 'pdr', category: 'light', amount: 120 }],
      removed: [],
      changed: [
        {
          key: 'dent:1',
          label: 'Bonnet',
          before: { repair_type: 'pdr', category: 'heavy', amount: 200 },
          after: { repair_type: 'conventional', category: null, amount: 450.5 },
          difference: 250.5,
        },
      ],
      total: { before: 1000, after: 1370.5, difference: 370.5 },
    };
    const fetch = signedIn((request) =>
      request === 'GET /api/quote/quotes/42/revisions?revision=2'
        ? { body: { data: { current: 2, revisions: [], delta } } }
        : quoteReply({ ...sampleQuoteRecord(), revision: 2 })(request.replace('?revision=2', '')),
    );
    const view = renderInvoice('/quotes/42/invoice');
    await screen.findByRole('heading', { level: 1, name: 'ESTIMATE # 42' });
    expect(screen.getByText('Supplement S2')).toBeTruthy();
    const changes = screen.getByRole('region', { name: 'Supplement S2 — changes since S1' });
    expect(rowTexts(within(changes).getByRole('table'))).toEqual([
      [],
      ['Roof', 'Added: PDR (Light)', '+$120.00'],
      ['Bonnet', 'Changed: PDR (Heavy) $200.00 to Conventional $450.50', '+$250.50'],
      ['Grand total', '$1,000.00 to $1,370.50 (+$370.50)'],
    ]);
    // Its changes come before its lines, as on the PDF.
    const pdr = screen.getByRole('region', { name: 'PDR' });
    expect(changes.compareDocumentPosition(pdr) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    view.unmount();
    // A past supplement asked for by the address lists its own changes.
    fetch.mockClear();
    renderInvoice('/quotes/42/invoice?revision=2');
    await screen.findByRole('heading', { level: 1, name: 'ESTIMATE # 42' });
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(
      expect.arrayContaining(['/api/quote/quotes/42?revision=2', '/api/quote/quotes/42/revisions?revision=2']),
    );
    expect(screen.getByRole('region', { name: 'Supplement S2 — changes since S1' })).toBeTruthy();
    cleanup();
    signedIn(quoteReply({ ...sampleQuoteRecord(), revision: 0 }));
    renderInvoice('/quotes/42/invoice');
    await screen.findByRole('heading', { level: 1, name: 'ESTIMATE # 42' });
    expect(screen.queryByText(/Supplement S/)).toBeNull();
    expect(screen.queryByText('Original estimate')).toBeNull();
  });

  it('prints with the Print button', async () => {
    signedIn(quoteReply());
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    renderInvoice('/quotes/42/invoice');
    await screen.findByRole('heading', { level: 1, name: 'ESTIMATE # 42' });
    fireEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it("says 'Quote Not Found' and goes to the list for a missing quote", async () => {
    signedIn((request) =>
      request === 'GET /api/quote/quotes/999' ? { status: 404, body: { error: 'No query results for model [Quote] 999' } } : undefined,
    );
    const { location } = renderInvoice('/quotes/999/invoice');
    expect(await screen.findByText('Quote Not Found')).toBeTruthy();
    await waitFor(() => expect(location.pathname).toBe('/quotes'));
  });

  it('is refused without the scan permission', async () => {
    const fetch = signedIn(quoteReply(), ['user']);
    const { location } = renderInvoice('/quotes/42/invoice');
    await waitFor(() => expect(location.pathname).toBe('/'));
    expect(fetch.mock.calls.map(([url]) => url)).not.toContain('/api/quote/quotes/42');
  });
  // Last: the app's translator keeps the language for the rest of the file.
  it('labels the invoice in Japanese in the Japanese interface', async () => {
    localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify('ja'));
    signedIn(quoteReply(sampleQuoteRecord({ currency: '¥' })));
    renderInvoice('/quotes/42/invoice');
    expect(await screen.findByRole('heading', { level: 1, name: '見積書 # 42' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '印刷' })).toBeTruthy();
    const pdr = screen.getByRole('region', { name: 'PDR（デントリペア）' });
    expect(within(pdr).getByText('重度', { selector: 'td' })).toBeTruthy();
    const totals = screen.getByRole('region', { name: '合計' });
    expect(within(totals).getByRole('rowheader', { name: '総合計' })).toBeTruthy();
    expect(within(totals).getByText('¥3,755.94')).toBeTruthy();
    expect(within(totals).getByRole('rowheader', { name: 'GST 10 %' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'コメント' })).toBeTruthy();
    expect(within(screen.getByRole('region', { name: '車両写真' })).getByRole('img', { name: '車両写真' })).toBeTruthy();
    expect(within(screen.getByRole('region', { name: '車両' })).getByText('ボディタイプ')).toBeTruthy();
    expect(screen.getByRole('region', { name: '傷 / 塗装' })).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'タイヤ' })).getByText('右後輪')).toBeTruthy();
    expect(screen.getByText('2026-11-20 午後 02:15')).toBeTruthy();
  });
});
