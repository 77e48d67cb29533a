import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderListScreen } from '../../test/renderListScreen';
import { callsTo, signedInLister } from '../../test/stubFetch';
import { VehicleListPage } from './VehicleListPage';

const vehicle = (id: number, registration: string) => ({
  id,
  registration,
  state: 'VIC',
  vin: null,
  make: 'Kia',
  model: 'Rio',
  first_seen: '2024-05-01T02:00:00.000Z',
  last_seen: '2024-05-31T07:30:00.000Z',
});

describe('Vehicles list', () => {
  it('asks the server for the last seen first, sorts and searches on the server', async () => {
    const fetch = signedInLister((request) =>
      request.startsWith('GET /api/scan/vehicles?')
        ? { body: { items: [vehicle(7, 'ABC123'), vehicle(8, 'XYZ789')], total: 2 } }
        : undefined,
    );
    await renderListScreen('/vehicles', <VehicleListPage />);
    expect(await screen.findByText('ABC123')).toBeTruthy();
    const calls = () => callsTo(fetch, '/api/scan/vehicles?');
    expect(calls()[0]).toBe('/api/scan/vehicles?page=1&per_page=10&sort=last_seen&order=desc');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Registration',
      'State',
      'Make',
      'Model',
      'VIN',
      'First Seen',
      'Last Seen',
    ]);
    expect(screen.getAllByText('31-05-2024 05:30 PM')).toHaveLength(2);
    const ariaSort = () =>
      screen
        .getAllByRole('columnheader')
        .filter((h) => h.hasAttribute('aria-sort'))
        .map((h) => [h.textContent, h.getAttribute('aria-sort')]);
    expect(ariaSort()).toEqual([['Last Seen', 'descending']]);

    fireEvent.click(screen.getByRole('button', { name: 'Sort by Registration ascending' }));
    await waitFor(() => expect(calls()).toContain('/api/scan/vehicles?page=1&per_page=10&sort=registration&order=asc'));
    await waitFor(() => expect(ariaSort()).toEqual([['Registration', 'ascending']]));
    fireEvent.change(screen.getByPlaceholderText('Search registration or VIN'), { target: { value: ' abc ' } });
    await waitFor(() => expect(calls().at(-1)).toBe('/api/scan/vehicles?page=1&per_page=10&q=abc&sort=registration&order=asc'), {
      timeout: 3000,
    });
  });

  it('says why a page failed to load, with Try again, instead of an empty table', async () => {
    let failing = true;
    signedInLister((request) => {
      if (!request.startsWith('GET /api/scan/vehicles?')) return undefined;
      if (failing) return { status: 503, body: { error: 'Service Unavailable' } };
      return { body: { items: [vehicle(7, 'ABC123')], total: 1 } };
    });
    await renderListScreen('/vehicles', <VehicleListPage />);
    expect(await screen.findByText('The list could not be loaded: Server Error!')).toBeTruthy();
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('ABC123')).toBeTruthy();
  });

  describe('Export', () => {
    afterEach(() => vi.restoreAllMocks());

    it('asks the server for the file of the search in the list’s order and language, then downloads it', async () => {
      const links: string[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        links.push(this.href);
      });
      const fetch = signedInLister((request) => {
        if (request.startsWith('GET /api/scan/vehicles/export-vehicle-report?'))
          return { body: { data: { url: '/api/user/files/abc.xlsx?expires=9999999999&uid=1&sig=x' } } };
        if (request.startsWith('GET /api/scan/vehicles?')) return { body: { items: [vehicle(1, 'R0')], total: 1 } };
        return undefined;
      });
      await renderListScreen('/vehicles?filter=%7B%22q%22%3A%22ab%22%7D&sort=registration&order=ASC', <VehicleListPage />);
      expect(await screen.findByText('R0')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Export formats' }));
      fireEvent.click(await screen.findByRole('menuitem', { name: 'Excel (.xlsx)' }));
      await waitFor(() => expect(links).toHaveLength(1));
      expect(callsTo(fetch, '/api/scan/vehicles/export-vehicle-report?')).toEqual([
        '/api/scan/vehicles/export-vehicle-report?q=ab&lang=en&sort=registration&order=asc&format=xlsx',
      ]);
      expect(new URL(links[0]).searchParams.get('download')).toMatch(/^vehicles-\d{8}-\d{4}\.xlsx$/);
    });
  });
});
