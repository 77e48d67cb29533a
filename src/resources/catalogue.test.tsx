import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Editor } from '@tiptap/core';
import { aUser } from '../test/builders';
import { renderScreen, type ScreenOptions } from '../test/renderScreen';
import * as emailHeaderFooter from '../custom/email-header-footer';
import { jsonBody, stubApi, type Reply } from '../test/stubFetch';

/** A Super Admin; `answer` handles the calls under test, other select lists are empty. */
function signedIn(answer: (request: string, body: unknown) => Reply | undefined) {
  const user = aUser({
    roles: ['Super Admin'],
    permissions: ['user', 'app_setting', 'device', 'email_template', 'part', 'panelgroup'],
    agents: [],
    clients: [],
  });
  localStorage.setItem('currentUser', JSON.stringify(user));
  return stubApi((request, body) => {
    if (request === 'GET /api/user/auth/user') return { body: { data: user } };
    const own = answer(request, body);
    if (own) return own;
    if (request.endsWith('/lists')) return { body: [] };
    return undefined;
  });
}

const created_at = '2026-05-04T01:02:03.000Z';
const gst = { id: 1, option_name: 'GST_PERCENT', option_value: '10', field_type: 'text', created_at, updated_at: created_at };
const terms = {
  id: 2,
  option_name: 'TERMS_AND_CONDITIONS',
  option_value: '<p>Read <strong>this</strong><img src="x" onerror="window.hacked = 1"></p>',
  field_type: 'editor',
  created_at,
  updated_at: created_at,
};

/** The catalogue's screens: three described resources and the e-mail header and footer page. */
const catalogue = { resources: ['app-settings', 'email-templates', 'devices'], pages: [emailHeaderFooter.path] } satisfies ScreenOptions;

const headings = () => screen.getAllByRole('columnheader').map((th) => th.textContent?.trim());

