import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { aUser } from '../../test/builders';
import { renderScreen } from '../../test/renderScreen';
import { path } from '.';
import { stubApi } from '../../test/stubFetch';

function signedIn() {
  const user = aUser({ roles: ['Agent'], permissions: ['user'], agents: [3], clients: [] });
  localStorage.setItem('currentUser', JSON.stringify(user));
  const saved: unknown[] = [];
  const fetch = stubApi((request, body) => {
    if (request === 'GET /api/user/auth/user') return { body: { data: user } };
    if (request.endsWith('/lists')) return { body: [] };
    if (request === 'PUT /api/user/auth/profile') {
      saved.push(body);
      return { body: { data: { ...user, ...(body as object) } } };
    }
    return undefined;
  });
  return { fetch, saved };
}

const field = (name: string) => screen.findByLabelText(name, { exact: false });

describe('Update Profile', () => {
  it('asks for the current password when the e-mail changes, and sends it', async () => {
    const { saved } = signedIn();
    renderScreen('/update-profile', { pages: [path] });
    fireEvent.change(await field('Email'), { target: { value: 'new.address@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Current Password is required to change the email')).toBeTruthy();
    expect(saved).toEqual([]);

    fireEvent.change(await field('Current Password'), { target: { value: 'my-password-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ email: 'new.address@example.com', current_password: 'my-password-1' });
  });

  it('saves a name change without the current password', async () => {
    const { saved } = signedIn();
    renderScreen('/update-profile', { pages: [path] });
    fireEvent.change(await field('First Name'), { target: { value: 'Augusta' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({ first_name: 'Augusta', last_name: 'Lovelace', email: 'ada@example.com' });
  });

  it('keeps the typed name, never the passwords, when the session ends under the form', async () => {
    const user = aUser({ roles: ['Agent'], permissions: ['user'], agents: [3], clients: [] });
    localStorage.setItem('currentUser', JSON.stringify(user));
    stubApi((request) => {
      if (request === 'GET /api/user/auth/user') return { body: { data: user } };
      if (request.endsWith('/lists')) return { body: [] };
      if (request === 'PUT /api/user/auth/profile') return { status: 401, body: { error: 'Unauthenticated.' } };
      return undefined;
    });
    const { location, navigate } = renderScreen('/update-profile', { pages: [path] });
    fireEvent.change(await field('First Name'), { target: { value: 'Augusta' } });
    fireEvent.change(await screen.findByLabelText(/^Password/), { target: { value: 'a-new-password-9' } });
    fireEvent.change(await field('Current Password'), { target: { value: 'my-password-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(location.pathname).toBe('/login'));
    const kept = Object.values({ ...sessionStorage }).join(' ');
    expect(kept).toContain('Augusta');
    expect(kept).not.toContain('password');

    localStorage.setItem('currentUser', JSON.stringify(user));
    act(() => navigate('/update-profile'));
    expect(await screen.findByDisplayValue('Augusta')).toBeTruthy();
    expect((await screen.findByLabelText<HTMLInputElement>(/^Password/)).value).toBe('');
    expect(((await field('Current Password')) as HTMLInputElement).value).toBe('');
  });
});
