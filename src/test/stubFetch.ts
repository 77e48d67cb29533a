import { vi } from 'vitest';
import type { CurrentUser } from '../session';
import { aUser } from './builders';

export interface Reply {
  status?: number;
  body?: unknown;
  /** Raw text instead of JSON. */
  text?: string;
  /** Response headers beside the JSON content type (a 429's Retry-After). */
  headers?: Record<string, string>;
}

/** Replaces global fetch with replies given in call order; returns the mock to inspect the calls. */
export function stubFetch(...replies: (Reply | Error)[]) {
  const queue = [...replies];
  const mock = vi.fn(async (_url: string, _init?: RequestInit) => {
    const next = queue.shift() ?? { status: 200, body: { data: {} } };
    if (next instanceof Error) throw next;
    const text = next.text ?? (next.body === undefined ? '' : JSON.stringify(next.body));
    return new Response(text, { status: next.status ?? 200, headers: { 'Content-Type': 'application/json', ...next.headers } });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** The JSON body a fetch call sent (undefined without a text body). */
export const jsonBody = (init?: RequestInit): unknown => (typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined);

/** URL, method, headers and JSON body of the nth fetch call. */
export function callOf(mock: ReturnType<typeof stubFetch>, n = 0) {
  const [url, init] = mock.mock.calls[n];
  const headers = new Headers(init?.headers);
  return {
    url,
    method: init?.method ?? 'GET',
    headers,
    body: jsonBody(init),
  };
}

/** Replaces global fetch with a handler answering by method and URL (`GET /api/agent/locations?...`). */
export function stubApi(answer: (request: string, body: unknown) => Reply | undefined) {
  const mock = vi.fn(async (url: string, init?: RequestInit) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const reply = answer(`${init?.method ?? 'GET'} ${url}`, body) ?? { status: 404, body: { error: `No stub for ${url}` } };
    const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    return new Response(text, { status: reply.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/**
 * A signed-in Super Admin holding `scan`, `scan_edit` and `quote_edit` (in local storage, and at `auth/user`), or
 * another user by `who`; every other call to `answer`, and empty `…/lists` choices where it has none: what the list screens' tests start
 * from.
 */
export function signedInLister(answer: (request: string) => Reply | undefined, who: Partial<CurrentUser> = {}) {
  const user = aUser({ permissions: ['scan', 'scan_edit', 'quote_edit'], roles: ['Super Admin'], agents: [], clients: [], ...who });
  localStorage.setItem('currentUser', JSON.stringify(user));
  return stubApi((request) => {
    if (request === 'GET /api/user/auth/user') return { body: { data: user } };
    return answer(request) ?? (request.includes('/lists') ? { body: [] } : undefined);
  });
}

/** The URLs of the calls a stub received that start with `prefix` (e.g. a list's page requests). */
export const callsTo = (fetch: ReturnType<typeof stubApi>, prefix: string) =>
  fetch.mock.calls.map(([url]) => url).filter((url) => url.startsWith(prefix));
