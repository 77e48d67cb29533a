import type { FastifyRequest } from 'fastify';

/** Paths whose whole query string is left out of logs: sign-in and password flows carry secrets there. */
const SECRET_QUERY_PATHS = [/^\/api\/user\/auth\//, /^\/reset-password(?:\/|$)/, /^\/forgot-password(?:\/|$)/];
/** Query parameters that are credentials wherever they appear (reset tokens, signed links, kiosk tokens). */
const SECRET_PARAMS = new Set(['token', 'sig', 'signature', 'kiosk_token', 'access_token', 'api_key', 'apikey', 'auth']);
export const REDACTED = '[redacted]';
/** Paths whose last segment is a credential: an approval link's token (the public page and its API calls). */
const SECRET_PATH_SEGMENTS = [/^(\/approve\/)[^/?#]+/, /^(\/api\/quote\/approvals\/)[^/?#]+/];

/** The URL as it may be logged: no token in a path, no query string on the auth routes, no credential parameter anywhere. */
export function redactUrl(raw: string): string {
  const url = SECRET_PATH_SEGMENTS.reduce((u, re) => u.replace(re, `$1${REDACTED}`), raw);
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pathname = url.slice(0, q);
  if (SECRET_QUERY_PATHS.some((re) => re.test(pathname))) return `${pathname}?${REDACTED}`;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      let name = eq < 0 ? part : part.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is logged as it came.
      }
      return SECRET_PARAMS.has(name.toLowerCase()) ? `${part.slice(0, eq < 0 ? part.length : eq)}=${REDACTED}` : part;
    });
  return `${pathname}?${parts.join('&')}`;
}

/** Fastify's request serializer, with the URL redacted and no headers (Authorization, X-Kiosk-Token, X-Api-Key never reach a log). */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
