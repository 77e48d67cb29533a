import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ClearableCache } from '../lib/clearable-cache';
import {
  dataScope,
  type DataScope,
  type PermissionName,
  type Principal,
  parseSelectionHeader,
  can,
  isUnrestricted,
} from '../../src/domain/permissions';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../errors';
import { hashToken } from '../lib/tokens';
import { KIOSK_HEADER, KIOSK_REQUIRED, portalAccess } from '../lib/kiosk';
import { findAccessByApiKeyHash, findAccessByTokenHash, type AccessRow } from '../lib/access';

/**
 * What a route needs: 'public' (nobody signed in), 'signed-in' (any user), a permission name
 * (src/domain/permissions.ts), 'device' (an API key, ingestion only), 'optional' (a bearer token is checked when one is sent;
 * the handler decides) or 'portal' (the customer portal of the agent in the `agentId` or `id` parameter: enabled,
 * and open or the request's X-Kiosk-Token enrolled for it). Every /api route must say it.
 * `unrestricted` marks a write to a global record (roles, permissions, settings, e-mail header, footer and templates):
 * it applies to every agent and client, so besides the permission it needs an unrestricted data scope (Super Admin).
 */
export type RouteAccess = 'public' | 'signed-in' | 'device' | 'optional' | 'portal' | { permission: PermissionName; unrestricted?: true };

/** One /api route as registered, with its declared access: the access matrix test walks these. */
export interface ApiRoute {
  method: string;
  url: string;
  access: RouteAccess;
}

export interface AuthUser extends Principal, Omit<AccessRow, 'roles' | 'permissions' | 'agents' | 'clients'> {
  /** The sign-in token's id; null on 'device' routes, where the user is the API key's. */
  tokenId: number | null;
  impersonatorId: number | null;
  /** When the sign-in token expires; null on 'device' routes. */
  tokenExpiresAt: Date | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route (HEAD aside: it answers as its GET) with its declared access, in registration order. */
    apiRoutes: ApiRoute[];
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    /** The rows this request may see (Super Admin: all; Agent/Client users: theirs; narrowed by X_SNG_*). */
    scope: DataScope;
  }
}

/** Why a restricted user's write to a global record is refused. */
export const GLOBAL_RECORD_REFUSAL = 'This record applies to every agent and client: only a Super Admin may change it.';

export const bearerToken = (request: FastifyRequest) => {
  const h = request.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
};

type TokenAccess = NonNullable<Awaited<ReturnType<typeof findAccessByTokenHash>>>;

/**
 * The users behind recently checked bearer tokens, kept `ttlSeconds` (and never past the token's own expiry), so a
 * burst of API calls costs one database query instead of one each. `clear()` forgets everything; a load that started
 * before a clear is not kept (it may have read what the clear was for). Only successful checks are kept.
 */
export class AccessCache {
  private readonly cache: ClearableCache<TokenAccess | null>;
  constructor(ttlMs: number, maxEntries = 10_000) {
    this.cache = new ClearableCache({ ttlMs, maxEntries });
  }

  get(token: string, load: () => Promise<TokenAccess | null>): Promise<TokenAccess | null> {
    return this.cache.get(
      token,
      async () => {
        const access = await load();
        if (!access) return null;
        for (const list of [access.roles, access.permissions, access.agents, access.clients]) Object.freeze(list);
        return Object.freeze(access);
      },
      (access) => (access ? access.expires_at.getTime() : null),
    );
  }

  clear() {
    this.cache.clear();
  }

  get size() {
    return this.cache.size;
  }
}

/**
 * Requests that may change who a token belongs to or what it may do: every write to the user service (logout,
 * password change and reset, profile, consent, users, roles and permissions, API keys) and impersonation (GET routes).
 * The cache is cleared when one of them replies, before the reply leaves, so this instance never answers from what
 * it replaced. Other instances hear of it over the bus (server/lib/pg-bus.ts) and clear theirs; without the bus, or if a
 * message is lost, they keep their copy for at most AUTH_CACHE_SECONDS (docs/performance.md).
 */
export const changesAccess = (request: FastifyRequest) => {
  const route = request.routeOptions.url ?? '';
  return (
    route.startsWith('/api/user/') &&
    ((request.method !== 'GET' && request.method !== 'HEAD') || route.startsWith('/api/user/auth/impersonate/'))
  );
};

/** The bus topic telling every instance to clear its checked-token cache. */
export const ACCESS_CACHE_TOPIC = 'access-cache';

declare module 'fastify' {
  interface FastifyInstance {
    accessCache: AccessCache;
  }
}

