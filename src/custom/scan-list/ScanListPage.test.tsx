import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ScanItem } from '../../domain/records';
import { aScan } from '../../test/builders';
import { renderListScreen } from '../../test/renderListScreen';
import { callsTo, signedInLister, type stubApi } from '../../test/stubFetch';
import { liveSubscribers } from '../../test/handHeldRealtime';
import { melbourneToday } from '../dashboard/filters';
import { ScanListPage } from './ScanListPage';

// The live connection is replaced by a hand-held one: tests play the server's events through it.
vi.mock('../../realtime/instance', () => import('../../test/handHeldRealtime'));

const scan = (id: number, overrides: Partial<ScanItem> = {}) =>
  aScan({ id, scan_id: `s-${id}`, licensePlate: `PLATE${id}`, status: 'uploaded', ...overrides });

const signedIn = signedInLister;
const listCalls = (fetch: ReturnType<typeof stubApi>) => callsTo(fetch, '/api/scan/scans?');

describe('scan list screen', () => {
  it("shows the server's page with the product's columns, formatted dates and a pencil to /scans/{id}", async () => {
    const fetch = signedIn((request) =>
      request.startsWith('GET /api/scan/scans?')
        ? { body: { items: [scan(2), scan(1, { type: 'tire', status: 'ready' })], total: 2, total_is_estimate: false } }
        : undefined,
    );
    await renderListScreen('/scans', <ScanListPage />);
    expect(await screen.findByText('PLATE2')).toBeTruthy();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual([
      'Location',
      'Type',
      'Date/Time',
      'Registration',
      'Car Color',
      'Client',
      'Agent',
      'Status',
      'New Damage',
      'Action',
    ]);
    expect(screen.getAllByText('31-05-2024 05:30 PM')).toHaveLength(2);
    expect(screen.getByText('Tire')).toBeTruthy();
    expect(screen.getByText('Ready')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Edit' }).map((a) => a.getAttribute('href'))).toEqual(['/scans/2', '/scans/1']);
    expect(screen.getByPlaceholderText('Search Scan')).toBeTruthy();
    expect(listCalls(fetch)[0]).toBe('/api/scan/scans?page=1&per_page=10');
  });

  it('gives a user without scan_edit an eye to the read-only scan page instead of the pencil', async () => {
    signedIn(
      (request) =>
        request.startsWith('GET /api/scan/scans?') ? { body: { items: [scan(2)], total: 1, total_is_estimate: false } } : undefined,
      { roles: ['Client'], clients: [2], permissions: ['scan', 'dashboard_statistics'] },
    );
    await renderListScreen('/scans', <ScanListPage />);
    expect(await screen.findByText('PLATE2')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View Scan' }).getAttribute('href')).toBe('/scans/2');
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
  });

  it("says 'No Data Available!.' for an empty page and 'about N' for an estimated total", async () => {
    signedIn((request) =>
      request.startsWith('GET /api/scan/scans?') ? { body: { items: [], total: 0, total_is_estimate: false } } : undefined,
    );
    const view = await renderListScreen('/scans', <ScanListPage />);
    expect(await screen.findByText('No Data Available!.')).toBeTruthy();
    view.unmount();

    signedIn((request) =>
      request.startsWith('GET /api/scan/scans?') ? { body: { items: [scan(1)], total: 1234567, total_is_estimate: true } } : undefined,
    );
    await renderListScreen('/scans', <ScanListPage />);
    expect(await screen.findByText('1-10 of about 1,234,567')).toBeTruthy();
  });

  it('empties the table with total 0 when the list fails', async () => {
    signedIn((request) => (request.startsWith('GET /api/scan/scans?') ? { status: 500, body: { error: 'boom' } } : undefined));
    await renderListScreen('/scans', <ScanListPage />);
    expect(await screen.findByText('No Data Available!.')).toBeTruthy();
    expect(screen.getByText('0-0 of 0')).toBeTruthy();
  });

  it('searches trimmed after the debounce, back on page 1', async () => {
    const fetch = signedIn((request) =>
      request.startsWith('GET /api/scan/scans?') ? { body: { items: [scan(1)], total: 30 } } : undefined,
    );
    await renderListScreen('/scans', <ScanListPage />);
    await screen.findByText('PLATE1');
    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(listCalls(fetch)).toContain('/api/scan/scans?page=2&per_page=10'));
    fireEvent.change(screen.getByPlaceholderText('Search Scan'), { target: { value: '  corolla ' } });
    await waitFor(() => expect(listCalls(fetch)).toContain('/api/scan/scans?page=1&per_page=10&q=corolla'), { timeout: 3000 });
  });

  it('applies the advance filter with Search (disabled until a value is set) and clears it with Reset', async () => {
    const fetch = signedIn((request) =>
      request.startsWith('GET /api/scan/scans?') ? { body: { items: [scan(1)], total: 1 } } : undefined,
    );
    await renderListScreen('/scans', <ScanListPage />);
    await screen.findByText('PLATE1');
    fireEvent.click(screen.getByRole('button', { name: /Expand to Filter/ }));
    expect(await screen.findByText('Advance Filter')).toBeTruthy();
    const search = screen.getByRole<HTMLButtonElement>('button', { name: 'Search' });
    expect(search.disabled).toBe(true);
    // The range is picked in the app's calendar (this month, Melbourne's): the 2nd, then the 1st; it keeps them in order.
    fireEvent.click(screen.getByRole('button', { name: 'Date range: Select a date range' }));
    const calendar = await screen.findByRole('dialog', { name: 'Date range' });
    fireEvent.click(await within(calendar).findByRole('gridcell', { name: '2' }));
    fireEvent.click(within(calendar).getByRole('gridcell', { name: '1' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Date range' })).toBeNull());
    const month = melbourneToday().slice(0, 8);
    const [y, m] = month.split('-');
    expect(screen.getByRole('button', { name: `Date range: 01-${m}-${y} – 02-${m}-${y}` })).toBeTruthy();
    expect(search.disabled).toBe(false);
    fireEvent.click(search);
    await waitFor(() => expect(listCalls(fetch)).toContain(`/api/scan/scans?ts=${month}01&te=${month}02&page=1&per_page=10`));
    expect(screen.getByText('1 filter applied')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(screen.queryByText('1 filter applied')).toBeNull());
    expect(listCalls(fetch).at(-1)).toBe('/api/scan/scans?page=1&per_page=10');
    expect(screen.getByRole('button', { name: 'Date range: Select a date range' })).toBeTruthy();
  });

  it("lists the chosen agent's sites under Location, and clears the location when the agent changes", async () => {
    const agents = [
      { text: 'Harbour', value: 2 },
      { text: 'Inland', value: 3 },
    ];
    const sites: Record<string, { text: string; value: number }[]> = {
      '': [
        { text: 'Dock', value: 20 },
        { text: 'Plains', value: 30 },
      ],
      '2': [{ text: 'Dock', value: 20 }],
      '3': [{ text: 'Plains', value: 30 }],
    };
    const fetch = signedIn((request) => {
      if (request.startsWith('GET /api/scan/scans?')) return { body: { items: [scan(1)], total: 1 } };
      if (request === 'GET /api/agent/agents/lists') return { body: agents };
      const site = /^GET \/api\/agent\/locations\/lists(?:\?agent_id=(\d+))?$/.exec(request);
      return site ? { body: sites[site[1] ?? ''] } : undefined;
    });
    await renderListScreen('/scans', <ScanListPage />);
    await screen.findByText('PLATE1');
    fireEvent.click(screen.getByRole('button', { name: /Expand to Filter/ }));
    const choose = async (select: string, option: string) => {
      fireEvent.mouseDown(await screen.findByRole('combobox', { name: select }));
      fireEvent.click(await screen.findByRole('option', { name: option }));
      await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    };
    await choose('Agent', 'Inland');
    await waitFor(() => expect(callsTo(fetch, '/api/agent/locations/lists')).toContain('/api/agent/locations/lists?agent_id=3'));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Location' }));
    const sitesShown = within(await screen.findByRole('listbox'));
    expect(await sitesShown.findByRole('option', { name: 'Plains' })).toBeTruthy();
    expect(sitesShown.queryByRole('option', { name: 'Dock' })).toBeNull();
    fireEvent.click(sitesShown.getByRole('option', { name: 'Plains' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Location' }).textContent).toBe('Plains'));
    await choose('Agent', 'Harbour');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Location' }).textContent).not.toBe('Plains'));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(listCalls(fetch)).toContain('/api/scan/scans?agent_id=2&page=1&per_page=10'));
  });

  it('filters to the scans with new damage since the last scan and shows each row’s count', async () => {
    const fetch = signedIn((request) =>
      request.startsWith('GET /api/scan/scans?') ? { body: { items: [scan(1, { new_damage: 3 }), scan(2)], total: 2 } } : undefined,
    );
    await renderListScreen('/scans', <ScanListPage />);
    await screen.findByText('PLATE1');
    expect(screen.getByLabelText('3 new since the last scan').textContent).toBe('+3');
    expect(screen.getAllByText(/^\+\d/)).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: /Expand to Filter/ }));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'New Damage' }));
    fireEvent.click(await screen.findByRole('option', { name: 'With new damage' }));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(listCalls(fetch)).toContain('/api/scan/scans?new_damage=true&page=1&per_page=10'));
  });

  it('sorts the returned page by a column, both ways, without asking the server', async () => {
    const fetch = signedIn((request) =>
      request.startsWith('GET /api/scan/scans?')
        ? {
            body: {
              items: [scan(1, { licensePlate: 'BBB' }), scan(2, { licensePlate: 'AAA' }), scan(3, { licensePlate: 'CCC' })],
              total: 3,
            },
          }
        : undefined,
    );
    await renderListScreen('/scans', <ScanListPage />);
    await screen.findByText('BBB');
    const plates = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[3].textContent);
    expect(plates()).toEqual(['BBB', 'AAA', 'CCC']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Registration ascending' }));
    expect(plates()).toEqual(['AAA', 'BBB', 'CCC']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Registration descending' }));
    expect(plates()).toEqual(['CCC', 'BBB', 'AAA']);
    expect(screen.queryByRole('button', { name: /date\/time/i })).toBeNull();
    expect(listCalls(fetch)).toHaveLength(1);
  });

  it('prepends a created scan and replaces an updated one, live', async () => {
    signedIn((request) =>
      request.startsWith('GET /api/scan/scans?') ? { body: { items: [scan(1, { status: 'metadata' })], total: 1 } } : undefined,
    );
    await renderListScreen('/scans', <ScanListPage />);
    await screen.findByText('PLATE1');
    await waitFor(() => expect(liveSubscribers.size).toBe(1));
    const [handlers] = [...liveSubscribers];
    act(() => handlers.created?.(scan(9, { licensePlate: 'NEW999' })));
    const rows = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[3].textContent);
    expect(rows()).toEqual(['NEW999', 'PLATE1']);
    expect(screen.getByText('1-2 of 2')).toBeTruthy();
    act(() => handlers.updated?.({ id: 1, status: 'uploaded' }));
    expect(within(screen.getAllByRole('row')[2]).getByText('Uploaded')).toBeTruthy();
  });
});
