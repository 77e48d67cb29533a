import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { aUser } from '../../test/builders';
import { renderScreen } from '../../test/renderScreen';
import { jsonBody, stubApi, type Reply } from '../../test/stubFetch';

const parts = [
  { text: 'Bonnet', value: 1 },
  { text: 'Roof', value: 2 },
];
const dentRow = {
  light: 100,
  medium: 150,
  heavy: 200,
  severe: 300,
  oversize: 400,
  p2p: 120,
  aluminium: 30,
  conventional: 800,
  replacement: 1600,
};
const client = {
  id: 4,
  name: 'Southern Cross',
  currency: '¥',
  sc_metallic: 10,
  sc_pearl: 15,
  sc_p2p: 1,
  calculation_method: 'T',
  sc_threshold: 3,
  weighted_no: null,
  products: [],
  parts: [1],
  prices: { dent: { '1': dentRow }, scratch: { '1': { spot: 50, paint: 90, conventional: 300 } } },
  logo: null,
  phone: null,
  address: null,
  email: null,
  abn: null,
};

function signedIn(answer: (request: string, body: unknown) => Reply | undefined, partList = parts) {
  const user = aUser({ roles: ['Super Admin'], permissions: ['client'], agents: [], clients: [] });
  localStorage.setItem('currentUser', JSON.stringify(user));
  return stubApi((request, body) => {
    if (request === 'GET /api/user/auth/user') return { body: { data: user } };
    if (request === 'GET /api/quote/parts/lists') return { body: partList };
    if (request.endsWith('/lists')) return { body: [] };
    return answer(request, body);
  });
}

const bodyOf = (fetch: ReturnType<typeof stubApi>, method: string) => {
  const call = fetch.mock.calls.find(([, init]) => init?.method === method);
  return call ? (jsonBody(call[1]) as Record<string, unknown>) : undefined;
};

// A matrix cell by its label alone: a role query computes every spinbutton's accessible name, cell after cell.
const cell = (part: string, column: string) => screen.getByLabelText<HTMLInputElement>(`${part} ${column}`);

