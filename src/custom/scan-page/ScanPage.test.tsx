import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ArchData, ScanDetail } from '../../domain/records';
import type { CurrentUser } from '../../session';
import { aScan, aUser } from '../../test/builders';
import { renderScreen } from '../../test/renderScreen';
import { QueryClient } from '@tanstack/react-query';
import { dataProvider } from '../../providers';
import { agentPath, path, prefetch } from '.';
import { callsTo, stubApi, type Reply } from '../../test/stubFetch';

// No live connection in a screen test.
vi.mock('../../realtime/instance', () => ({
  realtime: { subscribeScan: () => () => undefined, listen: () => () => undefined, disconnect: () => undefined },
  postJson: () => Promise.resolve(),
}));

const LEVELS = { light: 0, medium: 0, heavy: 0, severe: 0, oversize: 0 };
const tyre = (direction: 'L' | 'R', label: string, row = 1): ScanDetail['data'][number] => ({
  id: 2 * row + (direction === 'L' ? -1 : 0),
  row,
  direction,
  position: 'O',
  label,
  depths: [8, 8, 8],
  measurementImageUrl: null,
  imageFileUrl: `/api/user/files/${label.toLowerCase().replace(' ', '-')}.jpg`,
  coordinates: null,
  conclusionDescription: { eatenTire: 'NONE', pressureTire: 'NONE' },
});

/** Scan 42: an arch scan with a dented bonnet, a saved image and a vehicle photo, a video, and a report. */
const archScan: ScanDetail = {
  ...aScan({ id: 42, scan_id: 's-42', type: 'arch', status: 'uploaded', dentCount: 3, damageCount: 3, agent_id: 3 }),
  meta: null,
  arch: {},
  chasis: null,
  tire: null,
  rims: null,
  damages: [],
  measures: { dents: { bonnet: { ...LEVELS, light: 2, heavy: 1 } }, scratchs: {}, damage_count: { bonnet: 3 } },
  data: [],
  videos: [{ id: 1, video_id: 'v-1', src: '/api/user/files/v1.webm', thumbnail: null }],
  annotates: [
    { id: 5, src: '/api/user/files/a5.jpg', path: 'a5.jpg', vehicle_photo: false },
    { id: 6, src: '/api/user/files/a6.jpg', path: 'a6.jpg', vehicle_photo: true },
  ],
  report_pdfs: [{ label: 'View Scan Report', url: '/api/user/files/r42.pdf', path: 'r42.pdf' }],
  pdf: 'r42.pdf',
  pdf_url: '/api/user/files/r42.pdf',
  pdf_path: 'r42.pdf',
  tyre_repairs: [],
};

/** Scan 43: a manual tyre scan with the front and rear wheels, the front left one chosen for replacement. */
const tyreScan: ScanDetail = {
  ...archScan,
  ...aScan({ id: 43, scan_id: 's-43', type: 'tire', status: 'uploaded', dentCount: 0, damageCount: 0, agent_id: 3 }),
  arch: null,
  tire: {},
  measures: { dents: {}, scratchs: {}, damage_count: {} },
  data: [tyre('L', 'FRONT LEFT'), tyre('R', 'FRONT RIGHT'), tyre('L', 'REAR LEFT', 2), tyre('R', 'REAR RIGHT', 2)],
  videos: [],
  annotates: [],
  tyre_repairs: [{ row: 1, direction: 'L', position: 'left', label: 'FRONT LEFT', repair_type: 'replace', repair_label: 'Replace' }],
};

const arch: ArchData = {
  scan_id: 42,
  type: 'arch',
  countbymeasure: archScan.measures,
  panel_groups: [
    {
      id: 1,
      name: 'Front',
      image: null,
      position: 1,
      dent_total: 3,
      scratch_total: 0,
      dents: { ...LEVELS, light: 2, heavy: 1 },
      scratchs: LEVELS,
      panels: [{ id: 1, name: 'Bonnet', label: 'Bonnet', carPanel: 'bonnet', type: 'D', position: 1, dent_count: 3, scratch_count: 0 }],
    },
  ],
  unplaced: [],
};

