import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { VEHICLE_EXPORT_MAX } from './VehicleListPage';
import { AppNotification } from '../../components/AppNotification';
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

    /** The files the page saves, read back from the blobs it links to. */
    const saved = () => {
      const blobs: Blob[] = [];
      Object.assign(URL, { createObjectURL: (blob: Blob) => (blobs.push(blob), 'blob:vehicles'), revokeObjectURL: () => {} });
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
      return blobs;
    };

    it('saves every searched vehicle, not only the page, under the list headings with the dates as shown', async () => {
      const blobs = saved();
      const twelve = Array.from({ length: 12 }, (_, i) => vehicle(i + 1, i === 1 ? '=XYZ789' : `R${i}`));
      const fetch = signedInLister((request) => {
        if (!request.startsWith('GET /api/scan/vehicles?')) return undefined;
        const perPage = Number(new URL(request.slice(4), 'http://x').searchParams.get('per_page'));
        return { body: { items: twelve.slice(0, perPage), total: 12 } };
      });
      await renderListScreen('/vehicles', <VehicleListPage />);
      expect(await screen.findByText('R0')).toBeTruthy();
      expect(screen.queryByText('R11')).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Export' }));
      await waitFor(() => expect(blobs).toHaveLength(1));
      expect(callsTo(fetch, '/api/scan/vehicles?').at(-1)).toBe('/api/scan/vehicles?page=1&per_page=100&sort=last_seen&order=desc');
      // A BOM first, so spreadsheet programs read UTF-8 (Blob.text() drops it).
      expect([...new Uint8Array(await blobs[0].arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = (await blobs[0].text()).split('\r\n');
      expect(lines).toHaveLength(12 + 2);
      expect(lines.slice(0, 3)).toEqual([
        'Registration,State,Make,Model,VIN,First Seen,Last Seen',
        'R0,VIC,Kia,Rio,,01-05-2024 12:00 PM,31-05-2024 05:30 PM',
        // A cell a spreadsheet would run as a formula is neutralised.
        "'=XYZ789,VIC,Kia,Rio,,01-05-2024 12:00 PM,31-05-2024 05:30 PM",
      ]);
      expect(lines.at(-2)).toMatch(/^R11,/);
      expect(screen.queryByText(/Exported the first/)).toBeNull();
    });

    it(`says how many it left out when the search holds more than the export (at most ${VEHICLE_EXPORT_MAX.toLocaleString('en')})`, async () => {
      const blobs = saved();
      signedInLister((request) =>
        request.startsWith('GET /api/scan/vehicles?') ? { body: { items: [vehicle(1, 'R0'), vehicle(2, 'R1')], total: 150 } } : undefined,
      );
      await renderListScreen(
        '/vehicles',
        <>
          <VehicleListPage />
          <AppNotification />
        </>,
      );
      expect(await screen.findByText('R0')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Export' }));
      expect(await screen.findByText('Exported the first 4 of 150 vehicles. Search to export the rest.')).toBeTruthy();
      expect(blobs).toHaveLength(1);
    });
  });
});
