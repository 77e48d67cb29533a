import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { Executor } from '../db/database';
import { ClearableCache } from '../lib/clearable-cache';
import { describedResources } from '../lib/resource';

/**
 * The bus topic that clears every instance's page cache. PostgreSQL publishes it itself: a statement trigger on every
 * table a cached page reads (`notify_page_cache`, migration 018_page_cache.sql; put at start on the tables of every
 * resource whose pages are cached, `ensurePageCacheTriggers`) sends `{"t":"page-cache","m":{}}` on the bus channel when
 * the writing transaction commits, whoever wrote (a request of any instance, a background worker, a cascade, psql).
 */
export const PAGE_CACHE_TOPIC = 'page-cache';

/** A page is at most 100 flat records: tens of kB. The cache holds a few hundred of them. */
const MAX_PAGES = 1_000;
const MAX_BYTES = 16 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** Reply bodies of list pages written by PostgreSQL, keyed by their statement and its parameters. */
    pageCache: ClearableCache<string>;
  }
}

/**
 * The list pages PostgreSQL writes (`repo.pageJson` in server/lib/resource.ts) are kept for PAGE_CACHE_SECONDS,
 * keyed by the exact statement and parameters, which hold the request's data scope, search, filters, sort and page:
 * two requests share an entry only when the database would give them the same body.
 *
 * Cleared (the whole cache, never one entry):
 * - on this instance, by every request that may write (any method but GET, HEAD and OPTIONS), before its reply
 *   leaves: whoever wrote sees their change on the next request;
 * - on every instance, when PostgreSQL's trigger publishes PAGE_CACHE_TOPIC on the bus after a commit that changed a
 *   table behind a cached page (milliseconds later).
 * A load that was reading while the cache was cleared is not kept. Without the PostgreSQL bus (REALTIME_BUS=none),
 * or while the bus connection is lost, a change made elsewhere than this instance's requests is seen after at most
 * PAGE_CACHE_SECONDS (docs/performance.md).
 */
export const pageCachePlugin = fp((app: FastifyInstance, opts: { cacheSeconds: number }, done: () => void) => {
  const cache = new ClearableCache<string>({
    ttlMs: opts.cacheSeconds * 1000,
    maxEntries: MAX_PAGES,
    maxWeight: MAX_BYTES,
    // UTF-16 code units: close enough to bytes for a bound.
    weigh: (body) => body.length,
  });
  app.decorate('pageCache', cache);
  app.addHook('onReady', async () => {
    const tables = describedResources(app.definitions.map((d) => d.path)).flatMap((d) => (d.pageJson ? [d.table, ...(d.reads ?? [])] : []));
    await ensurePageCacheTriggers(app.db, tables);
  });
  if (app.hasDecorator('bus')) app.bus.subscribe(PAGE_CACHE_TOPIC, () => cache.clear());
  // A callback hook: it runs on every reply and has nothing to do for reads.
  app.addHook('onSend', (request, _reply, payload, next) => {
    const m = request.method;
    if (m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS') cache.clear();
    next(null, payload);
  });
  done();
});

/**
 * Gives each of `tables` the page cache's trigger when it has none (a resource's new table gets it at the first start
 * after its migration). Instances starting together may race: the loser's "already exists" is the wanted state.
 */
export async function ensurePageCacheTriggers(db: Executor, tables: string[]) {
  const have = new Set(
    (
      await sql<{ name: string }>`select c.relname as name from pg_trigger g join pg_class c on c.oid = g.tgrelid
        where g.tgname = 'page_cache_notify'`.execute(db)
    ).rows.map((r) => r.name),
  );
  for (const table of new Set(tables)) {
    if (have.has(table)) continue;
    try {
      await sql`create trigger page_cache_notify after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function notify_page_cache()`.execute(db);
    } catch (e) {
      if ((e as { code?: string }).code !== '42710') throw e;
    }
  }
}