describe('application settings', { timeout: 30_000 }, () => {
  it('lists names with spaces and values as sanitised HTML, with edit but no create or delete', async () => {
    signedIn((request) => (request.startsWith('GET /api/user/options?') ? { body: { items: [gst, terms], total: 2 } } : undefined));
    renderScreen('/app-settings', catalogue);
    expect(await screen.findByText('TERMS AND CONDITIONS')).toBeTruthy();
    expect(screen.getByText('GST PERCENT')).toBeTruthy();
    expect(screen.getByText('this').tagName).toBe('STRONG');
    expect(document.querySelector('img[onerror]')).toBeNull();
    expect(screen.getAllByRole('link', { name: 'Edit' }).map((a) => a.getAttribute('href'))).toEqual([
      '/app-settings/1',
      '/app-settings/2',
    ]);
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.getByPlaceholderText('Search Setting')).toBeTruthy();
  });

  it("edits a plain setting in a textarea and says 'Setting Updated'", async () => {
    const fetch = signedIn((request) => {
      if (request === 'GET /api/user/options/1') return { body: { data: gst } };
      if (request === 'PUT /api/user/options/1') return { body: { data: { ...gst, option_value: '12.5' } } };
      if (request.startsWith('GET /api/user/options?')) return { body: { items: [gst], total: 1 } };
      return undefined;
    });
    const { location } = renderScreen('/app-settings/1', catalogue);
    expect(await screen.findByText('Update Setting')).toBeTruthy();
    const value = await screen.findByDisplayValue('10');
    expect(value.tagName).toBe('TEXTAREA');
    expect(screen.getByDisplayValue('GST PERCENT')).toHaveProperty('disabled', true);
    fireEvent.change(value, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Value is required')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(value));
    fireEvent.change(value, { target: { value: '12.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Setting Updated')).toBeTruthy();
    await waitFor(() => expect(location.pathname).toBe('/app-settings'));
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(jsonBody(put?.[1])).toMatchObject({ option_value: '12.5', field_type: 'text' });
  });

  it('asks before Cancel drops an edit: Stay keeps the typing, Leave goes to the list; an untouched form just leaves', async () => {
    signedIn((request) => {
      if (request === 'GET /api/user/options/1') return { body: { data: gst } };
      if (request.startsWith('GET /api/user/options?')) return { body: { items: [gst], total: 1 } };
      return undefined;
    });
    const { location } = renderScreen('/app-settings/1', catalogue);
    const value = await screen.findByDisplayValue('10');
    fireEvent.change(value, { target: { value: '11' } });
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(within(dialog).getByText('You have unsaved changes. Leave this page?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location.pathname).toBe('/app-settings/1');
    expect(screen.getByDisplayValue('11')).toBeTruthy();

    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(location.pathname).toBe('/app-settings'));

    fireEvent.click(await screen.findByRole('link', { name: 'Edit' }));
    await screen.findByDisplayValue('10');
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    await waitFor(() => expect(location.pathname).toBe('/app-settings'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('still asks before leaving after a refused save: the typing is still unsaved', async () => {
    signedIn((request) => {
      if (request === 'GET /api/user/options/1') return { body: { data: gst } };
      if (request === 'PUT /api/user/options/1')
        return { status: 409, body: { error: 'Someone else saved this record after you opened it.' } };
      return undefined;
    });
    const { location } = renderScreen('/app-settings/1', catalogue);
    fireEvent.change(await screen.findByDisplayValue('10'), { target: { value: '11' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(/Someone else saved this record/)).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull());
    expect(location.pathname).toBe('/app-settings/1');
    expect(screen.getByDisplayValue('11')).toBeTruthy();
  });

  it('keeps what a form held when the session ends under it, for the same user only, and gives it back after signing in', async () => {
    let expired = true;
    // Saved by someone else while this user was signed out.
    const newer = { ...gst, option_value: '9', updated_at: '2026-05-05T00:00:00.000Z' };
    const fetch = signedIn((request) => {
      if (request === 'GET /api/user/options/1') return { body: { data: expired ? gst : newer } };
      if (request === 'PUT /api/user/options/1' && expired) return { status: 401, body: { error: 'Unauthenticated.' } };
      if (request === 'PUT /api/user/options/1')
        return { status: 409, body: { error: 'Someone else saved this record after you opened it.' } };
      return undefined;
    });
    const signedInUser = localStorage.getItem('currentUser');
    const { location, navigate } = renderScreen('/app-settings/1', catalogue);
    fireEvent.change(await screen.findByDisplayValue('10'), { target: { value: '11' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(location.pathname).toBe('/login'));
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();

    // Signed in again: the page comes back with the typing, unsaved, and says so.
    expired = false;
    localStorage.setItem('currentUser', signedInUser!);
    act(() => navigate('/app-settings/1'));
    expect(await screen.findByDisplayValue('11')).toBeTruthy();
    expect(
      await screen.findByText('Your unsaved changes from before you were signed out are back in the form. Save them to keep them.'),
    ).toBeTruthy();
    expect(sessionStorage.length).toBe(0);
    // Only the typed field comes back, over the record as read now (saved by someone else meanwhile).
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(fetch.mock.calls.filter(([, init]) => init?.method === 'PUT')).toHaveLength(2));
    const put = fetch.mock.calls.filter(([, init]) => init?.method === 'PUT')[1];
    expect(jsonBody(put[1])).toMatchObject({ option_value: '11' });
    expect(new Headers(put[1]?.headers).get('If-Match')).toBe(`"${newer.updated_at}"`);
    // Still unsaved: leaving asks.
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull());

    // Once given back, it is gone: the next visit shows the record.
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(location.pathname).toBe('/app-settings'));
    act(() => navigate('/app-settings/1'));
    expect(await screen.findByDisplayValue('9')).toBeTruthy();
  });

  it("does not give one user's draft to another who signs in on the same tab", async () => {
    signedIn((request) => {
      if (request === 'GET /api/user/options/1') return { body: { data: gst } };
      if (request === 'PUT /api/user/options/1') return { status: 401, body: { error: 'Unauthenticated.' } };
      return undefined;
    });
    const { location, navigate } = renderScreen('/app-settings/1', catalogue);
    fireEvent.change(await screen.findByDisplayValue('10'), { target: { value: '11' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(location.pathname).toBe('/login'));
    expect(sessionStorage.length).toBe(1);

    const other = aUser({ id: 99, roles: ['Super Admin'], permissions: ['app_setting'], agents: [], clients: [] });
    localStorage.setItem('currentUser', JSON.stringify(other));
    act(() => navigate('/app-settings/1'));
    expect(await screen.findByDisplayValue('10')).toBeTruthy();
    expect(screen.queryByDisplayValue('11')).toBeNull();
  });

  it("edits an 'editor' setting in the rich-text editor", async () => {
    signedIn((request) => (request === 'GET /api/user/options/2' ? { body: { data: terms } } : undefined));
    renderScreen('/app-settings/2', catalogue);
    expect(await screen.findByText('Update Setting')).toBeTruthy();
    await waitFor(() => expect(document.querySelector('.ProseMirror[contenteditable="true"]')).not.toBeNull(), { timeout: 10_000 });
    // The value's textbox is the editor's editable area (labelled by the field), not a textarea.
    // The editor loads lazily with its screen: on a busy machine that takes more than waitFor's default second.
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Value/ }).getAttribute('contenteditable')).toBe('true'), {
      timeout: 10000,
    });
    expect(await screen.findByRole('button', { name: 'Bold' })).toBeTruthy();
  });

  it('has no create screen: /app-settings/create shows the list', async () => {
    signedIn((request) => (request.startsWith('GET /api/user/options?') ? { body: { items: [gst], total: 1 } } : undefined));
    const { location } = renderScreen('/app-settings/create', catalogue);
    await waitFor(() => expect(location.pathname).toBe('/app-settings'));
    expect(await screen.findByText('GST PERCENT')).toBeTruthy();
  });
});

describe('e-mail templates', { timeout: 30_000 }, () => {
  const template = { id: 3, templateName: 'Quote ready', templateBody: '<p>Hello</p>', created_at, updated_at: created_at };

  it("reads the {items, meta} page, shows Name, Created, Action and says 'Email Template Deleted Successfully'", async () => {
    let rows = [template];
    signedIn((request) => {
      if (request.startsWith('GET /api/email/emailTemplates?'))
        return { body: { items: rows, meta: { total: rows.length, last_page: 1 } } };
      if (request === 'DELETE /api/email/emailTemplates/3') {
        rows = [];
        return { body: { data: template } };
      }
      return undefined;
    });
    renderScreen('/email-templates', catalogue);
    expect(await screen.findByText('Quote ready')).toBeTruthy();
    expect(headings()).toEqual(['Name', 'Created', 'Action']);
    expect(screen.getByPlaceholderText('Search Email Template')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Quote ready')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete it!' }));
    expect(await screen.findByText('Email Template Deleted Successfully')).toBeTruthy();
  });

  it("requires the body ('Template Body is required') and focuses the editor", async () => {
    const fetch = signedIn(() => undefined);
    renderScreen('/email-templates/create', catalogue);
    expect(await screen.findByText('Create Template')).toBeTruthy();
    await waitFor(() => expect(document.querySelector('.ProseMirror')).not.toBeNull(), { timeout: 10_000 });
    fireEvent.change(screen.getByRole('textbox', { name: /^Template Name/ }), { target: { value: 'Welcome' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Template Body is required')).toBeTruthy();
    expect(screen.queryByText('Template Name is required')).toBeNull();
    // The editor is the first invalid input, so it takes the focus.
    await waitFor(() => expect(document.activeElement?.classList.contains('ProseMirror')).toBe(true));
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });
});

describe('devices', { timeout: 30_000 }, () => {
  it('shows Location Name, Type, Owner and Action in that order', async () => {
    const device = {
      id: 1,
      location_id: 2,
      location_name: 'Collingwood Depot',
      type: 'arch',
      agent_id: 3,
      owner: 'Melbourne Auto Scan',
      serial: 'A1',
      default_client_id: 4,
      default_client_name: 'Southern Cross',
      created_at,
    };
    signedIn((request) => (request.startsWith('GET /api/agent/devices?') ? { body: { items: [device], total: 1 } } : undefined));
    renderScreen('/devices', catalogue);
    expect(await screen.findByText('Collingwood Depot')).toBeTruthy();
    expect(headings()).toEqual(['Location Name', 'Type', 'Owner', 'Action']);
    expect(screen.getByText('Arch')).toBeTruthy();
    expect(screen.getByText('Melbourne Auto Scan')).toBeTruthy();
  });

  it("offers as Location, once an owner is chosen, only the owner's sites and sites no agent owns", async () => {
    signedIn((request) => {
      if (request === 'GET /api/agent/agents/lists')
        return {
          body: [
            { text: 'Geelong Scan', value: 4 },
            { text: 'Melbourne Auto Scan', value: 3 },
          ],
        };
      if (request === 'GET /api/agent/locations/lists')
        return {
          body: [
            { text: 'Collingwood Depot', value: 2, agent_id: 3 },
            { text: 'Corio Yard', value: 5, agent_id: 4 },
            { text: 'Shared Bay', value: 6, agent_id: null },
          ],
        };
      return undefined;
    });
    renderScreen('/devices/create', catalogue);
    const options = async (label: RegExp) => {
      const input = await screen.findByRole('combobox', { name: label });
      fireEvent.mouseDown(input);
      fireEvent.keyDown(input, { key: 'ArrowDown' });
      const names = (await screen.findAllByRole('option')).map((o) => o.textContent);
      fireEvent.keyDown(input, { key: 'Escape' });
      return names;
    };
    // No owner yet: every site.
    await waitFor(async () => expect(await options(/^Location/)).toEqual(['Collingwood Depot', 'Corio Yard', 'Shared Bay']));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /^Owner/ }));
    fireEvent.keyDown(screen.getByRole('combobox', { name: /^Owner/ }), { key: 'ArrowDown' });
    fireEvent.click(await screen.findByRole('option', { name: 'Melbourne Auto Scan' }));
    await waitFor(async () => expect(await options(/^Location/)).toEqual(['Collingwood Depot', 'Shared Bay']));
  });
});

describe('Email Header & Footer page', { timeout: 30_000 }, () => {
  const options = (header: string, footer: string) => [
    { id: 3, option_name: 'EMAIL_DEFAULT_FOOTER', option_value: footer, field_type: 'editor', created_at, updated_at: created_at },
    { id: 4, option_name: 'EMAIL_DEFAULT_HEADER', option_value: header, field_type: 'editor', created_at, updated_at: created_at },
  ];

  it("needs both: a blank header says 'Header is required' and nothing is saved", async () => {
    const fetch = signedIn((request) =>
      request === 'POST /api/user/options/search' ? { body: { data: options('<p></p>', '<p>Regards</p>') } } : undefined,
    );
    renderScreen('/email-header-footer', catalogue);
    expect(await screen.findByText('Email Header & Footer')).toBeTruthy();
    await waitFor(() => expect(document.querySelectorAll('.ProseMirror')).toHaveLength(2), { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Header is required')).toBeTruthy();
    expect(screen.queryByText('Footer is required')).toBeNull();
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/bulksave'))).toBe(false);
  });

  it("loads both with options/search and saves both with options/bulksave: 'Email Header & Footer Updated Successfully'", async () => {
    const fetch = signedIn((request, body) => {
      if (request === 'POST /api/user/options/search') {
        const [footer, header] = options('<p>Hello</p>', '<p>Regards</p>');
        return { body: { data: [{ ...footer, updated_at: '2026-06-01T00:00:00.000Z' }, header] } };
      }
      if (request === 'POST /api/user/options/bulksave')
        return { body: { data: (body as object[]).map((o) => ({ ...o, updated_at: '2026-07-01T00:00:00.000Z' })) } };
      return undefined;
    });
    renderScreen('/email-header-footer', catalogue);
    await waitFor(() => expect(document.querySelectorAll('.ProseMirror')).toHaveLength(2), { timeout: 10_000 });
    expect(await screen.findByText('Hello')).toBeTruthy();
    const search = fetch.mock.calls.find(([url]) => String(url).endsWith('/options/search'));
    expect(jsonBody(search?.[1])).toEqual({ option_name: ['EMAIL_DEFAULT_HEADER', 'EMAIL_DEFAULT_FOOTER'] });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Email Header & Footer Updated Successfully')).toBeTruthy();
    const save = fetch.mock.calls.find(([url]) => String(url).endsWith('/options/bulksave'));
    expect(jsonBody(save?.[1])).toEqual([
      { option_name: 'EMAIL_DEFAULT_HEADER', option_value: '<p>Hello</p>' },
      { option_name: 'EMAIL_DEFAULT_FOOTER', option_value: '<p>Regards</p>' },
    ]);
    // Made from the newest of the two copies read; the next save from this page's own save.
    expect(new Headers(save?.[1]?.headers).get('If-Match')).toBe('"2026-06-01T00:00:00.000Z"');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(fetch.mock.calls.filter(([url]) => String(url).endsWith('/options/bulksave'))).toHaveLength(2));
    const next = fetch.mock.calls.filter(([url]) => String(url).endsWith('/options/bulksave'))[1];
    expect(new Headers(next[1]?.headers).get('If-Match')).toBe('"2026-07-01T00:00:00.000Z"');
  });

  it('asks before leaving with unsaved edits; a save makes them saved, and what is typed after it asks again', async () => {
    const fetch = signedIn((request, body) => {
      if (request === 'POST /api/user/options/search') return { body: { data: options('<p>Hello</p>', '<p>Regards</p>') } };
      if (request === 'POST /api/user/options/bulksave')
        return { body: { data: (body as object[]).map((o) => ({ ...o, updated_at: '2026-07-01T00:00:00.000Z' })) } };
      return undefined;
    });
    const { location, navigate } = renderScreen('/email-header-footer', catalogue);
    await waitFor(() => expect(document.querySelectorAll('.ProseMirror')).toHaveLength(2), { timeout: 10_000 });
    expect(await screen.findByText('Hello')).toBeTruthy();
    const header = () => (document.querySelector('.ProseMirror') as HTMLElement & { editor: Editor }).editor;
    const leave = async () => {
      act(() => navigate('/'));
      return within(await screen.findByRole('dialog', { name: 'Unsaved changes' }));
    };
    // Untouched: the move goes on.
    act(() => navigate('/'));
    await waitFor(() => expect(location.pathname).toBe('/'));
    act(() => navigate('/email-header-footer'));
    await waitFor(() => expect(document.querySelectorAll('.ProseMirror')).toHaveLength(2), { timeout: 10_000 });
    await screen.findByText('Hello');

    act(() => void header().commands.insertContent(' there'));
    fireEvent.click((await leave()).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull());
    expect(location.pathname).toBe('/email-header-footer');

    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Email Header & Footer Updated Successfully')).toBeTruthy();
    // Typed after the save: unsaved again.
    act(() => void header().commands.insertContent('!'));
    fireEvent.click((await leave()).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(fetch.mock.calls.filter(([url]) => String(url).endsWith('/options/bulksave'))).toHaveLength(2));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Submit' })).toHaveProperty('disabled', false));
    act(() => navigate('/'));
    await waitFor(() => expect(location.pathname).toBe('/'));
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();
  });

  it('shows an Agent user holding email_template the header and footer without a way to change them', async () => {
    const user = aUser({ roles: ['Agent'], permissions: ['email_template'], agents: [3], clients: [] });
    localStorage.setItem('currentUser', JSON.stringify(user));
    const fetch = stubApi((request) =>
      request === 'GET /api/user/auth/user'
        ? { body: { data: user } }
        : request === 'POST /api/user/options/search'
          ? { body: { data: options('<p>Hello</p>', '<p>Regards</p>') } }
          : request.endsWith('/lists')
            ? { body: [] }
            : undefined,
    );
    renderScreen('/email-header-footer', catalogue);
    expect(await screen.findByText('Hello', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Every agent’s mails carry these: only a Super Admin changes them.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    await waitFor(() => expect(document.querySelectorAll('.ProseMirror[contenteditable="false"]')).toHaveLength(2));
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/bulksave'))).toBe(false);
  });

  it('sends a user without email_template to /', async () => {
    const user = aUser({ permissions: ['scan'], agents: [], clients: [] });
    localStorage.setItem('currentUser', JSON.stringify(user));
    const fetch = stubApi((request) =>
      request === 'GET /api/user/auth/user' ? { body: { data: user } } : request.endsWith('/lists') ? { body: [] } : undefined,
    );
    const { location } = renderScreen('/email-header-footer', catalogue);
    await waitFor(() => expect(location.pathname).toBe('/'));
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/options'))).toBe(false);
  });
});
