import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { aUser } from '../../test/builders';
import { renderScreen } from '../../test/renderScreen';
import { jsonBody, stubApi, type Reply } from '../../test/stubFetch';

const depot = { id: 1, name: 'Depot', state: 'VIC', agent_id: 3 };
const yard = { id: 2, name: 'Yard', state: 'NSW', agent_id: 3 };

/**
 * A signed-in Agent user of agent 3 with `location` (sites are an agent's to change); `answer` handles the calls under
 * test, the shell's own calls get empty replies.
 */
function signedIn(answer: (request: string, body: unknown) => Reply | undefined, permissions = ['location']) {
  const user = aUser({ permissions, agents: [3], clients: [] });
  localStorage.setItem('currentUser', JSON.stringify(user));
  return stubApi((request, body) => {
    if (request === 'GET /api/user/auth/user') return { body: { data: user } };
    if (request.endsWith('/lists')) return { body: [] };
    return answer(request, body);
  });
}

describe('described list screen', () => {
  it('shows the server page with the description columns, search box, Create and row actions', async () => {
    const fetch = signedIn((request) =>
      request.startsWith('GET /api/agent/locations?') ? { body: { items: [depot, yard], total: 2 } } : undefined,
    );
    renderScreen('/locations', { resources: ['locations'] });
    expect(await screen.findByText('Depot')).toBeTruthy();
    // The spec's columns: Name, Action.
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Action']);
    expect(screen.getByPlaceholderText('Search Location')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Edit' }).map((a) => a.getAttribute('href'))).toEqual(['/locations/1', '/locations/2']);
    expect(screen.getByRole('link', { name: 'Create' }).getAttribute('href')).toBe('/locations/create');
    const listCall = fetch.mock.calls.map(([url]) => url).find((url) => url.startsWith('/api/agent/locations?'));
    expect(listCall).toMatch(/page=1&per_page=10&sort=name&order=asc/);
    // The sorted column's heading says so to assistive technology, not only by its arrow.
    const sorted = screen.getAllByRole('columnheader').filter((h) => h.hasAttribute('aria-sort'));
    expect(sorted.map((h) => [h.textContent, h.getAttribute('aria-sort')])).toEqual([['Name', 'ascending']]);
  });

  it("names the page buttons' landmark in the user's words, not MUI's 'pagination navigation'", async () => {
    signedIn((request) => (request.startsWith('GET /api/agent/locations?') ? { body: { items: [depot, yard], total: 25 } } : undefined));
    renderScreen('/locations', { resources: ['locations'] });
    const pages = await screen.findByRole('navigation', { name: 'Pagination' });
    expect(within(pages).getByRole('button', { name: 'Go to page 2' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'pagination navigation' })).toBeNull();
  });

  it('keeps the previous rows dimmed and the table busy while the next page is on its way, then shows that page', async () => {
    const shed = { id: 11, name: 'Shed', state: 'QLD', agent_id: 3 };
    const inner = signedIn((request) =>
      request.startsWith('GET /api/agent/locations?')
        ? { body: { items: request.includes('page=2') ? [shed] : [depot, yard], total: 11 } }
        : undefined,
    );
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (url.includes('page=2')) await gate;
      return inner(url, init);
    });
    renderScreen('/locations', { resources: ['locations'] });
    expect(await screen.findByText('Depot')).toBeTruthy();
    const table = () => screen.getByRole('table');
    expect(table().getAttribute('aria-busy')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Go to page 2' }));
    await waitFor(() => expect(table().getAttribute('aria-busy')).toBe('true'));
    expect(screen.getByText('Depot')).toBeTruthy();
    release();
    expect(await screen.findByText('Shed')).toBeTruthy();
    await waitFor(() => expect(table().getAttribute('aria-busy')).toBe('false'));
    expect(screen.queryByText('Depot')).toBeNull();
  });

  it('says why a page failed to load, with Try again, instead of an empty table', async () => {
    let failing = true;
    signedIn((request) => {
      if (!request.startsWith('GET /api/agent/locations?')) return undefined;
      if (request.includes('page=2') && failing) return { status: 503, body: { error: 'Service Unavailable' } };
      return { body: { items: request.includes('page=2') ? [{ ...depot, id: 11, name: 'Shed' }] : [depot, yard], total: 11 } };
    });
    renderScreen('/locations', { resources: ['locations'] });
    expect(await screen.findByText('Depot')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Go to page 2' }));
    expect(await screen.findByText('The list could not be loaded: Server Error!')).toBeTruthy();
    expect(screen.queryByText(/No .* found/i)).toBeNull();
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Shed')).toBeTruthy();
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
  });

  it("deletes after 'Yes, delete it!', reloads the list and says 'Deleted Successfully'", async () => {
    let rows = [depot, yard];
    const fetch = signedIn((request) => {
      if (request.startsWith('GET /api/agent/locations?')) return { body: { items: rows, total: rows.length } };
      if (request === 'DELETE /api/agent/locations/1') {
        rows = [yard];
        return { body: { data: depot } };
      }
      return undefined;
    });
    renderScreen('/locations', { resources: ['locations'] });
    await screen.findByText('Depot');
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete' })[0]);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('are you sure ?')).toBeTruthy();
    // The safe answer holds the focus: an Enter pressed on the row's Delete button never deletes.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'No, cancel!' })));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete it!' }));
    expect(await screen.findByText('Deleted Successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Depot')).toBeNull());
    expect(fetch.mock.calls.some(([url, init]) => url === '/api/agent/locations/1' && init?.method === 'DELETE')).toBe(true);
  });

  it('keeps the dialog open and shows the server message when the delete is refused', async () => {
    signedIn((request) => {
      if (request.startsWith('GET /api/agent/locations?')) return { body: { items: [depot], total: 1 } };
      if (request === 'DELETE /api/agent/locations/1') return { status: 403, body: { error: 'This action is unauthorized.' } };
      return undefined;
    });
    renderScreen('/locations', { resources: ['locations'] });
    await screen.findByText('Depot');
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, delete it!' }));
    expect(await screen.findByText('This action is unauthorized.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('sends a user without the permission to /', async () => {
    const fetch = signedIn(() => undefined, ['scan']);
    const { location } = renderScreen('/locations', { resources: ['locations'] });
    await waitFor(() => expect(location.pathname).toBe('/'));
    expect(fetch.mock.calls.some(([url]) => url.startsWith('/api/agent/locations'))).toBe(false);
  });
});

describe('described form screen', () => {
  it("creates at /locations/create: translated required messages, then 'Created Successfully' back on the list", async () => {
    const fetch = signedIn((request, body) => {
      if (request === 'POST /api/agent/locations') return { status: 201, body: { data: { id: 5, ...(body as object) } } };
      if (request.startsWith('GET /api/agent/locations?')) return { body: { items: [], total: 0 } };
      return undefined;
    });
    const { location } = renderScreen('/locations/create', { resources: ['locations'] });
    expect(await screen.findByText('Create Location')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('State is required')).toBeTruthy();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Depot' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /^State/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'VIC - Victoria - AU' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Created Successfully')).toBeTruthy();
    await waitFor(() => expect(location.pathname).toBe('/locations'));
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(jsonBody(post?.[1])).toMatchObject({ name: 'Depot', state: 'VIC' });
  });

  it('shows a 422 field message under its input', async () => {
    signedIn((request) =>
      request === 'POST /api/agent/locations' ? { status: 422, body: { error: { name: 'Name has already been taken.' } } } : undefined,
    );
    renderScreen('/locations/create', { resources: ['locations'] });
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Depot' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /^State/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'NSW - New South Wales - AU' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Name has already been taken.')).toBeTruthy();
  });

  it("edits at /locations/{id} and says 'Updated Successfully'", async () => {
    const fetch = signedIn((request) => {
      if (request === 'GET /api/agent/locations/1') return { body: { data: depot } };
      if (request === 'PUT /api/agent/locations/1') return { body: { data: { ...depot, name: 'Main depot' } } };
      if (request.startsWith('GET /api/agent/locations?')) return { body: { items: [], total: 0 } };
      return undefined;
    });
    const { location } = renderScreen('/locations/1', { resources: ['locations'] });
    expect(await screen.findByText('Update Location')).toBeTruthy();
    const name = await screen.findByDisplayValue('Depot');
    fireEvent.change(name, { target: { value: 'Main depot' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Updated Successfully')).toBeTruthy();
    await waitFor(() => expect(location.pathname).toBe('/locations'));
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(jsonBody(put?.[1])).toMatchObject({ id: 1, name: 'Main depot', state: 'VIC' });
  });

  it("says 'Location Not Found' for a missing record and returns to the list after 300 ms", async () => {
    signedIn((request) => {
      if (request === 'GET /api/agent/locations/42') return { status: 404, body: { error: 'No query results for model [Location] 42' } };
      if (request.startsWith('GET /api/agent/locations?')) return { body: { items: [], total: 0 } };
      return undefined;
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { location } = renderScreen('/locations/42', { resources: ['locations'] });
    expect(await screen.findByText('Location Not Found')).toBeTruthy();
    expect(location.pathname).toBe('/locations/42');
    await waitFor(() => expect(location.pathname).toBe('/locations'));
  });
});
