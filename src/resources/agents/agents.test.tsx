import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { aUser } from '../../test/builders';
import { renderScreen } from '../../test/renderScreen';
import { jsonBody, stubApi, type Reply } from '../../test/stubFetch';

const agent = {
  id: 1,
  name: 'Melbourne Auto Scan',
  logo: null,
  phone: '0391234567',
  email: 'hello@melb.test',
  address: '12 Smith St',
  portal_email_address: 'hello@melb.test',
  abn: '51824753556',
  has_pincode: true,
  is_enabled: 1,
  default_client_id: 4,
  default_client_name: 'Southern Cross',
  primary_color: '#0c1839',
  text_color: '#000000',
  blurb: null,
  language: 'en',
};
const hook = {
  id: 7,
  agent_id: 1,
  endpoint: 'https://hooks.example.test/scans',
  description: 'Job board',
  secret: `whsec_${'a'.repeat(64)}`,
  events: ['scan.created'],
};
const events = [
  { text: 'Scan created', value: 'scan.created' },
  { text: 'Scan updated', value: 'scan.updated' },
  { text: 'Quote generated', value: 'quote.generated' },
];

function signedIn(answer: (request: string, body: unknown) => Reply | undefined) {
  const user = aUser({ roles: ['Super Admin'], permissions: ['agent'], agents: [], clients: [] });
  localStorage.setItem('currentUser', JSON.stringify(user));
  return stubApi((request, body) => {
    if (request === 'GET /api/user/auth/user') return { body: { data: user } };
    if (request === 'GET /api/agent/webhooks/events') return { body: events };
    if (request === 'GET /api/quote/clients/lists') return { body: [{ text: 'Southern Cross', value: 4 }] };
    if (request.endsWith('/lists')) return { body: [] };
    // No delivery yet, unless a test says otherwise.
    return answer(request, body) ?? (request.startsWith('GET /api/agent/webhooks/deliveries?') ? { body: { data: [] } } : undefined);
  });
}

/** react-admin queues toasts: close 'The form is not valid' ones so the next message shows at once. */
async function dismissToasts() {
  for (let i = 0; i < 5 && screen.queryByText(/The form is not valid/); i++) {
    fireEvent.click(screen.getByRole('button', { name: 'Close', hidden: true }));
    await waitFor(() => expect(screen.queryByText(/The form is not valid/)).toBeNull()).catch(() => undefined);
  }
}