describe('client form', { timeout: 60_000 }, () => {
  it('has a dent and a scratch matrix with a row per part, every cell starting at 0 on create', async () => {
    signedIn(() => undefined);
    renderScreen('/clients/create', { resources: ['clients'] });
    expect(await screen.findByText('Create Client')).toBeTruthy();
    const dent = await screen.findByRole('table', { name: 'Dent Prices' });
    expect(
      within(dent)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Part',
      'Light ($)',
      'Medium ($)',
      'Heavy ($)',
      'Severe ($)',
      'Oversize ($)',
      'Push to Paint ($)',
      'Aluminium (%)',
      'Conventional ($)',
      'Replacement ($)',
    ]);
    expect(
      within(dent)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['Bonnet', 'Roof']);
    const scratch = screen.getByRole('table', { name: 'Scratch Prices' });
    expect(within(scratch).getAllByRole('spinbutton')).toHaveLength(6);
    expect(
      within(dent)
        .getAllByRole('spinbutton')
        .every((input) => (input as HTMLInputElement).value === '0'),
    ).toBe(true);
  });

  it('opens with the pricing defaults (T with threshold 1, surcharges 0, currency $) and saves with only a name', async () => {
    const fetch = signedIn((request, body) => {
      if (request === 'POST /api/quote/clients') return { status: 201, body: { data: { id: 9, ...(body as object) } } };
      if (request.startsWith('GET /api/quote/clients?')) return { body: { items: [], total: 0 } };
      return undefined;
    });
    const { location } = renderScreen('/clients/create', { resources: ['clients'] });
    await screen.findByRole('table', { name: 'Dent Prices' });
    expect(screen.getByLabelText<HTMLInputElement>(/^Threshold/).value).toBe('1');
    expect(screen.getByLabelText<HTMLInputElement>(/^Metallic Surcharge/).value).toBe('0');
    expect(screen.getByLabelText<HTMLInputElement>(/^Pearl Surcharge/).value).toBe('0');
    expect(screen.getByRole('combobox', { name: /^Calculation Method/ }).textContent).toBe('Threshold');
    expect(screen.getByRole('combobox', { name: /^Currency/ }).textContent).toBe('$');
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Just a name' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Created Successfully')).toBeTruthy();
    await waitFor(() => expect(location.pathname).toBe('/clients'));
    expect(bodyOf(fetch, 'POST')).toMatchObject({
      name: 'Just a name',
      calculation_method: 'T',
      sc_threshold: 1,
      currency: '$',
      sc_metallic: 0,
    });
  });

  it('validates on submit: name, threshold by method, cells at least 0; then sends both matrices keyed by part', async () => {
    const fetch = signedIn((request, body) => {
      if (request === 'POST /api/quote/clients') return { status: 201, body: { data: { id: 9, ...(body as object) } } };
      if (request.startsWith('GET /api/quote/clients?')) return { body: { items: [], total: 0 } };
      return undefined;
    });
    const { location } = renderScreen('/clients/create', { resources: ['clients'] });
    await screen.findByRole('table', { name: 'Dent Prices' });
    fireEvent.change(cell('Roof', 'Heavy'), { target: { value: '-5' } });
    fireEvent.change(screen.getByLabelText(/^Threshold/), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Threshold must be greater than zero')).toBeTruthy();
    expect(screen.getByText('Heavy must be greater than or equal to 0')).toBeTruthy();
    expect(cell('Roof', 'Heavy').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/^Name/)));
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    // Method W: the threshold goes, the five counts come.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /^Calculation Method/ }));
    // It always holds a method (Threshold by default): no blank choice.
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Threshold', 'Weight']);
    fireEvent.click(await screen.findByRole('option', { name: 'Weight' }));
    await waitFor(() => expect(screen.queryByLabelText(/^Threshold/)).toBeNull());
    for (const level of ['Oversize', 'Severe', 'Heavy', 'Medium', 'Light']) {
      const count = screen.getByLabelText(new RegExp(`^${level} Count`));
      // Required with the method: the label carries the asterisk.
      expect(count.closest('.MuiFormControl-root')?.querySelector('label')?.textContent).toMatch(new RegExp(`^${level} Count\\s\\*$`));
      fireEvent.change(count, { target: { value: '2' } });
    }
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Harbour Mutual' } });
    fireEvent.change(cell('Roof', 'Heavy'), { target: { value: '240.5' } });
    fireEvent.change(cell('Bonnet', 'Paint'), { target: { value: '99' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Created Successfully')).toBeTruthy();
    await waitFor(() => expect(location.pathname).toBe('/clients'));
    const body = bodyOf(fetch, 'POST');
    expect(body).toMatchObject({
      name: 'Harbour Mutual',
      calculation_method: 'W',
      weighted_no: { oversize: 2, severe: 2, heavy: 2, medium: 2, light: 2 },
      currency: '$',
    });
    expect(body?.sc_threshold ?? null).toBeNull();
    const prices = body?.prices as { dent: Record<string, Record<string, number>>; scratch: Record<string, Record<string, number>> };
    expect(Object.keys(prices.dent)).toEqual(['1', '2']);
    expect(prices.dent['2']).toEqual({
      light: 0,
      medium: 0,
      heavy: 240.5,
      severe: 0,
      oversize: 0,
      p2p: 0,
      aluminium: 0,
      conventional: 0,
      replacement: 0,
    });
    expect(prices.scratch['1']).toEqual({ spot: 0, paint: 99, conventional: 0 });
  });

  it('loads the saved prices on edit, fills a part without a row with 0, and shows money in the client currency', async () => {
    const fetch = signedIn((request) => {
      if (request === 'GET /api/quote/clients/4') return { body: { data: client } };
      if (request === 'PUT /api/quote/clients/4') return { body: { data: client } };
      if (request.startsWith('GET /api/quote/clients?')) return { body: { items: [], total: 0 } };
      return undefined;
    });
    renderScreen('/clients/4', { resources: ['clients'] });
    expect(await screen.findByText('Update Client')).toBeTruthy();
    await screen.findByRole('table', { name: 'Dent Prices' });
    await waitFor(() => expect(cell('Bonnet', 'Replacement').value).toBe('1600'));
    expect(cell('Roof', 'Light').value).toBe('0');
    expect(screen.getByRole('columnheader', { name: 'Light (¥)' })).toBeTruthy();
    fireEvent.change(cell('Bonnet', 'Light'), { target: { value: '111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Updated Successfully')).toBeTruthy();
    const prices = bodyOf(fetch, 'PUT')?.prices as { dent: Record<string, Record<string, number>> };
    expect(prices.dent['1']).toEqual({ ...dentRow, light: 111 });
    expect(prices.dent['2'].light).toBe(0);
  });

  it("shows 0 in every cell of the parts a client has no prices for, from the cell's first paint", async () => {
    // 40 parts: 480 cells, of which the saved client prices the first part's only.
    const many = Array.from({ length: 40 }, (_, i) => ({ text: i ? `Part ${i + 1}` : 'Bonnet', value: i + 1 }));
    signedIn((request) => (request === 'GET /api/quote/clients/4' ? { body: { data: client } } : undefined), many);
    // Each cell's value as it enters the page, read before anything after that render runs.
    const drawn = new Map<HTMLInputElement, string>();
    const observer = new MutationObserver((records) => {
      for (const node of records.flatMap((r) => [...r.addedNodes]))
        if (node instanceof Element)
          for (const input of node.querySelectorAll<HTMLInputElement>('input[aria-label^="Part "]'))
            if (!drawn.has(input)) drawn.set(input, input.value);
    });
    observer.observe(document.body, { childList: true, subtree: true });

    try {
      renderScreen('/clients/4', { resources: ['clients'] });
      await screen.findByRole('table', { name: 'Dent Prices' });
      await waitFor(() => expect(cell('Bonnet', 'Replacement').value).toBe('1600'));
    } finally {
      observer.disconnect();
    }
    // Every cell of the 39 parts without prices (the form may be drawn twice as the record arrives).
    expect(drawn.size).toBeGreaterThanOrEqual(39 * 12);
    expect([...drawn].filter(([, value]) => value !== '0').map(([input]) => input.getAttribute('aria-label'))).toEqual([]);
    expect(cell('Part 40', 'Light').value).toBe('0');
  });

  it('counts the zeros of parts without prices as no change: leaving asks nothing until a cell is typed in', async () => {
    signedIn((request) => (request === 'GET /api/quote/clients/4' ? { body: { data: client } } : undefined));
    const { location, navigate } = renderScreen('/clients/4', { resources: ['clients'] });
    await waitFor(() => expect(cell('Roof', 'Light').value).toBe('0'));
    act(() => navigate('/clients'));
    await waitFor(() => expect(location.pathname).toBe('/clients'));
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();

    act(() => navigate('/clients/4'));
    await waitFor(() => expect(cell('Roof', 'Light').value).toBe('0'));
    fireEvent.change(cell('Roof', 'Light'), { target: { value: '5' } });
    act(() => navigate('/clients'));
    expect(await screen.findByRole('dialog', { name: 'Unsaved changes' })).toBeTruthy();
    expect(location.pathname).toBe('/clients/4');
  });

  it('keeps a price typed before the session ended, in a part the saved client has no prices for, as a change', async () => {
    signedIn((request) => (request === 'GET /api/quote/clients/4' ? { body: { data: client } } : undefined));
    const zeros = Object.fromEntries(Object.keys(dentRow).map((k) => [k, 0]));
    // What the form held (every part's row) when the session ended: Roof's Light typed as 7.
    sessionStorage.setItem(
      'scanquote.draft:7:/clients/4',
      JSON.stringify({ prices: { dent: { '1': dentRow, '2': { ...zeros, light: 7 } }, scratch: client.prices.scratch } }),
    );
    const { location, navigate } = renderScreen('/clients/4', { resources: ['clients'] });
    await waitFor(() => expect(cell('Roof', 'Light').value).toBe('7'));
    expect(cell('Roof', 'Heavy').value).toBe('0');
    expect(cell('Bonnet', 'Replacement').value).toBe('1600');
    expect(cell('Roof', 'Paint').value).toBe('0');
    act(() => navigate('/clients'));
    expect(await screen.findByRole('dialog', { name: 'Unsaved changes' })).toBeTruthy();
    expect(location.pathname).toBe('/clients/4');
  });
});
