import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CurrentUser } from '../../session';
import { anEvaluationClient, aUser } from '../../test/builders';
import { renderScreen } from '../../test/renderScreen';
import * as invoice from '../quote-invoice';
import { agentPath, path } from '.';
import { stubApi, type Reply } from '../../test/stubFetch';

// The server's replies in the wire contract's shape: the evaluation of scan 42 for a client with one
// priced part (7), a damaged bonnet, an undamaged roof and a large-variant panel shown only for Lg vehicles.
const LEVELS = { light: 0, medium: 0, heavy: 0, severe: 0, oversize: 0 };
const panel = (id: number, group: number, label: string, car_panel: string, over: Record<string, unknown> = {}) => ({
  id,
  name: label,
  label,
  car_panel,
  type: 'D',
  hasLargeVariant: false,
  part_id: 7,
  panel_group_id: group,
  panel_group_name: null,
  position: id,
  thresholdCategory: null,
  ...over,
});
const evaluation = {
  measures: {
    dents: { bonnet: { ...LEVELS, light: 2, heavy: 1 } },
    scratchs: {},
    damage_count: { dents: { bonnet: 3 }, scratchs: {} },
  },
  client: anEvaluationClient({
    products: [11, 12],
    parts: [21],
    prices: {
      dent: {
        '7': {
          light: 100,
          medium: 150,
          heavy: 200,
          severe: 250,
          oversize: 300,
          p2p: 80,
          aluminium: 10,
          conventional: 400,
          replacement: 900,
        },
      },
      scratch: {},
    },
    thresholdCategory: { bonnet: 'heavy' },
  }),
  panels: [
    panel(1, 1, 'Bonnet', 'bonnet', { thresholdCategory: 'heavy' }),
    panel(2, 5, 'Roof', 'roof'),
    panel(3, 5, 'Roof (Large)', 'roof_l', { type: 'L', hasLargeVariant: true }),
    // The same car panel in a second car view: priced once, shown once.
    panel(4, 5, 'Bonnet (Top view)', 'bonnet', { thresholdCategory: 'heavy' }),
  ],
  scanInfo: {
    id: 42,
    scan_id: 's-42',
    type: 'arch',
    licensePlate: '1AB2CD',
    timestamp: '2024-05-31T07:30:00.000Z',
    agent_id: 1,
    agent_name: 'Melbourne Auto Scan',
    client_id: 3,
    client_name: 'Southern Cross Insurance',
  },
};

// The catalogue's select lists: the client offers products 11 and 12 and part 21.
const productLists = [
  { text: 'Paint Protection', value: 11, price: 249 },
  { text: 'Headlight Restoration', value: 12, price: 89 },
  { text: 'Tyre Rotation', value: 13, price: 49 },
];
const partLists = [
  { text: 'Bonnet', value: 21 },
  { text: 'Roof', value: 22 },
];

const groups = [
  { id: 1, name: 'Front', image: null, position: 1 },
  { id: 5, name: 'Top', image: null, position: 5 },
];

const EDITOR: Partial<CurrentUser> = { permissions: ['scan', 'scan_edit', 'quote_edit'], roles: ['Super Admin'], agents: [], clients: [] };
/** An insurer's user: the Client role holds `scan` alone (docs/ARCHITECTURE.md, "Access model"). */
const READER: Partial<CurrentUser> = { permissions: ['scan', 'dashboard_statistics'], roles: ['Client'], agents: [], clients: [3] };

function signedIn(answer: (request: string, body: unknown) => Reply | undefined, who = EDITOR, evaluated: object = evaluation) {
  const user = aUser(who);
  localStorage.setItem('currentUser', JSON.stringify(user));
  return stubApi((request, body) => {
    if (request === 'GET /api/user/auth/user') return { body: { data: user } };
    if (request === 'GET /api/quote/products/lists') return { body: productLists };
    if (request === 'GET /api/quote/parts/lists') return { body: partLists };
    if (request.endsWith('/lists')) return { body: [] };
    if (request === 'GET /api/scan/scans/42') return { body: { data: { id: 42, pdf_url: '/api/user/files/report-42.pdf' } } };
    if (request === 'GET /api/scan/scans/42/evaluate') return { body: { data: evaluated } };
    if (request === 'GET /api/quote/panelGroups/positions') return { body: { data: groups } };
    return answer(request, body);
  });
}

const noQuote = (request: string) =>
  request === 'POST /api/quote/quotes/search' ? { status: 404, body: { error: 'No query results for model [Quote] 42' } } : undefined;