describe('agents', { timeout: 30_000 }, () => {
  it('lists the expected columns with a portal link only for an enabled agent', async () => {
    signedIn((request) =>
      request.startsWith('GET /api/agent/agents?')
        ? { body: { items: [agent, { ...agent, id: 2, name: 'Closed Depot', is_enabled: 0 }], total: 2 } }
        : undefined,
    );
    renderScreen('/agents', { resources: ['agents'] });
    expect(await screen.findByText('Melbourne Auto Scan')).toBeTruthy();
    for (const name of ['Name', 'Phone', 'Email', 'Enabled', 'Default Client', 'Action'])
      expect(screen.getByRole('columnheader', { name: new RegExp(`^${name}`) })).toBeTruthy();
    expect(screen.getByPlaceholderText('Search Agent')).toBeTruthy();
    const links = await screen.findAllByRole('link', { name: 'Customer Portal' });
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/customer-portal/1']);
  });

  it("says the pincode is kept when left blank, and the agent's webhooks sit under the form", async () => {
    signedIn((request) => {
      if (request === 'GET /api/agent/agents/1') return { body: { data: agent } };
      if (request.startsWith('GET /api/agent/webhooks?'))
        return {
          body: {
            items: [hook, { ...hook, id: 9, endpoint: 'https://hooks.example.test/new', secret: `whsec_${'c'.repeat(64)}` }],
            total: 2,
          },
        };
      if (request === 'GET /api/agent/webhooks/deliveries?agent_id=1') {
        return {
          body: {
            data: [
              {
                webhook_id: 7,
                event: 'scan.updated',
                status: 'pending',
                attempts: 2,
                last_status: 503,
                last_error: 'answered 503',
                created_at: '2026-11-23T08:00:00Z',
                delivered_at: null,
                next_attempt_at: '2026-11-23T08:12:00Z',
              },
            ],
          },
        };
      }
      return undefined;
    });
    renderScreen('/agents/1', { resources: ['agents'] });
    expect(await screen.findByText('Update Agent')).toBeTruthy();
    expect(await screen.findByText('Leave blank to keep the current pincode (6 digits)')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /^Primary Color/ }).value).toBe('#0c1839');
    const panel = await screen.findByRole('region', { name: 'Webhooks' }, { timeout: 15_000 });
    expect(await within(panel).findByText('https://hooks.example.test/scans')).toBeTruthy();
    expect(within(panel).getByText(hook.secret)).toBeTruthy();
    expect(within(panel).getAllByText('Scan created')).toHaveLength(2);
    expect(within(panel).getAllByRole('button', { name: 'Copy' })).toHaveLength(2);
    // How each webhook's latest event went: Melbourne time, day first.
    expect(
      await within(panel).findByText('Last delivery failing: answered 503 (2 attempts so far), next try 23-11-2026 07:12 PM'),
    ).toBeTruthy();
    expect(within(panel).getByText('No deliveries yet')).toBeTruthy();
  });

  it('creates a webhook in the dialog after checking the endpoint and the events, then deletes one', async () => {
    let hooks = [hook];
    const fetch = signedIn((request, body) => {
      if (request === 'GET /api/agent/agents/1') return { body: { data: agent } };
      if (request.startsWith('GET /api/agent/webhooks?')) return { body: { items: hooks, total: hooks.length } };
      if (request === 'POST /api/agent/webhooks') {
        const created = { id: 8, secret: `whsec_${'b'.repeat(64)}`, ...(body as object) } as typeof hook;
        hooks = [...hooks, created];
        return { status: 201, body: { data: created } };
      }
      if (request === 'DELETE /api/agent/webhooks/7') {
        hooks = hooks.filter((h) => h.id !== 7);
        return { body: { data: hook } };
      }
      return undefined;
    });
    renderScreen('/agents/1', { resources: ['agents'] });
    const panel = await screen.findByRole('region', { name: 'Webhooks' }, { timeout: 15_000 });
    await within(panel).findByText('https://hooks.example.test/scans');
    fireEvent.click(within(panel).getByRole('button', { name: 'Add Webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Webhook' });
    await within(dialog).findByRole('checkbox', { name: 'Quote generated' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Endpoint is required')).toBeTruthy();
    expect(within(dialog).getByText('Events is required')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText(/^Endpoint/)));

    fireEvent.change(within(dialog).getByLabelText(/^Endpoint/), { target: { value: 'ftp://example.test' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Quote generated' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Endpoint must be a valid URL')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Endpoint/), { target: { value: 'https://crm.example.test/quotes' } });
    await dismissToasts();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Created Successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(panel).findByText('https://crm.example.test/quotes')).toBeTruthy();
    const post = fetch.mock.calls.find(([url, init]) => url === '/api/agent/webhooks' && init?.method === 'POST');
    expect(jsonBody(post?.[1])).toEqual({
      endpoint: 'https://crm.example.test/quotes',
      description: null,
      events: ['quote.generated'],
      agent_id: 1,
    });

    fireEvent.click(within(panel).getAllByRole('button', { name: 'Delete' })[0]);
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('are you sure ?')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Yes, delete it!' }));
    expect(await screen.findByText('Deleted Successfully')).toBeTruthy();
    await waitFor(() => expect(within(panel).queryByText('https://hooks.example.test/scans')).toBeNull());
  });

  it('asks before a webhook dialog with unsaved input closes: Keep editing keeps it, Discard closes; untouched just closes', async () => {
    signedIn((request) => {
      if (request === 'GET /api/agent/agents/1') return { body: { data: agent } };
      if (request.startsWith('GET /api/agent/webhooks?')) return { body: { items: [hook], total: 1 } };
      return undefined;
    });
    renderScreen('/agents/1', { resources: ['agents'] });
    const panel = await screen.findByRole('region', { name: 'Webhooks' }, { timeout: 15_000 });
    fireEvent.click(within(panel).getByRole('button', { name: 'Add Webhook' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create Webhook' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(within(panel).getByRole('button', { name: 'Edit' }));
    dialog = await screen.findByRole('dialog', { name: 'Update Webhook' });
    fireEvent.change(within(dialog).getByLabelText(/^Endpoint/), { target: { value: 'https://hooks.example.test/v2' } });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    const ask = await screen.findByRole('dialog', { name: 'Discard changes?' });
    expect(within(ask).getByText('You have unsaved changes. Close without saving them?')).toBeTruthy();
    fireEvent.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull());
    expect(within(dialog).getByDisplayValue('https://hooks.example.test/v2')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Discard changes?' })).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("asks before leaving the agent's page while a webhook dialog holds unsaved input, as for the agent's own", async () => {
    signedIn((request) => {
      if (request === 'GET /api/agent/agents/1') return { body: { data: agent } };
      if (request.startsWith('GET /api/agent/webhooks?')) return { body: { items: [hook], total: 1 } };
      return undefined;
    });
    const { location, navigate } = renderScreen('/agents/1', { resources: ['agents'] });
    const panel = await screen.findByRole('region', { name: 'Webhooks' }, { timeout: 15_000 });
    fireEvent.click(within(panel).getByRole('button', { name: 'Add Webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Webhook' });
    fireEvent.change(within(dialog).getByLabelText(/^Endpoint/), { target: { value: 'https://hooks.example.test/new' } });
    act(() => navigate('/agents'));
    const ask = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(within(ask).getByText('You have unsaved changes. Leave this page?')).toBeTruthy();
    fireEvent.click(within(ask).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull());
    expect(location.pathname).toBe('/agents/1');
    expect(within(dialog).getByDisplayValue('https://hooks.example.test/new')).toBeTruthy();
    // Closed without its input, the dialog no longer holds the page.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Discard changes?' })).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    act(() => navigate('/agents'));
    await waitFor(() => expect(location.pathname).toBe('/agents'));
  });

  it('refuses a logo over 5 MB before sending anything, in the words the server would use', async () => {
    const fetch = signedIn((request) => (request === 'GET /api/agent/agents/1' ? { body: { data: agent } } : undefined));
    renderScreen('/agents/1', { resources: ['agents'] });
    const input = await screen.findByLabelText<HTMLInputElement>('Logo');
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'logo.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText('Logo must be less than 5 MB')).toBeTruthy();
    // Nothing was taken into the form: no preview of the file, and Submit would send no file.
    expect(screen.queryByRole('img', { name: 'logo.png' })).toBeNull();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });
});
