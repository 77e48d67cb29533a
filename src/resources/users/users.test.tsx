import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { aUser } from '../../test/builders';
import { renderScreen } from '../../test/renderScreen';
import { jsonBody, stubApi, type Reply } from '../../test/stubFetch';

const admin = aUser({
  id: 1,
  roles: ['Super Admin'],
  permissions: ['user', 'location'],
  agents: [],
  clients: [],
  first_name: 'Ada',
  last_name: 'Admin',
  name: 'Ada Admin',
});
const alex = {
  id: 2,
  first_name: 'Alex',
  last_name: 'Agent',
  email: 'agent@demo.test',
  roles: ['Agent'],
  agents: [1],
  clients: [],
  has_api_key: false,
  created_at: '2026-03-04T01:02:00.000Z',
};
const ada = {
  id: 1,
  first_name: 'Ada',
  last_name: 'Admin',
  email: 'admin@demo.test',
  roles: ['Super Admin'],
  agents: [],
  clients: [],
  has_api_key: false,
  created_at: '2026-03-04T01:02:00.000Z',
};

function signedIn(answer: (request: string, body: unknown) => Reply | undefined, user = admin) {
  localStorage.setItem('currentUser', JSON.stringify(user));
  return stubApi((request, body) => {
    if (request === 'GET /api/user/auth/user') return { body: { data: user } };
    if (request === 'GET /api/user/roles/lists') return { body: ['Agent', 'Client', 'Super Admin'].map((r) => ({ text: r, value: r })) };
    if (request === 'GET /api/agent/agents/lists') return { body: [{ text: 'Melbourne Auto Scan', value: 1 }] };
    if (request === 'GET /api/quote/clients/lists') return { body: [{ text: 'Southern Cross', value: 4 }] };
    if (request.endsWith('/lists')) return { body: [] };
    if (request === 'GET /api/agent/agents/1/branding')
      return { body: { data: { id: 1, name: 'Melbourne Auto Scan', primary_color: '#0c1839', text_color: '#ffffff', logo: null } } };
    return answer(request, body);
  });
}

const posted = (fetch: ReturnType<typeof stubApi>, method: string) => {
  const call = fetch.mock.calls.find(([, init]) => init?.method === method);
  return call ? (jsonBody(call[1]) as Record<string, unknown>) : undefined;
};

async function chooseRole(name: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: /^Roles/ }));
  fireEvent.click(await screen.findByRole('option', { name }));
}