export const authPlugin = fp((app: FastifyInstance, opts: { cacheSeconds?: number }, done: () => void) => {
  const cache = new AccessCache((opts.cacheSeconds ?? 0) * 1000);
  app.decorate('accessCache', cache);
  app.decorateRequest('user', null);
  // Until a token is checked, a request sees nothing.
  const nothing: DataScope = { agents: [], clients: [] };
  const scopes = new WeakMap<FastifyRequest, DataScope>();
  app.decorateRequest('scope', {
    getter(this: FastifyRequest) {
      return scopes.get(this) ?? nothing;
    },
    setter(this: FastifyRequest, value: DataScope) {
      scopes.set(this, value);
    },
  });

  const apiRoutes: ApiRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const access = route.config?.access;
      if (!access) throw new Error(`Route ${method} ${route.url} does not declare its access (config.access)`);
      apiRoutes.push({ method, url: route.url, access });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    if (access === 'device') return authenticateDevice(request);
    if (access === 'portal') return checkPortal(request);
    const token = bearerToken(request);
    if (!token && access === 'optional') return;
    if (!token) throw new UnauthorizedError();
    // Keyed by the token itself (held in memory for AUTH_CACHE_SECONDS at most, like the request holding it): a hit
    // costs no SHA-256; the database only ever sees the hash.
    const row = await cache.get(token, () => findAccessByTokenHash(app.db, hashToken(token)));
    if (!row) throw new UnauthorizedError();
    const { token_id, impersonator_id, expires_at, ...user } = row;
    request.user = { ...user, tokenId: token_id, impersonatorId: impersonator_id, tokenExpiresAt: expires_at };
    if (typeof access === 'object' && !can(request.user, access.permission)) throw new ForbiddenError();
    // The user's own scope, not the X_SNG_* selection: a Super Admin viewing one agent still administers everything.
    if (typeof access === 'object' && access.unrestricted && !isUnrestricted(dataScope(request.user)))
      throw new ForbiddenError(GLOBAL_RECORD_REFUSAL);
    const agents = parseSelectionHeader(request.headers.x_sng_agents);
    const clients = parseSelectionHeader(request.headers.x_sng_clients);
    if (agents === undefined) throw new ValidationError({ X_SNG_AGENTS: 'X_SNG_AGENTS must be all or a list of agent ids' });
    if (clients === undefined) throw new ValidationError({ X_SNG_CLIENTS: 'X_SNG_CLIENTS must be all or a list of client ids' });
    request.scope = dataScope(request.user, agents, clients);
  });

  async function checkPortal(request: FastifyRequest) {
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    const raw = params.agentId ?? params.id ?? '';
    if (!/^\d{1,15}$/.test(raw)) throw new NotFoundError('Agent', raw);
    const access = await portalAccess(app.db, app.signer, Number(raw), request.headers[KIOSK_HEADER]);
    if (access === 'closed') throw new NotFoundError('Agent', raw);
    if (access === 'enrol') throw new UnauthorizedError(KIOSK_REQUIRED);
  }

  // Other instances clear theirs when the bus brings the word (milliseconds later), not after AUTH_CACHE_SECONDS.
  const bus = app.hasDecorator('bus') ? app.bus : null;
  bus?.subscribe(ACCESS_CACHE_TOPIC, () => cache.clear());
  // A callback hook, not an async one: it runs on every reply and almost always has nothing to do.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!changesAccess(request)) return done(null, payload);
    cache.clear();
    if (!bus) return done(null, payload);
    // Sent before the reply leaves; a bus failure costs only the bounded staleness above.
    bus.publish(ACCESS_CACHE_TOPIC, {}).then(
      () => done(null, payload),
      (err: unknown) => {
        request.log.error({ err }, 'access cache clear not sent');
        done(null, payload);
      },
    );
  });

  /**
   * 'device' routes (the ingestion API, docs/ingestion.md) take the API key of a user, as a bearer token or X-Api-Key,
   * never a sign-in token; the scope is the key user's own (no X_SNG_* selection).
   */
  async function authenticateDevice(request: FastifyRequest) {
    const header = request.headers['x-api-key'];
    const key = bearerToken(request) ?? (typeof header === 'string' && header.trim() ? header.trim() : null);
    if (!key) throw new UnauthorizedError();
    const row = await findAccessByApiKeyHash(app.db, hashToken(key));
    if (!row) throw new UnauthorizedError();
    request.user = { ...row, tokenId: null, impersonatorId: null, tokenExpiresAt: null };
    request.scope = dataScope(request.user);
  }
  done();
});
