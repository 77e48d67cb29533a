import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { aUser } from '../../test/builders';
import { renderScreen } from '../../test/renderScreen';
import { DashboardPage } from '../dashboard';
import { stubApi } from '../../test/stubFetch';

const agents = [
  { text: 'Melbourne Auto Scan', value: 1 },
  { text: 'Harbour City Drive-Through', value: 2 },
];
const branding = { id: 2, name: 'Harbour City Drive-Through', primary_color: '#114477', text_color: '#ffffff', logo: null };

function signedInAgent() {
  const user = aUser({ roles: ['Agent'], permissions: ['location'], agents: [2], clients: [] });
  localStorage.setItem('currentUser', JSON.stringify(user));
  return stubApi((request) => {
    if (request === 'GET /api/user/auth/user') return { body: { data: user } };
    if (request === 'GET /api/agent/agents/lists') return { body: agents };
    if (request === 'GET /api/quote/clients/lists') return { body: [] };
    if (request === 'GET /api/agent/agents/2/branding') return { body: { data: branding } };
    if (request.startsWith('GET /api/agent/locations?')) return { body: { items: [], total: 0 } };
    return undefined;
  });
}

/** The shell around the locations list, and the dashboard 'All' leads to. */
const renderShell = (path: string) => renderScreen(path, { resources: ['locations'], dashboard: DashboardPage, layout: true });

const stored = (key: string): unknown => JSON.parse(localStorage.getItem(key) ?? 'null');

describe('header agent selector', () => {
  it("drops another user's stale selection and picks the user's first agent with its branding", async () => {
    localStorage.setItem('selectedAgent', '99');
    const fetch = signedInAgent();
    renderShell('/');
    await waitFor(() => expect(stored('selectedAgent')).toBe(2));
    await waitFor(() => expect(stored('selectedAgentDetails')).toMatchObject({ id: 2, primaryColor: '#114477', textColor: '#ffffff' }));
    expect(fetch.mock.calls.some(([url]) => url === '/api/agent/agents/2/branding')).toBe(true);
  });

  it("keeps a visible stored selection, and 'All' clears it and the branding", async () => {
    localStorage.setItem('selectedAgent', '1');
    localStorage.setItem(
      'selectedAgentDetails',
      JSON.stringify({ id: 1, name: 'Melbourne Auto Scan', primaryColor: '#222222', textColor: '' }),
    );
    signedInAgent();
    renderShell('/locations');
    const select = await screen.findByRole('combobox', { name: 'Agent' });
    await waitFor(() => expect(select.textContent).toBe('Melbourne Auto Scan'));
    expect(stored('selectedAgent')).toBe(1);

    fireEvent.mouseDown(select);
    fireEvent.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'All' }));
    await waitFor(() => expect(stored('selectedAgent')).toBeNull());
    expect(stored('selectedAgentDetails')).toBeNull();
    expect(await screen.findByRole('heading', { name: "Today's Scans" })).toBeTruthy();
  });
});
