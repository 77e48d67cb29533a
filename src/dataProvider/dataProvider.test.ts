import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpError } from 'react-admin';
import { aUser } from '../test/builders';
import { callOf, stubFetch } from '../test/stubFetch';
import { setCurrentUser, setSelectedAgent, setSelectedClient } from '../session';
import { en } from '../i18n/english';
import { DEFINITIONS } from '../resources/definitions';
import { apiRoutesOf } from './apiRoutes';
import { createDataProvider } from './dataProvider';
import { messageLines, parseMessageLines } from '../i18n/ruleMessages';
import { i18nProvider } from '../i18n/i18nProvider';
import { SERVER_ERROR } from './errors';
import { createRequest } from './http';

const apiRoutes = apiRoutesOf(async (name) => DEFINITIONS.find((d) => d.name === name));
const provider = () => createDataProvider({ routes: apiRoutes, request: createRequest('/api') });
const listParams = { pagination: { page: 1, perPage: 10 }, sort: { field: 'name', order: 'ASC' as const }, filter: {} };

const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as HttpError;
  }
  throw new Error('expected a rejection');
};

beforeEach(() => {
  localStorage.clear();
  setCurrentUser(aUser({ token: 'secret' }));
});
afterEach(() => vi.unstubAllGlobals());

describe('routing through the table', () => {
  it('lists locations on the agent service with page, per_page, q, sort and order', async () => {
    const fetch = stubFetch({ body: { items: [{ id: 1, name: 'Depot' }], total: 31 } });
    const result = await provider().getList('locations', { ...listParams, filter: { q: '  depot ', state: 'VIC' } });
    expect(callOf(fetch).url).toBe('/api/agent/locations?state=VIC&page=1&per_page=10&q=depot&sort=name&order=asc');
    expect(result).toEqual({ data: [{ id: 1, name: 'Depot' }], total: 31 });
  });

  it("says in the page's meta when the server only estimated the total, and sends no sort without a field", async () => {
    const fetch = stubFetch({ body: { items: [{ id: 1 }], total: 1_000_000, total_is_estimate: true } });
    const result = await provider().getList('locations', { ...listParams, sort: { field: '', order: 'ASC' }, filter: {} });
    expect(callOf(fetch).url).toBe('/api/agent/locations?page=1&per_page=10');
    expect(result).toEqual({ data: [{ id: 1 }], total: 1_000_000, meta: { totalIsEstimate: true } });
  });

  it("reads a page longer than the routes' 100 rows (react-admin's Export asks for 1,000) as the pages covering it", async () => {
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i }));
    const fetch = stubFetch(
      { body: { items: rows(1, 100), total: 250 } },
      { body: { items: rows(101, 100), total: 250 } },
      { body: { items: rows(201, 50), total: 250 } },
    );
    const all = await provider().getList('users', { ...listParams, pagination: { page: 1, perPage: 1000 } });
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(
      [1, 2, 3].map((n) => `/api/user/users?page=${n}&per_page=100&sort=name&order=asc`),
    );
    expect(all).toEqual({ data: rows(1, 250), total: 250 });

    // The second page of 150 rows: rows 151 to 250, from the routes' pages 2 and 3.
    const again = stubFetch({ body: { items: rows(101, 100), total: 250 } }, { body: { items: rows(201, 50), total: 250 } });
    const second = await provider().getList('users', { ...listParams, pagination: { page: 2, perPage: 150 } });
    expect(again.mock.calls.map(([url]) => new URL(url, 'http://x').searchParams.get('page'))).toEqual(['2', '3']);
    expect(second.data).toEqual(rows(151, 100));
  });

  it('maps each resource to its own service and path', async () => {
    const fetch = stubFetch({ body: { data: { id: 2 } } }, { body: { data: { id: 3 } } }, { body: { data: { id: 4 } } });
    await provider().getOne('users', { id: 2 });
    await provider().getOne('email-templates', { id: 3 });
    await provider().getOne('panelgroups', { id: 4 });
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['/api/user/users/2', '/api/email/emailTemplates/3', '/api/quote/panelGroups/4']);
  });

  it('omits a blank search and reads {items, meta: {total}}', async () => {
    const fetch = stubFetch({ body: { items: [{ id: 9 }], meta: { total: 12, last_page: 2 } } });
    const result = await provider().getList('email-templates', { ...listParams, filter: { q: '   ' } });
    expect(callOf(fetch).url).not.toContain('q=');
    expect(result.total).toBe(12);
  });

  it('unwraps data on create, update and delete with the right verbs and bodies', async () => {
    const fetch = stubFetch(
      { status: 201, body: { data: { id: 5, name: 'New' } } },
      { body: { data: { id: 5, name: 'Renamed' } } },
      { body: { data: { id: 5, name: 'Renamed' } } },
    );
    const dp = provider();
    expect((await dp.create('locations', { data: { name: 'New', state: 'NSW' } })).data).toEqual({ id: 5, name: 'New' });
    expect((await dp.update('locations', { id: 5, data: { name: 'Renamed' }, previousData: { id: 5 } })).data.name).toBe('Renamed');
    expect((await dp.delete('locations', { id: 5 })).data.id).toBe(5);
    expect([0, 1, 2].map((n) => [callOf(fetch, n).method, callOf(fetch, n).url, callOf(fetch, n).body])).toEqual([
      ['POST', '/api/agent/locations', { name: 'New', state: 'NSW' }],
      ['PUT', '/api/agent/locations/5', { name: 'Renamed' }],
      ['DELETE', '/api/agent/locations/5', undefined],
    ]);
    // No copy's time: no If-Match, the last save wins.
    expect(callOf(fetch, 1).headers.get('If-Match')).toBeNull();
  });

  it('sends an update with the time of the copy the form read (If-Match), so a save made since is not undone', async () => {
    const fetch = stubFetch({ body: { data: { id: 5, name: 'Renamed' } } });
    await provider().update('locations', {
      id: 5,
      data: { name: 'Renamed' },
      previousData: { id: 5, name: 'Old', updated_at: '2026-11-30T02:40:01.123Z' },
    });
    expect(callOf(fetch).headers.get('If-Match')).toBe('"2026-11-30T02:40:01.123Z"');
  });

  it('gets many by fetching each id, and many-reference through the list with the target filter', async () => {
    const fetch = stubFetch({ body: { data: { id: 1 } } }, { body: { data: { id: 2 } } }, { body: { items: [], total: 0 } });
    const dp = provider();
    expect((await dp.getMany('locations', { ids: [1, 2] })).data).toEqual([{ id: 1 }, { id: 2 }]);
    await dp.getManyReference('devices', { target: 'location_id', id: 4, ...listParams });
    expect(callOf(fetch, 2).url).toBe('/api/agent/devices?location_id=4&page=1&per_page=10&sort=name&order=asc');
  });

  it('reads select lists from <path>/lists as a bare array', async () => {
    const fetch = stubFetch({ body: [{ text: 'Acme', value: 3 }] });
    expect(await provider().getSelectOptions('clients')).toEqual([{ text: 'Acme', value: 3 }]);
    expect(callOf(fetch).url).toBe('/api/quote/clients/lists');
  });

  it('sends a body with a file as multipart, an update as POST {path}/{id}?_method=PUT', async () => {
    const fetch = stubFetch({ body: { data: { id: 3 } } }, { status: 201, body: { data: { id: 4 } } });
    const logo = new File(['png'], 'logo.png', { type: 'image/png' });
    const dp = provider();
    await dp.update('agents', {
      id: 3,
      data: { name: 'Melbourne', logoFile: logo, events: ['a', 'b'], is_enabled: true },
      previousData: { id: 3 },
    });
    await dp.create('agents', { data: { name: 'Harbour', logoFile: logo } });
    const [url, init] = fetch.mock.calls[0];
    expect([url, init?.method]).toEqual(['/api/agent/agents/3?_method=PUT', 'POST']);
    const form = init?.body as FormData;
    expect(form.get('name')).toBe('Melbourne');
    expect(form.getAll('events')).toEqual(['a', 'b']);
    expect(form.get('is_enabled')).toBe('true');
    expect((form.get('logoFile') as File).name).toBe('logo.png');
    expect(new Headers(init?.headers).get('Content-Type')).toBeNull();
    expect([callOf(fetch, 1).url, callOf(fetch, 1).method]).toEqual(['/api/agent/agents', 'POST']);
  });

  it('refuses a resource the table does not know', async () => {
    stubFetch();
    await expect(provider().getList('nowhere', listParams)).rejects.toThrow(/No API route for resource "nowhere"/);
  });
});