const savedQuote = {
  id: 9,
  scan_id: 42,
  grant_total: 1259.5,
  currency: '$',
  manual_check: 1,
  pdf_url: '/api/user/files/q9.pdf',
  items: {},
};

/** A Client user (the role holds `scan` alone), an Agent user and a Super Admin (both also `scan_edit`, `quote_edit`). */
const READER: Partial<CurrentUser> = { roles: ['Client'], permissions: ['scan', 'dashboard_statistics'], agents: [], clients: [2] };
const ADMIN: Partial<CurrentUser> = { roles: ['Super Admin'], permissions: ['scan', 'scan_edit', 'quote_edit'], agents: [], clients: [] };

function signedIn(who: Partial<CurrentUser>, answer: (request: string) => Reply | undefined = () => undefined) {
  const user = aUser(who);
  localStorage.setItem('currentUser', JSON.stringify(user));
  return stubApi((request) => {
    if (request === 'GET /api/user/auth/user') return { body: { data: user } };
    if (request.endsWith('/lists')) return { body: [] };
    // The test's own replies come before the shared ones.
    const own = answer(request);
    if (own) return own;
    if (request === 'GET /api/scan/scans/42') return { body: { data: archScan } };
    if (request === 'GET /api/scan/scans/43') return { body: { data: tyreScan } };
    if (request === 'GET /api/scan/archData/search?scan_id=42') return { body: { data: arch } };
    if (request === 'POST /api/quote/quotes/search') return { body: { data: savedQuote } };
    return undefined;
  });
}

const section = (name: string) => within(screen.getByRole('region', { name }));
// The sections below the sketch and the car render after the page's first paint (a transition).
const laterSection = async (name: string) => within(await screen.findByRole('region', { name }));

