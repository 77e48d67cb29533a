import { z } from 'zod';
import { PlateLookupRecord, PlateSuggestionRecord } from '../../../src/domain/records';
import { PLATE_SEARCH_LIMIT } from '../../../src/domain/scan-codes';
import type { Database } from '../../db/database';
import { AppError } from '../../errors';
import { findRegistration, searchRegistrations } from './plate-repository';

export type PlateSuggestion = z.infer<typeof PlateSuggestionRecord>;
export type PlateLookup = z.infer<typeof PlateLookupRecord>;

/**
 * Where registrations are looked up. `number` is normalised (upper-case, no
 * spaces or dashes). `fetch` answers null when the provider knows no such plate.
 */
export interface PlateLookupProvider {
  readonly name: 'built-in' | 'http';
  search(prefix: string, limit: number): Promise<PlateSuggestion[]>;
  fetch(number: string, state: string | undefined): Promise<PlateLookup | null>;
}

/** The provider failed (502) or did not answer in time (504): the message says which, never the provider's own text. */
export class PlateProviderError extends AppError {}

/** The built-in provider: the `registrations` table, which the demo seed fills (so the demo works offline). */
export function builtInPlateLookup(db: Database): PlateLookupProvider {
  return {
    name: 'built-in',
    search: (prefix, limit) => searchRegistrations(db, prefix, limit),
    async fetch(number, state) {
      const x = await findRegistration(db, number, state);
      if (!x) return null;
      return {
        number: x.number,
        state: x.state,
        ag_response: { colour: x.colour, make: x.make, model: x.model, vehicle: { body_type: x.body_type } },
        valuation_response: { price: x.valuation === null ? null : Number(x.valuation) },
      };
    },
  };
}

const SearchReply = z.object({ data: z.array(PlateSuggestionRecord) });
const FetchReply = z.object({ data: PlateLookupRecord });

/**
 * An external look-up service (PLATE_LOOKUP_URL, docs/scan-page.md) that answers this API's own shapes:
 * `GET {url}/search?number=<prefix>&limit=<n>` → `{data: [suggestion]}` and `GET {url}/fetch/{number}?state=` →
 * `{data: lookup}` or 404. The key goes as `Authorization: Bearer <PLATE_LOOKUP_KEY>`. Each call is bounded by
 * `timeoutMs`: no answer in time is 504, a refused connection, an error status or a reply of another shape 502.
 */
export function httpPlateLookup(opts: { url: string; key?: string; timeoutMs: number; fetchImpl?: typeof fetch }): PlateLookupProvider {
  const base = opts.url.replace(/\/+$/, '');
  const call = async <T>(path: string, shape: z.ZodType<T>): Promise<T | null> => {
    let res: Response;
    let body: unknown;
    try {
      res = await (opts.fetchImpl ?? fetch)(`${base}${path}`, {
        headers: { accept: 'application/json', ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}) },
        signal: AbortSignal.timeout(opts.timeoutMs),
        redirect: 'error',
      });
      if (res.status === 404) return null;
      if (!res.ok) throw new PlateProviderError(502, `The registration lookup service failed (status ${res.status})`);
      body = await res.json();
    } catch (e) {
      if (e instanceof PlateProviderError) throw e;
      const name = (e as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new PlateProviderError(504, `The registration lookup service did not answer within ${opts.timeoutMs / 1000} seconds`);
      throw new PlateProviderError(502, 'The registration lookup service could not be reached');
    }
    const parsed = shape.safeParse(body);
    if (!parsed.success) throw new PlateProviderError(502, 'The registration lookup service gave an answer that could not be read');
    return parsed.data;
  };
  return {
    name: 'http',
    async search(prefix, limit) {
      const reply = await call(`/search?${new URLSearchParams({ number: prefix, limit: String(limit) })}`, SearchReply);
      return (reply?.data ?? []).slice(0, limit);
    },
    async fetch(number, state) {
      const query = state ? `?${new URLSearchParams({ state })}` : '';
      const reply = await call(`/fetch/${encodeURIComponent(number)}${query}`, FetchReply);
      return reply?.data ?? null;
    },
  };
}

/** The configured provider: HTTP when PLATE_LOOKUP_URL is set, else the built-in registry. */
export function plateLookupProvider(
  db: Database,
  config: { PLATE_LOOKUP_URL?: string; PLATE_LOOKUP_KEY?: string; PLATE_LOOKUP_TIMEOUT_MS: number },
): PlateLookupProvider {
  if (config.PLATE_LOOKUP_URL)
    return httpPlateLookup({ url: config.PLATE_LOOKUP_URL, key: config.PLATE_LOOKUP_KEY, timeoutMs: config.PLATE_LOOKUP_TIMEOUT_MS });
  return builtInPlateLookup(db);
}

export { PLATE_SEARCH_LIMIT };
