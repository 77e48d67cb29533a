import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'kysely';
import type { Database } from '../db/database';

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;

/**
 * A store for @fastify/rate-limit in PostgreSQL (`rate_limits`, migration 017, unlogged), so every instance counts the
 * same requests: one upsert per request, a fixed window per key starting at its first hit (as the memory store).
 * A route with its own limit counts under its own prefix. Expired rows are swept at most once a minute.
 */
export function pgRateLimitStore(db: Database): FastifyRateLimitStoreCtor {
  let lastSweep = 0;
  const sweep = () => {
    if (Date.now() - lastSweep < 60_000) return;
    lastSweep = Date.now();
    sql`delete from rate_limits where expires_at < now()`.execute(db).catch(() => {});
  };

  class PgStore implements FastifyRateLimitStore {
    constructor(private readonly prefix = '') {}

    incr(key: string, callback: Callback, timeWindow: number) {
      sql<Result>`insert into rate_limits as r (key, hits, expires_at)
          values (${this.prefix + key}, 1, now() + make_interval(secs => ${timeWindow / 1000}))
        on conflict (key) do update set
          hits = case when r.expires_at <= now() then 1 else r.hits + 1 end,
          expires_at = case when r.expires_at <= now() then excluded.expires_at else r.expires_at end
        returning hits as current, greatest(0, ceil(extract(epoch from (expires_at - now())) * 1000))::int as ttl`
        .execute(db)
        .then(
          (r) => callback(null, r.rows[0]),
          (e: Error) => callback(e),
        );
      sweep();
    }

    read(key: string, callback: Callback) {
      sql<Result>`select hits as current, greatest(0, ceil(extract(epoch from (expires_at - now())) * 1000))::int as ttl
          from rate_limits where key = ${this.prefix + key} and expires_at > now()`
        .execute(db)
        .then(
          (r) => callback(null, r.rows[0] ?? { current: 0, ttl: 0 }),
          (e: Error) => callback(e),
        );
    }

    child(routeOptions: FastifyRateLimitOptions & { routeInfo?: { method?: string | string[]; url?: string } }) {
      const route = routeOptions.routeInfo;
      return new PgStore(`${[route?.method ?? ''].flat().join(',')} ${route?.url ?? ''}|`);
    }
  }
  return class {
    constructor() {
      return new PgStore();
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