describe('headers', () => {
  it('sends the bearer token and the selected agent and client', async () => {
    setSelectedAgent(3);
    setSelectedClient([4, 5]);
    const fetch = stubFetch({ body: { items: [], total: 0 } });
    await provider().getList('locations', listParams);
    const { headers } = callOf(fetch);
    expect(headers.get('Authorization')).toBe('Bearer secret');
    expect(headers.get('X_SNG_AGENTS')).toBe('3');
    expect(headers.get('X_SNG_CLIENTS')).toBe('4,5');
  });

  it("sends no selector headers when the selection is 'all'", async () => {
    const fetch = stubFetch({ body: { items: [], total: 0 } });
    await provider().getList('locations', listParams);
    expect(callOf(fetch).headers.has('X_SNG_AGENTS')).toBe(false);
    expect(callOf(fetch).headers.has('X_SNG_CLIENTS')).toBe(false);
  });

  it('leaves the selector headers off calls whose path names agents or clients', async () => {
    setSelectedAgent(3);
    setSelectedClient(4);
    const fetch = stubFetch({ body: [] }, { body: [] }, { body: { data: { id: 3 } } });
    const dp = provider();
    await dp.getSelectOptions('agents');
    await dp.getSelectOptions('clients');
    await dp.agentBranding(3);
    for (const n of [0, 1, 2]) {
      expect(callOf(fetch, n).headers.has('X_SNG_AGENTS')).toBe(false);
      expect(callOf(fetch, n).headers.has('X_SNG_CLIENTS')).toBe(false);
      expect(callOf(fetch, n).headers.get('Authorization')).toBe('Bearer secret');
    }
  });

  it('sends no Authorization header when signed out', async () => {
    setCurrentUser(null);
    const fetch = stubFetch({ body: { data: { message: 'sent' } } });
    await provider().currentUser();
    expect(callOf(fetch).headers.has('Authorization')).toBe(false);
  });
});

