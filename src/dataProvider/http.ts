import { API_URL } from '../config';
import { getCurrentUser, getSelectedAgent, getSelectedClient, selectionHeader } from '../session';
import { ignoresSelection } from '../domain/permissions';
import { toHttpError } from './errors';

import type { Service } from '../domain/resources';

export type { Service } from '../domain/resources';

type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** JSON-encoded, unless it is FormData (multipart). */
  body?: unknown;
  /** Bearer token to send instead of the stored user's (e.g. logout after the user was cleared); null sends none. */
  token?: string | null;
  /** More headers (the customer portal's kiosk token). */
  headers?: Record<string, string>;
  /** false: no X_SNG_* selection (a call outside the signed-in app, such as the customer portal's). */
  selection?: false;
}

/** The If-Match of a save made from a copy read at `savedAt` (its `updated_at`): the server refuses it if saved since. */
export const ifMatch = (savedAt: string) => ({ 'If-Match': `"${savedAt}"` });

export type Request = <T = unknown>(service: Service, path: string, options?: RequestOptions) => Promise<T>;

export function buildQuery(query: RequestOptions['query'] = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

const isForm = (body: unknown): body is FormData => typeof FormData !== 'undefined' && body instanceof FormData;

function headersFor(path: string, options: RequestOptions): Headers {
  // X-Message-Keys: 422 field maps come with each message's key, shown in the user's language (server/plugins/errors.ts).
  const headers = new Headers({ Accept: 'application/json', 'X-Message-Keys': '1' });
  // FormData sets its own multipart Content-Type with the boundary.
  if (options.body !== undefined && !isForm(options.body)) headers.set('Content-Type', 'application/json');
  const token = options.token === undefined ? getCurrentUser()?.token : options.token;
  if (token) headers.set('Authorization', `Bearer ${token}`);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  // One rule with the server: calls naming agents or clients carry no selection.
  if (options.selection !== false && !ignoresSelection(path)) {
    const agents = selectionHeader(getSelectedAgent());
    const clients = selectionHeader(getSelectedClient());
    if (agents) headers.set('X_SNG_AGENTS', agents);
    if (clients) headers.set('X_SNG_CLIENTS', clients);
  }
  return headers;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Single records come wrapped in `data`; paged replies (`items`, `meta`) and bare lists do not. */
export function unwrap(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  if ('items' in body || 'meta' in body) return body;
  return 'data' in body ? body.data : body;
}

/** Calls `{apiUrl}/{service}/{path}`; resolves with the unwrapped JSON or rejects with an HttpError. */
export function createRequest(apiUrl: string = API_URL): Request {
  return async <T>(service: Service, path: string, options: RequestOptions = {}): Promise<T> => {
    const url = `${apiUrl}/${service}/${path.replace(/^\/+/, '')}${buildQuery(options.query)}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: options.method ?? 'GET',
        headers: headersFor(path, options),
        body: options.body === undefined ? undefined : isForm(options.body) ? options.body : JSON.stringify(options.body),
      });
    } catch (cause) {
      throw toHttpError(0, { cause: String(cause) });
    }
    const body = await readBody(response);
    if (!response.ok) throw toHttpError(response.status, body, Number(response.headers.get('retry-after')) || undefined);
    return unwrap(body) as T;
  };
}

export const request: Request = createRequest();

/** `{text, value}` items of a `<path>/lists` reply (the wire's "Select list items"). */
export interface SelectOption {
  text: string;
  value: number | string;
  /** The list's `extra` columns (a product's price, a site's agent). */
  [column: string]: unknown;
}