// The whole app renders lazily per test: slow on a busy 2-core machine.
describe('scan page: viewing and changing', { timeout: 90_000 }, () => {
  it('shows a user without scan_edit and quote_edit the scan with no control that changes it', async () => {
    const fetch = signedIn(READER);
    renderScreen('/scans/42', { pages: [path, agentPath] });
    expect(await screen.findByRole('region', { name: 'Car Details' }, { timeout: 40_000 })).toBeTruthy();
    // No pencils, no registration fetch, no refresh.
    expect(screen.queryAllByRole('button', { name: /^Edit / })).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Fetch vehicle details' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Refresh' })).toBeNull();
    expect(section('Car Details').getByText('Toyota')).toBeTruthy();

    // Saved images: viewed, never cropped, annotated or deleted.
    const saved = await laterSection('Saved Images');
    expect(saved.queryByRole('button', { name: /^Delete image/ })).toBeNull();
    fireEvent.click(saved.getByRole('button', { name: 'Actions for image 1' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual(['View', 'Info']);
    fireEvent.keyDown(menu, { key: 'Escape' });

    // The video plays; no frame is captured for saving.
    expect(section('Scan Video').queryByRole('button', { name: 'Capture frame' })).toBeNull();

    // The damage modal shows the counts, with nothing to save.
    fireEvent.click(await screen.findByRole('button', { name: 'Bonnet: 3 dents' }));
    const modal = await screen.findByRole('dialog', { name: 'Bonnet' });
    expect(within(modal).queryAllByRole('spinbutton')).toEqual([]);
    expect(within(modal).queryByRole('button', { name: 'Save counts' })).toBeNull();
    expect(within(within(modal).getByTestId('counts-dents')).getByText('2')).toBeTruthy();
    fireEvent.click(within(modal).getByRole('button', { name: 'Close' }));

    // The quote check is stated, not asked for.
    expect(await section('Quote').findByText('A check of this quote has been requested.')).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Request quote check' })).toBeNull();
    // Nothing but reads was asked.
    const writes = fetch.mock.calls.filter(([url, init]) => (init?.method ?? 'GET') !== 'GET' && url !== '/api/quote/quotes/search');
    expect(writes).toEqual([]);
  });

  it('gives a user with scan_edit and quote_edit the pencils, image actions, capture, counts and the quote check', async () => {
    signedIn(ADMIN);
    renderScreen('/scans/42', { pages: [path, agentPath] });
    expect(await screen.findByRole('region', { name: 'Car Details' }, { timeout: 40_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit Make' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Fetch vehicle details' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
    expect((await laterSection('Saved Images')).getByRole('button', { name: 'Delete image 1' })).toBeTruthy();
    fireEvent.click(section('Saved Images').getByRole('button', { name: 'Actions for image 1' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual(['View', 'Crop', 'Annotation', 'Info']);
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(section('Scan Video').getByRole('button', { name: 'Capture frame' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Bonnet: 3 dents' }));
    const modal = await screen.findByRole('dialog', { name: 'Bonnet' });
    expect(within(modal).getByRole('spinbutton', { name: 'Dents Light' })).toBeTruthy();
    expect(within(modal).getByRole('button', { name: 'Save counts' })).toBeTruthy();
    fireEvent.click(within(modal).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Request quote check' }).checked).toBe(true));
    // The normal viewer's Quote Evaluation opens Quote Generation without an agent.
    expect(screen.getByRole('link', { name: 'Quote Evaluation' }).getAttribute('href')).toBe('/quotes/42');
  });

  it("reads the scan and its sketch's data asked for at the app's start, without asking again", async () => {
    const fetch = signedIn(ADMIN);
    const queryClient = new QueryClient();
    prefetch({ scanId: '42' }, { queryClient, dataProvider });
    expect(callsTo(fetch, '/api/scan/')).toEqual(['/api/scan/scans/42', '/api/scan/archData/search?scan_id=42']);
    renderScreen('/scans/42', { pages: [path, agentPath], queryClient });
    expect(await screen.findByRole('button', { name: 'Bonnet: 3 dents' }, { timeout: 40_000 })).toBeTruthy();
    await laterSection('Saved Images');
    expect(callsTo(fetch, '/api/scan/scans/42').filter((url) => url === '/api/scan/scans/42')).toHaveLength(1);
    expect(callsTo(fetch, '/api/scan/archData/')).toEqual(['/api/scan/archData/search?scan_id=42']);
  });

  it("keeps the agent on the agent viewer's Quote Evaluation link", async () => {
    signedIn(ADMIN, (request) =>
      request === 'GET /api/scan/scans/42/evaluate' ? { status: 500, body: { error: 'Server Error!' } } : undefined,
    );
    renderScreen('/scans/42/3', { pages: [path, agentPath] });
    expect(await screen.findByRole('link', { name: 'Quote Evaluation' }, { timeout: 40_000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Quote Evaluation' }).getAttribute('href')).toBe('/quotes/42/agents/3');
    expect(screen.queryByRole('checkbox', { name: 'Request quote check' })).toBeNull();
  });

  it("shows the agent viewer's tyre choices and quote to a user without the permissions, and lets an editor choose", async () => {
    signedIn(READER);
    const view = renderScreen('/scans/43/3', { pages: [path, agentPath] });
    expect(await screen.findByText('Decision: Replace', undefined, { timeout: 40_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Replace' })).toBeNull();
    expect(screen.queryByRole('group', { name: /^Repair type for/ })).toBeNull();
    // The saved quote, with its invoice and PDF; no form.
    const quote = await laterSection('Quote');
    expect(await quote.findByText('Saved quote #9: Grand Total $1,259.50')).toBeTruthy();
    expect(quote.getByRole('link', { name: 'Open the invoice' }).getAttribute('href')).toBe('/quotes/9/invoice');
    expect(quote.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe('/api/user/files/q9.pdf');
    expect(quote.queryByRole('button', { name: 'Save and Generate Quote' })).toBeNull();
    view.unmount();

    signedIn(ADMIN);
    renderScreen('/scans/43/3', { pages: [path, agentPath] });
    const choices = await screen.findByRole('group', { name: 'Repair type for FRONT LEFT' }, { timeout: 40_000 });
    expect(within(choices).getByRole('button', { name: 'Replace' }).getAttribute('aria-pressed')).toBe('true');
  });

  it("fetches the first axle's pictures at once, the front left one first, and the others as they near the screen", async () => {
    signedIn(READER);
    renderScreen('/scans/43', { pages: [path, agentPath] });
    const frontLeft = await screen.findByRole('img', { name: 'FRONT LEFT image' }, { timeout: 40_000 });
    expect(frontLeft.getAttribute('fetchpriority')).toBe('high');
    expect(frontLeft.getAttribute('loading')).toBeNull();
    const frontRight = screen.getByRole('img', { name: 'FRONT RIGHT image' });
    expect(frontRight.getAttribute('loading')).toBeNull();
    expect(frontRight.getAttribute('fetchpriority')).toBeNull();
    for (const rear of ['REAR LEFT image', 'REAR RIGHT image'])
      expect(screen.getByRole('img', { name: rear }).getAttribute('loading')).toBe('lazy');
  });

  it('marks the panel with new damage since the last scan, shows the two scans side by side and links the vehicle', async () => {
    const comparison = {
      previous_scan_id: 41,
      previous_scanned_at: '2024-05-01T02:00:00.000Z',
      differences: [
        {
          carPanel: 'bonnet',
          type: 'dents',
          change: 'worsened',
          levels: [{ carPanel: 'bonnet', type: 'dents', level: 'light', before: 0, after: 2, delta: 2, change: 'new' }],
        },
      ],
      summary: 'Bonnet +2 light dents',
      has_new_damage: true,
    };
    const closeUp = (id: number, scanId: number) => ({
      id,
      damage_id: `d-${id}`,
      src: `/api/user/files/d${id}.jpg`,
      path: `d${id}.jpg`,
      type: 'dents',
      carPanel: 'bonnet',
      level: 'light',
      width_mm: 10 + scanId,
      height_mm: 10,
      data: [],
    });
    const current = { ...archScan, vehicle_id: 7, damages: [closeUp(1, 42)] };
    signedIn(ADMIN, (request) => {
      if (request === 'GET /api/scan/scans/42') return { body: { data: current } };
      if (request === 'GET /api/scan/scans/42/comparison') return { body: { data: comparison } };
      if (request === 'GET /api/scan/scans/41') return { body: { data: { ...archScan, id: 41, damages: [closeUp(2, 41)] } } };
      return undefined;
    });
    renderScreen('/scans/42', { pages: [path, agentPath] });
    const marker = await screen.findByRole('button', { name: 'Bonnet: 2 new since the last scan' }, { timeout: 40_000 });
    expect(marker.textContent).toBe('+2');
    expect(screen.getByText('New since the last scan')).toBeTruthy();
    expect(section('Car Details').getByRole('link', { name: '1AB2CD' }).getAttribute('href')).toBe('/vehicles/7');

    fireEvent.click(marker);
    const dialog = within(await screen.findByRole('dialog', { name: 'Bonnet: this scan and the last' }));
    const last = within(await dialog.findByRole('region', { name: 'Last scan, 01-05-2024' }));
    expect(await last.findByRole('img', { name: 'Bonnet — Light dent — 51 × 10 mm' })).toBeTruthy();
    const now = within(dialog.getByRole('region', { name: /^This scan, / }));
    expect(now.getByRole('img', { name: 'Bonnet — Light dent — 52 × 10 mm' })).toBeTruthy();
  });
});