describe('errors', () => {
  it('turns a 422 field map into an HttpError with the messages joined and {errors} for the inputs', async () => {
    stubFetch({ status: 422, body: { error: { name: 'Name is required', state: 'State is required' } } });
    const error = await rejection(provider().create('locations', { data: {} }));
    expect(error.status).toBe(422);
    expect(error.message).toBe('Name is required\nState is required');
    expect(error.body).toEqual({ errors: { name: 'Name is required', state: 'State is required' } });
  });

  it("puts a 422's message keys into the inputs' messages, naming the resource's field labels", async () => {
    stubFetch({
      status: 422,
      body: {
        error: { name: 'Name has already been taken.', state: 'Odd server text' },
        messages: { name: { key: 'app.validation.taken' } },
      },
    });
    const error = await rejection(provider().create('roles', { data: {} }));
    // The toast's text: the same lines, each translated by the i18n provider (src/i18n/i18nProvider.ts).
    expect(parseMessageLines(error.message)).toEqual([
      { message: 'app.validation.taken', args: { fieldKey: 'resources.roles.fields.name', _: 'Name has already been taken.' } },
      { message: 'Odd server text', args: { _: 'Odd server text' } },
    ]);
    const errors = (error.body as { errors: Record<string, string> }).errors;
    expect(errors.state).toBe('Odd server text');
    expect(errors.name.startsWith('@@react-admin@@')).toBe(true);
    expect(JSON.parse(errors.name.slice('@@react-admin@@'.length))).toEqual({
      message: 'app.validation.taken',
      args: { fieldKey: 'resources.roles.fields.name', _: 'Name has already been taken.' },
    });
  });

  it('joins a list and passes a string on', async () => {
    stubFetch(
      { status: 400, body: { error: ['First problem', 'Second problem'] } },
      { status: 409, body: { error: 'This approval link has been used already' } },
    );
    expect((await rejection(provider().getOne('locations', { id: 1 }))).message).toBe('First problem\nSecond problem');
    const used = await rejection(provider().getOne('locations', { id: 1 }));
    expect([used.status, used.message]).toEqual([409, 'This approval link has been used already']);
  });

  it("says a 429 and a rule's refusal in the user's language: the wait, and the message key the server sent", async () => {
    const text = 'Too many login attempts. Please try again in 60 seconds.';
    stubFetch(
      { status: 429, body: { error: text }, headers: { 'Retry-After': '60' } },
      { status: 429, body: { error: 'Too many requests. Please slow down.' } },
      {
        status: 409,
        body: {
          error: 'This part prices these panels: Bonnet. Give them another part first.',
          message: { key: 'app.errors.part_in_use', params: { panels: 'Bonnet' } },
        },
      },
    );
    const lines = async () => parseMessageLines((await rejection(provider().getOne('locations', { id: 1 }))).message);
    expect(await lines()).toEqual([{ message: 'app.errors.too_many', args: { seconds: 60, _: text } }]);
    expect(await lines()).toEqual([{ message: 'app.errors.slow_down', args: { _: 'Too many requests. Please slow down.' } }]);
    expect(await lines()).toEqual([
      {
        message: 'app.errors.part_in_use',
        args: { panels: 'Bonnet', _: 'This part prices these panels: Bonnet. Give them another part first.' },
      },
    ]);
    expect(i18nProvider.translate(messageLines([{ message: 'app.errors.too_many', args: { seconds: 60 } }]))).toBe(
      'Too many attempts. Please try again in 60 seconds.',
    );
  });

  it("keeps the status of 401, 403 and 404: a 401 says 'Login token expired', the others the server's message", async () => {
    stubFetch(
      { status: 401, body: { error: 'Unauthenticated.' } },
      { status: 403, body: { error: 'This action is unauthorized.' } },
      { status: 404, body: { error: 'No query results for model [Location] 42' } },
    );
    const dp = provider();
    const errors = [
      await rejection(dp.getList('locations', listParams)),
      await rejection(dp.delete('locations', { id: 42 })),
      await rejection(dp.getOne('locations', { id: 42 })),
    ];
    expect(errors.map((e) => [e.status, e.message])).toEqual([
      [401, 'app.auth.token_expired'],
      [403, 'This action is unauthorized.'],
      [404, 'No query results for model [Location] 42'],
    ]);
  });

  it("shows 'Server Error!' for 5xx, a reply without an error member, and no reply at all", async () => {
    stubFetch(
      { status: 500, body: { error: 'Server Error', requestId: 'r-1' } },
      { status: 400, text: '<html>Bad gateway</html>' },
      new TypeError('Failed to fetch'),
    );
    const dp = provider();
    const errors = [
      await rejection(dp.getOne('locations', { id: 1 })),
      await rejection(dp.getOne('locations', { id: 1 })),
      await rejection(dp.getOne('locations', { id: 1 })),
    ];
    expect(errors.map((e) => [e.status, e.message])).toEqual([
      [500, SERVER_ERROR],
      [400, SERVER_ERROR],
      [0, SERVER_ERROR],
    ]);
    expect((en.app as { error: { server: string } }).error.server).toBe('Server Error!');
  });
});