describe('users list', { timeout: 20_000 }, () => {
  it('shows the expected columns, Created as a date-time, impersonate only on other non-admin rows, no delete on my own', async () => {
    signedIn((request) => (request.startsWith('GET /api/user/users?') ? { body: { items: [alex, ada], total: 2 } } : undefined));
    renderScreen('/users', { resources: ['users'] });
    expect(await screen.findByText('Alex')).toBeTruthy();
    expect(screen.getByPlaceholderText('Search User')).toBeTruthy();
    for (const name of ['First Name', 'Last Name', 'Email', 'Roles', 'Created', 'Action'])
      expect(screen.getByRole('columnheader', { name })).toBeTruthy();
    // 01:02 UTC is 12:02 PM in Melbourne (daylight time).
    expect(screen.getAllByText('04-03-2026 12:02 PM')).toHaveLength(2);
    const rows = screen.getAllByRole('row');
    expect(await within(rows[1]).findByRole('button', { name: 'Impersonate' })).toBeTruthy();
    expect(within(rows[2]).queryByRole('button', { name: 'Impersonate' })).toBeNull();
    // The signed-in admin's own account cannot be deleted (the server refuses it): no trash icon on that row.
    expect(within(rows[1]).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(within(rows[2]).queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('offers no impersonation while impersonating', async () => {
    localStorage.setItem('impersonatedUser', '9');
    signedIn((request) => (request.startsWith('GET /api/user/users?') ? { body: { items: [alex], total: 1 } } : undefined));
    renderScreen('/users', { resources: ['users'] });
    await screen.findByText('Alex');
    await screen.findAllByRole('link', { name: 'Edit' });
    expect(screen.queryByRole('button', { name: 'Impersonate' })).toBeNull();
  });
});

describe('impersonation', { timeout: 20_000 }, () => {
  const assign = vi.fn();
  afterEach(() => assign.mockReset());

  it('stores the admin id, becomes the returned user and reloads on / with the toast pending', async () => {
    vi.stubGlobal('location', { ...window.location, assign, pathname: '/users' });
    const token = { ...aUser({ id: 2, token: 'impersonation', roles: ['Agent'], permissions: ['scan'], agents: [1] }) };
    const fetch = signedIn((request) => {
      if (request.startsWith('GET /api/user/users?')) return { body: { items: [alex], total: 1 } };
      if (request === 'GET /api/user/auth/impersonate/take/2') return { body: { data: token, impersonator_id: 1 } };
      return undefined;
    });
    renderScreen('/users', { resources: ['users'] });
    fireEvent.click(await screen.findByRole('button', { name: 'Impersonate' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(JSON.parse(localStorage.getItem('impersonatedUser') ?? 'null')).toBe(1);
    expect(JSON.parse(localStorage.getItem('currentUser') ?? '{}')).toMatchObject({ id: 2, token: 'impersonation', permissions: ['scan'] });
    expect(sessionStorage.getItem('pendingToast')).toBe('resources.users.impersonate.done');
    expect(fetch.mock.calls.some(([url]) => url === '/api/user/auth/impersonate/take/2')).toBe(true);
  });

  it("says 'Failed to impersonate user' and drops the marker when the server refuses", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    signedIn((request) => {
      if (request.startsWith('GET /api/user/users?')) return { body: { items: [alex], total: 1 } };
      if (request === 'GET /api/user/auth/impersonate/take/2')
        return { status: 403, body: { error: 'You cannot impersonate another Super Admin.' } };
      return undefined;
    });
    renderScreen('/users', { resources: ['users'] });
    fireEvent.click(await screen.findByRole('button', { name: 'Impersonate' }));
    expect(await screen.findByText('Failed to impersonate user')).toBeTruthy();
    expect(localStorage.getItem('impersonatedUser')).toBeNull();
    expect(JSON.parse(localStorage.getItem('currentUser') ?? '{}')).toMatchObject({ id: 1 });
  });

  it("shows 'Impersonated Successfully' after the reload", async () => {
    sessionStorage.setItem('pendingToast', 'resources.users.impersonate.done');
    signedIn(() => undefined);
    renderScreen('/');
    expect(await screen.findByText('Impersonated Successfully')).toBeTruthy();
    expect(sessionStorage.getItem('pendingToast')).toBeNull();
  });

  it('leaves from the account drawer: the admin comes back with its new token, the marker goes, / reloads', async () => {
    vi.stubGlobal('location', { ...window.location, assign, pathname: '/' });
    const impersonated = aUser({ id: 2, token: 'impersonation', roles: ['Agent'], permissions: ['scan'], agents: [1], name: 'Alex Agent' });
    localStorage.setItem('impersonatedUser', '1');
    signedIn(
      (request) =>
        request === 'GET /api/user/auth/impersonate/1/leave' ? { body: { data: { ...admin, token: 'fresh-admin-token' } } } : undefined,
      impersonated,
    );
    // The account drawer is the header's.
    renderScreen('/', { layout: true });
    fireEvent.click(await screen.findByRole('button', { name: 'My Account' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave Impersonate' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(localStorage.getItem('impersonatedUser')).toBeNull();
    expect(JSON.parse(localStorage.getItem('currentUser') ?? '{}')).toMatchObject({ id: 1, token: 'fresh-admin-token' });
    expect(sessionStorage.getItem('pendingToast')).toBe('app.account.left_impersonation');
  });
});

describe('user form', () => {
  it('asks for agents only with the Agent role, and deselecting the role clears them', async () => {
    const fetch = signedIn((request, body) => {
      if (request === 'POST /api/user/users') return { status: 201, body: { data: { id: 9, ...(body as object) } } };
      if (request.startsWith('GET /api/user/users?')) return { body: { items: [], total: 0 } };
      return undefined;
    });
    renderScreen('/users/create', { resources: ['users'] });
    expect(await screen.findByText('Create User')).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: /^Agents/ })).toBeNull();
    fireEvent.change(screen.getByLabelText(/^First Name/), { target: { value: 'Sam' } });
    fireEvent.change(screen.getByLabelText(/^Last Name/), { target: { value: 'Sales' } });
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'sam@example.com' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'longenough' } });
    await chooseRole('Agent');
    // Required with the role, so its label carries the asterisk as the always-required ones do.
    const labelOf = async (name: RegExp) =>
      (await screen.findByRole('combobox', { name })).closest('.MuiFormControl-root')?.querySelector('label')?.textContent;
    expect(await labelOf(/^Roles/)).toMatch(/^Roles\s\*$/);
    expect(await labelOf(/^Agents/)).toMatch(/^Agents\s\*$/);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Agents is required')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox', { name: /^Agents/ })));

    // Focused after the failed submit, the autocomplete may already be open: the arrow key opens it either way.
    fireEvent.keyDown(screen.getByRole('combobox', { name: /^Agents/ }), { key: 'ArrowDown' });
    fireEvent.click(await screen.findByRole('option', { name: 'Melbourne Auto Scan' }));
    // Deselect Agent: its chip's delete icon removes it, and the agents go with it.
    const roles = screen.getByRole('combobox', { name: /^Roles/ }).closest('.MuiAutocomplete-root') as HTMLElement;
    fireEvent.click(within(roles).getByTestId('CancelIcon'));
    await waitFor(() => expect(screen.queryByRole('combobox', { name: /^Agents/ })).toBeNull());
    await chooseRole('Client');
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /^Clients/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Southern Cross' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Created Successfully')).toBeTruthy();
    expect(posted(fetch, 'POST')).toMatchObject({ first_name: 'Sam', roles: ['Client'], agents: [], clients: [4], password: 'longenough' });
  }, 30_000);

  it('asks before replacing a working API key: Cancel sends nothing, the confirmation makes the new key', async () => {
    let made = 0;
    signedIn((request) => {
      if (request === 'GET /api/user/users/2') return { body: { data: { ...alex, has_api_key: true } } };
      if (request === 'GET /api/user/users/2/apikey') {
        made += 1;
        return { body: { data: { token: 'key-456' } } };
      }
      return undefined;
    });
    renderScreen('/users/2', { resources: ['users'] });
    await screen.findByDisplayValue('Alex');
    fireEvent.click(await screen.findByRole('button', { name: 'Generate New API Key' }));
    const confirm = await screen.findByRole('dialog', { name: 'Generate a new API key?' });
    expect(within(confirm).getByText(/The current key stops working at once/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Generate a new API key?' })).toBeNull());
    expect(made).toBe(0);
    expect(screen.queryByText('key-456')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Generate New API Key' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Generate a new API key?' })).getByRole('button', { name: 'Generate new key' }),
    );
    expect(await screen.findByText('key-456')).toBeTruthy();
    expect(made).toBe(1);
    // The focus goes on to the key's Copy button, not back to the page's start.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Copy' })));
  });

  it("lets a Super Admin set another user's password on edit, never their own", async () => {
    const fetch = signedIn((request, body) => {
      if (request === 'GET /api/user/users/2') return { body: { data: alex } };
      if (request === 'GET /api/user/users/1') return { body: { data: ada } };
      if (request === 'PUT /api/user/users/2') return { body: { data: { ...alex, ...(body as object) } } };
      if (request.startsWith('GET /api/user/users?')) return { body: { items: [], total: 0 } };
      return undefined;
    });
    const view = renderScreen('/users/2', { resources: ['users'] });
    await screen.findByDisplayValue('Alex');
    const password = await screen.findByLabelText(/^Password/);
    expect(screen.getByText("Leave blank to keep the user's password (at least 8 characters); a new one signs them out")).toBeTruthy();
    fireEvent.change(password, { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    fireEvent.change(password, { target: { value: 'a-new-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(posted(fetch, 'PUT')).toMatchObject({ first_name: 'Alex', password: 'a-new-password' }));
    view.unmount();

    renderScreen('/users/1', { resources: ['users'] });
    await screen.findByDisplayValue('Ada');
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
  });

  it("puts the server's field error under its input and the focus in it, once: typing elsewhere keeps the caret", async () => {
    signedIn((request) => {
      if (request === 'GET /api/user/users/2') return { body: { data: alex } };
      if (request === 'PUT /api/user/users/2') return { status: 422, body: { error: { email: 'Email has already been taken.' } } };
      return undefined;
    });
    renderScreen('/users/2', { resources: ['users'] });
    const first = await screen.findByDisplayValue('Alex');
    first.focus();
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Email has already been taken.')).toBeTruthy();
    const email = screen.getByLabelText(/^Email/);
    await waitFor(() => expect(document.activeElement).toBe(email));
    first.focus();
    fireEvent.change(first, { target: { value: 'Alexa' } });
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(document.activeElement).toBe(first);
  });

  it('offers a user manager who is not a Super Admin no password on edit', async () => {
    const manager = aUser({ id: 5, roles: ['Agent'], permissions: ['user'], agents: [1], clients: [] });
    signedIn((request) => (request === 'GET /api/user/users/2' ? { body: { data: alex } } : undefined), manager);
    renderScreen('/users/2', { resources: ['users'] });
    await screen.findByDisplayValue('Alex');
    expect(screen.queryByLabelText(/^Password/)).toBeNull();
  });

  it('lets a user manager who is not a Super Admin pick only the roles they hold, and keep those the user has', async () => {
    const manager = aUser({ id: 5, roles: ['Agent'], permissions: ['user'], agents: [1], clients: [] });
    const both = { ...alex, roles: ['Agent', 'Client'], clients: [4] };
    signedIn((request) => (request === 'GET /api/user/users/2' ? { body: { data: both } } : undefined), manager);
    const disabled = async () => {
      fireEvent.mouseDown(screen.getByRole('combobox', { name: /^Roles/ }));
      const options = await screen.findAllByRole('option');
      const state = Object.fromEntries(options.map((o) => [o.textContent, o.getAttribute('aria-disabled') === 'true']));
      fireEvent.keyDown(screen.getByRole('combobox', { name: /^Roles/ }), { key: 'Escape' });
      return state;
    };
    const { unmount } = renderScreen('/users/2', { resources: ['users'] });
    await screen.findByDisplayValue('Alex');
    // Agent and Client are chosen already: the list offers what is left, Super Admin, which the manager cannot grant.
    expect(await disabled()).toEqual({ 'Super Admin': true });
    unmount();
    renderScreen('/users/create', { resources: ['users'] });
    expect(await screen.findByText('Create User')).toBeTruthy();
    expect(await disabled()).toEqual({ Agent: false, Client: true, 'Super Admin': true });
  });

  it('generates an API key shown once, with Copied! for 5 seconds', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    signedIn((request) => {
      if (request === 'GET /api/user/users/2') return { body: { data: alex } };
      if (request === 'GET /api/user/users/2/apikey') return { body: { data: { token: 'key-123' } } };
      return undefined;
    });
    renderScreen('/users/2', { resources: ['users'] });
    expect(await screen.findByText('Update User')).toBeTruthy();
    await screen.findByDisplayValue('Alex');
    fireEvent.click(await screen.findByRole('button', { name: 'Generate API Key' }));
    expect(await screen.findByText('Token Generated')).toBeTruthy();
    expect(screen.getByText('key-123')).toBeTruthy();
    expect(screen.getByText('Copy the key now: it is shown only this once.')).toBeTruthy();

    vi.useFakeTimers();
    try {
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
      });
      expect(writeText).toHaveBeenCalledWith('key-123');
      expect(screen.getByRole('button', { name: 'Copied!' })).toBeTruthy();
      await act(() => vi.advanceTimersByTime(4900));
      expect(screen.getByRole('button', { name: 'Copied!' })).toBeTruthy();
      await act(() => vi.advanceTimersByTime(200));
      expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  }, 20_000);
});