/** Quote Generation and the invoice it opens after a save, alone in a test admin. */
const renderQuotes = (at: string) => renderScreen(at, { pages: [path, agentPath, invoice.path] });

const summary = () => within(screen.getByTestId('quote-summary'));

/** Scan 42's saved quote: the bonnet replaced, pearl, one product and one part. */
const savedQuote = {
  id: 9,
  scan_id: 42,
  metallic: 0,
  pearl: 1,
  aluminium: 0,
  vehicle_type: 'D',
  items: { '1': { panel_id: 1, repair_type: 'replacement', category: null, scratch: null } },
  products: [{ value: 11, text: 'Paint Protection', price: 200 }],
  parts: [{ text: 'Wiper', value: 'wiper' }],
  gst_percent: 10,
  assessor_comments: 'Hail damage',
  manual_check: 0,
  vehicle_photo: null,
};

describe('Quote Generation', { timeout: 90_000 }, () => {
  it('prices live with the engine: toggles, repair type, category, products; saves multipart and opens the invoice', async () => {
    const fetch = signedIn((request) => {
      if (request === 'POST /api/quote/quotes/search') return noQuote(request);
      if (request === 'POST /api/quote/quotes') return { body: { data: { id: 77 } } };
      return undefined;
    });
    const { location } = renderQuotes('/quotes/42');
    expect(await screen.findByRole('heading', { name: 'Quote Generation' }, { timeout: 40_000 })).toBeTruthy();
    // Bonnet: pdr heavy 200.00 + GST 10 %.
    await waitFor(() => expect(summary().getByText('$220.00')).toBeTruthy());
    expect(screen.getByText('No Damage Detected')).toBeTruthy();
    expect(screen.queryByText('Roof (Large)')).toBeNull();
    expect(screen.queryByText('Bonnet (Top view)')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Front' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'VIEW FULL SCAN DATA' }).getAttribute('href')).toBe('/scans/42');
    expect((await screen.findByRole('link', { name: 'Open the damage report (PDF)' })).getAttribute('href')).toBe(
      '/api/user/files/report-42.pdf',
    );

    fireEvent.click(screen.getByRole('switch', { name: 'Metallic' }));
    // 200 + 10 % metallic = 220, + GST = 242.
    await waitFor(() => expect(summary().getByText('$242.00')).toBeTruthy());

    fireEvent.click(screen.getByRole('switch', { name: 'Lg Vehicle' }));
    expect(await screen.findByText('Roof (Large)')).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: 'XL Vehicle' }));
    expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Lg Vehicle' }).checked).toBe(false);
    expect(screen.queryByText('Roof (Large)')).toBeNull();

    const bonnet = within(screen.getByRole('region', { name: 'Bonnet' }));
    fireEvent.mouseDown(bonnet.getByRole('combobox', { name: 'Category' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Light' }));
    // 100 + 10 = 110, + GST = 121.
    await waitFor(() => expect(summary().getByText('$121.00')).toBeTruthy());
    fireEvent.mouseDown(bonnet.getByRole('combobox', { name: 'Repair Type' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Conventional' }));
    await waitFor(() => expect(bonnet.queryByRole('combobox', { name: 'Category' })).toBeNull());
    // 400 + 40 = 440, + GST = 484.
    await waitFor(() => expect(summary().getByText('$484.00')).toBeTruthy());

    const products = within(screen.getByRole('region', { name: 'Add Products' }));
    // The catalogue's lists load beside the evaluation.
    fireEvent.mouseDown(await products.findByRole('combobox', { name: 'Product' }));
    // Only the client's products are offered.
    expect(screen.queryByRole('option', { name: 'Tyre Rotation' })).toBeNull();
    fireEvent.click(await screen.findByRole('option', { name: 'Headlight Restoration' }));
    await waitFor(() => expect(products.getByRole<HTMLInputElement>('spinbutton', { name: 'Price' }).value).toBe('89'));
    expect(products.queryByRole('button', { name: 'Remove product' })).toBeNull();
    fireEvent.click(products.getByRole('button', { name: 'Add Product' }));
    fireEvent.mouseDown(products.getAllByRole('combobox', { name: 'Product' })[1]);
    fireEvent.click(await screen.findByRole('option', { name: 'Headlight Restoration' }));
    expect(await screen.findByText('Select other product, Because already this product was selected.')).toBeTruthy();
    fireEvent.click(products.getAllByRole('button', { name: 'Remove product' })[1]);
    // (440 + 89) × 1.1 = 581.90.
    await waitFor(() => expect(summary().getByText('$581.90')).toBeTruthy());

    const parts = within(screen.getByRole('region', { name: 'Add Parts' }));
    const partInput = parts.getByRole('combobox', { name: 'Parts' });
    fireEvent.change(partInput, { target: { value: '  Left Mirror  ' } });
    fireEvent.keyDown(partInput, { key: 'Enter' });
    expect(await parts.findByText('Left Mirror')).toBeTruthy();
    // Its clear button is named in the app's words (MUI's own 'Clear' stays English in Japanese).
    expect(parts.getByRole('button', { name: 'Clear value', hidden: true })).toBeTruthy();

    // A photo over the server's 5 MB is refused on the spot, never sent.
    const photoInput = document.querySelector<HTMLInputElement>('input[type="file"][accept^="image/"]')!;
    fireEvent.change(photoInput, {
      target: { files: [new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'car.jpg', { type: 'image/jpeg' })] },
    });
    expect(await screen.findByText('Vehicle Photo must be less than 5 MB')).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'Vehicle photo' })).toBeNull();

    expect(screen.getByRole('checkbox', { name: 'Request quote check' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save and Generate Quote' }));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Loading..' }).disabled).toBe(true);
    await waitFor(() => expect(location.pathname).toBe('/quotes/77/invoice'));
    expect(await screen.findByText('Quote Generated')).toBeTruthy();
    const save = fetch.mock.calls.find(([url, init]) => url === '/api/quote/quotes' && init?.method === 'POST');
    const body = save?.[1]?.body as FormData;
    expect(body.get('scan_id')).toBe('42');
    expect(body.get('client_id')).toBe('3');
    expect(body.get('metallic')).toBe('1');
    expect(body.get('vehicle_type')).toBe('XL');
    expect(body.get('manual_check')).toBe('0');
    expect(JSON.parse(body.get('products') as string)).toEqual([{ value: '12', text: 'Headlight Restoration', price: 89 }]);
    expect(JSON.parse(body.get('parts') as string)).toEqual(['Left Mirror']);
    expect(body.get('vehicle_photo')).toBeNull();
    expect(JSON.parse(body.get('items') as string)).toMatchObject({ '1': { repair_type: 'conventional', category: null } });
    expect(Object.keys(JSON.parse(body.get('items') as string) as object)).toEqual(['1']);
  });

  it("keeps the assessor's choices when the session ends under the form, and puts them back after signing in", async () => {
    let expired = true;
    const fetch = signedIn((request) => {
      if (request === 'POST /api/quote/quotes/search') return noQuote(request);
      if (request === 'POST /api/quote/quotes')
        return expired ? { status: 401, body: { error: 'Unauthenticated.' } } : { body: { data: { id: 77 } } };
      return undefined;
    });
    const user = localStorage.getItem('currentUser');
    const { location, navigate } = renderQuotes('/quotes/42');
    await waitFor(() => expect(summary().getByText('$220.00')).toBeTruthy(), { timeout: 40_000 });
    fireEvent.click(screen.getByRole('switch', { name: 'Metallic' }));
    await waitFor(() => expect(summary().getByText('$242.00')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Save and Generate Quote' }));
    await waitFor(() => expect(location.pathname).toBe('/login'));

    expired = false;
    localStorage.setItem('currentUser', user!);
    act(() => navigate('/quotes/42'));
    expect(
      await screen.findByText('Your unsaved changes from before you were signed out are back in the form. Save them to keep them.'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Metallic' })).toHaveProperty('checked', true));
    await waitFor(() => expect(summary().getByText('$242.00')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Save and Generate Quote' }));
    await waitFor(() => expect(location.pathname).toBe('/quotes/77/invoice'));
    const saves = fetch.mock.calls.filter(([url, init]) => url === '/api/quote/quotes' && init?.method === 'POST');
    expect((saves.at(-1)?.[1]?.body as FormData).get('metallic')).toBe('1');
  });

  it("loads the scan's quote on entry; the agent variant hides 'Request quote check'", async () => {
    signedIn((request, body) =>
      request === 'POST /api/quote/quotes/search' && (body as { scan_id?: number }).scan_id === 42
        ? { body: { data: savedQuote } }
        : undefined,
    );
    renderQuotes('/quotes/42/agents/3');
    expect(await screen.findByRole('heading', { name: 'Quote Generation' }, { timeout: 40_000 })).toBeTruthy();
    // Replacement 900 + 5 % pearl 45 + product 200 = 1,145, + GST = 1,259.50.
    await waitFor(() => expect(summary().getByText('$1,259.50')).toBeTruthy());
    expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Pearl' }).checked).toBe(true);
    expect(screen.getByDisplayValue('Hail damage')).toBeTruthy();
    expect(screen.getByText('Wiper')).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Request quote check' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Save and Generate Quote' })).toBeTruthy();
  });

  it('says when the prices moved since the quote was saved, and says nothing when they did not', async () => {
    for (const [grant_total, note] of [
      [1259.5, null],
      [1200, 'Prices have changed since this quote was saved (saved total $1,200.00): saving re-prices it.'],
    ] as const) {
      signedIn((request, body) =>
        request === 'POST /api/quote/quotes/search' && (body as { scan_id?: number }).scan_id === 42
          ? { body: { data: { ...savedQuote, grant_total, currency: '$' } } }
          : undefined,
      );
      const { unmount } = renderQuotes('/quotes/42');
      await waitFor(() => expect(summary().getByText('$1,259.50')).toBeTruthy(), { timeout: 40_000 });
      if (note) expect(screen.getByText(note)).toBeTruthy();
      else expect(screen.queryByText(/Prices have changed/)).toBeNull();
      unmount();
    }
  });

  it('says before a save that a quote the customer has starts a supplement, and says nothing of a draft', async () => {
    for (const [status, revision, note] of [
      ['draft', 0, null],
      [
        'approved',
        1,
        'This quote has gone to the customer: saving a change to its lines, amounts or client starts supplement S2, and the customer is asked again about the lines that change. Other changes (comments, the photo) keep it as sent.',
      ],
    ] as const) {
      signedIn((request, body) =>
        request === 'POST /api/quote/quotes/search' && (body as { scan_id?: number }).scan_id === 42
          ? { body: { data: { ...savedQuote, status, revision } } }
          : undefined,
      );
      const { unmount } = renderQuotes('/quotes/42');
      await waitFor(() => expect(summary().getByText('$1,259.50')).toBeTruthy(), { timeout: 40_000 });
      if (note) expect(screen.getByText(note)).toBeTruthy();
      else expect(screen.queryByText(/starts supplement/)).toBeNull();
      unmount();
    }
  });

  it('shows a user without quote_edit the saved quote read-only, with its invoice and PDF', async () => {
    const fetch = signedIn(
      (request) =>
        request === 'POST /api/quote/quotes/search'
          ? {
              body: {
                data: {
                  ...savedQuote,
                  vehicle_photo: '/api/user/files/photo-9.jpg',
                  pdf_url: '/api/user/files/quote-9.pdf',
                  manual_check: 1,
                },
              },
            }
          : undefined,
      READER,
    );
    renderQuotes('/quotes/42');
    expect(await screen.findByRole('heading', { name: 'Quote Generation' }, { timeout: 40_000 })).toBeTruthy();
    await waitFor(() => expect(summary().getByText('$1,259.50')).toBeTruthy());
    expect(screen.getByText('You can view this quote but not change it.')).toBeTruthy();
    // Every choice shown, none changeable.
    for (const name of ['Metallic', 'Pearl', 'Aluminium', 'Lg Vehicle', 'XL Vehicle'])
      expect(screen.getByRole<HTMLInputElement>('switch', { name }).disabled, name).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Pearl' }).checked).toBe(true);
    const bonnet = within(screen.getByRole('region', { name: 'Bonnet' }));
    expect(bonnet.getByRole('combobox', { name: 'Repair Type' }).getAttribute('aria-disabled')).toBe('true');
    expect(bonnet.queryByRole('button', { name: /Edit damage count/ })).toBeNull();
    const products = within(screen.getByRole('region', { name: 'Add Products' }));
    expect((await products.findByRole('combobox', { name: 'Product' })).getAttribute('aria-disabled')).toBe('true');
    expect(products.getByRole<HTMLInputElement>('spinbutton', { name: 'Price' }).disabled).toBe(true);
    expect(products.queryByRole('button', { name: 'Add Product' })).toBeNull();
    expect(
      within(screen.getByRole('region', { name: 'Add Parts' })).getByRole<HTMLInputElement>('combobox', { name: 'Parts' }).disabled,
    ).toBe(true);
    expect(screen.getByRole('img', { name: 'Vehicle photo' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add Vehicle Photo' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete vehicle photo' })).toBeNull();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Comments' }).readOnly).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Request quote check' }).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save and Generate Quote' })).toBeNull();
    expect(screen.getByRole('link', { name: 'View Invoice' }).getAttribute('href')).toBe('/quotes/9/invoice');
    expect(screen.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe('/api/user/files/quote-9.pdf');
    // No link sent and none to send: no empty approval card.
    expect(screen.queryByRole('heading', { name: 'Send for approval' })).toBeNull();
    // Nothing but reads was asked (the quote's search is a POST that reads).
    const writes = fetch.mock.calls.filter(([url, init]) => (init?.method ?? 'GET') !== 'GET' && url !== '/api/quote/quotes/search');
    expect(writes).toEqual([]);
  });

  it("shows a user without quote_edit the figures the quote was saved with, not its choices at today's prices", async () => {
    // Saved when the bonnet's replacement was 850: 850 + 5 % pearl = 892.50, + 200 product = 1,092.50, + GST = 1,201.75.
    const line = { repair_fee: 850, aluminium_fee: 0, metalic_fee: 0, pearl_fee: 42.5, lineTotal: 892.5, status: 'priced' };
    const saved = {
      ...savedQuote,
      items: { '1': { panel_id: 1, label: 'Bonnet', repair_type: 'replacement', category: null, scratch: null, ...line } },
      tyres: [],
      totals: {
        pdr: 0,
        conventional: 0,
        p2p: 0,
        replacement: 892.5,
        paint: 0,
        tyre: 0,
        product: 200,
        sub_total: 1092.5,
        tax: 109.25,
        grant_total: 1201.75,
      },
      grant_total: 1201.75,
      currency: '$',
    };
    for (const [who, total, lineTotal, note] of [
      [
        READER,
        '$1,201.75',
        '$892.50',
        'These are the figures this quote was saved with, as its invoice shows; prices have changed since (priced today: $1,259.50).',
      ],
      [EDITOR, '$1,259.50', '$945.00', 'Prices have changed since this quote was saved (saved total $1,201.75): saving re-prices it.'],
    ] as const) {
      signedIn((request) => (request === 'POST /api/quote/quotes/search' ? { body: { data: saved } } : undefined), who);
      const { unmount } = renderQuotes('/quotes/42');
      await waitFor(() => expect(summary().getByText(total)).toBeTruthy(), { timeout: 40_000 });
      expect(summary().getByText(who === READER ? '$892.50' : '$945.00')).toBeTruthy();
      expect(within(screen.getByRole('region', { name: 'Bonnet' })).getByText(lineTotal)).toBeTruthy();
      expect(screen.getByText(note)).toBeTruthy();
      unmount();
    }
  });

  it("shows the agent's tyre choices priced from the client's tyre prices: 0 is a missing price, a recheck advisory", async () => {
    const tyres = [
      { row: 1, direction: 'L', label: 'FRONT LEFT', repair_type: 'replace' },
      { row: 1, direction: 'R', label: 'FRONT RIGHT', repair_type: 'repair' },
      { row: 2, direction: 'L', label: 'REAR LEFT', repair_type: 'recheck' },
    ];
    const withTyres = { ...evaluation, client: { ...evaluation.client, tyre_replace: 185.5, tyre_repair: 0 }, tyres };
    signedIn(noQuote, EDITOR, withTyres);
    renderQuotes('/quotes/42');
    const card = within(await screen.findByTestId('quote-tyres', undefined, { timeout: 40_000 }));
    const amountOf = (label: string) => card.getByText(label).nextElementSibling?.textContent;
    expect(amountOf('FRONT LEFT – Replace')).toBe('$185.50');
    expect(amountOf('FRONT RIGHT – Repair')).toBe('No tyre price in the client’s price list');
    expect(amountOf('REAR LEFT – Recheck Next Visit')).toBe('Advisory');
    // Only the priced tyre adds to the Tyres subtotal: heavy pdr 200 + Replace 185.50 = 385.50, + GST = 424.05.
    await waitFor(() => expect(summary().getByText('$185.50')).toBeTruthy());
    expect(summary().getByText('$424.05')).toBeTruthy();
  });

  it('tells a user without quote_edit that the scan has no quote yet, without a preview to mistake for one', async () => {
    signedIn(noQuote, READER);
    renderQuotes('/quotes/42');
    expect(await screen.findByText('No quote has been generated for this scan yet.', undefined, { timeout: 40_000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'VIEW FULL SCAN DATA' })).toBeTruthy();
    expect(screen.queryByTestId('quote-summary')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save and Generate Quote' })).toBeNull();
  });
});
