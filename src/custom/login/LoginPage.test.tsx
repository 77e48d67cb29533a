import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { aUser } from '../../test/builders';
import { renderScreen } from '../../test/renderScreen';
import { DashboardPage } from '../dashboard';
import { stubApi } from '../../test/stubFetch';

const user = aUser({ agents: [], clients: [] });

/** The calls a signed-in dashboard makes, answered empty. */
const signedInApi = (request: string) => {
  if (request === 'GET /api/user/auth/user') return { body: { data: { ...user, token: undefined } } };
  if (request.endsWith('/lists')) return { body: [] };
  return undefined;
};

/** The sign-in page, and the dashboard it opens. */
const renderLogin = () => renderScreen('/login', { dashboard: DashboardPage });
const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
/** The login page's code loads lazily; wait for it. */
const openLogin = async () => {
  const view = renderLogin();
  await screen.findByRole('button', { name: 'Sign In' });
  return view;
};
const signIn = () => fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

describe('/login', () => {
  it('blocks an empty submit with the rule messages and focuses the email', async () => {
    const fetch = stubApi(() => undefined);
    await openLogin();
    signIn();
    expect(await screen.findByText('Email is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('asks for a valid email address', async () => {
    stubApi(() => undefined);
    await openLogin();
    fill('Email', 'not-an-email');
    fill('Password', 'secret');
    signIn();
    expect(await screen.findByText('Enter a valid email address')).toBeTruthy();
  });

  it('toggles the password visibility', async () => {
    stubApi(() => undefined);
    await openLogin();
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');
  });

  it('signs in, stores the user, greets and opens the dashboard', async () => {
    const fetch = stubApi((request, body) => {
      if (request === 'POST /api/user/auth/login') {
        expect(body).toEqual({ email: 'ada@example.com', password: 'secret' });
        return { body: { data: user } };
      }
      return signedInApi(request);
    });
    const { location } = await openLogin();
    fill('Email', ' ada@example.com ');
    fill('Password', 'secret');
    signIn();
    expect(await screen.findByText('Login Successfully')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: "Today's Scans" })).toBeTruthy();
    expect(location.pathname).toBe('/');
    expect(JSON.parse(localStorage.getItem('currentUser') ?? 'null')).toMatchObject({ id: user.id, token: user.token });
    expect(fetch.mock.calls[0][0]).toBe('/api/user/auth/login');
  });

  it('shows the server message when the credentials are refused', async () => {
    stubApi((request) =>
      request === 'POST /api/user/auth/login'
        ? { status: 422, body: { error: { email: 'These credentials do not match our records.' } } }
        : undefined,
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await openLogin();
    fill('Email', 'ada@example.com');
    fill('Password', 'wrong');
    signIn();
    expect(await screen.findByText('These credentials do not match our records.')).toBeTruthy();
    expect(localStorage.getItem('currentUser')).toBeNull();
  });

  it('sends a signed-in user to /', async () => {
    localStorage.setItem('currentUser', JSON.stringify(user));
    stubApi(signedInApi);
    const { location } = renderLogin();
    await waitFor(() => expect(location.pathname).toBe('/'));
  });
});
