import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
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
});
