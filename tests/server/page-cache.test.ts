import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ClearableCache } from '../../server/lib/clearable-cache';
import { describedResources, resourceRepository } from '../../server/lib/resource';
import type { DataScope } from '../../src/domain/permissions';
import { pageJsonStatement } from '../../server/lib/page-json';
import { ensurePageCacheTriggers } from '../../server/plugins/page-cache';
import { createTestContext, secondInstance, type TestContext } from './helper';
import { scratch } from './scratch-resource';

/**
 * The page cache (plugins/page-cache.ts, to cut a request's cost): a list page PostgreSQL writes is reused for the same
 * statement and parameters, and every change is seen at once by whoever made it and milliseconds later by every
 * instance, whoever wrote it.
 */
let t: TestContext;
let b: FastifyInstance;
let admin: string;
let agentA: number;
let agentB: number;
let userA: string;
let userB: string;

beforeAll(async () => {
  // A long life: only a clear can make a page change within these tests.
  // The scratch resource is scoped by client alone: an agents-only scope reads none of its rows.
  t = await createTestContext({ PAGE_CACHE_SECONDS: '60' }, undefined, undefined, scratch);
  b = (await secondInstance(t)).app;
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  agentA = (await t.build.agent({ name: 'Cache agent A' })).id;
  agentB = (await t.build.agent({ name: 'Cache agent B' })).id;
  await t.build.location({ agent_id: agentA, name: 'Cache depot A' });
  await t.build.location({ agent_id: agentB, name: 'Cache depot B' });
  userA = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA] })).email);
  userB = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentB] })).email);
});

const PAGE = '/api/agent/locations?page=1&per_page=25&sort=name&order=asc';
const names = async (app: FastifyInstance, token: string, url = PAGE) => {
  const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { name: string }[]).map((l) => l.name);
};

/** Renames a location in the database without firing triggers (replica role): nobody is told, as if nothing changed. */
async function renameSilently(from: string, to: string) {
  const c = new pg.Client({ connectionString: t.url });
  await c.connect();
  try {
    await c.query(`set session_replication_role = replica`);
    await c.query('update locations set name = $1 where name = $2', [to, from]);
  } finally {
    await c.end();
  }
}

describe('page cache', () => {
  it('serves a repeated page from memory, without the database', async () => {
    t.app.pageCache.clear();
    expect(await names(t.app, admin)).toContain('Cache depot A');
    await renameSilently('Cache depot A', 'Cache depot A (silent)');
    // Still the kept page: proof that the database was not asked.
    expect(await names(t.app, admin)).toContain('Cache depot A');
    expect(t.app.pageCache.size).toBeGreaterThan(0);
    t.app.pageCache.clear();
    expect(await names(t.app, admin)).toContain('Cache depot A (silent)');
    await renameSilently('Cache depot A (silent)', 'Cache depot A');
    t.app.pageCache.clear();
  });

  it("keeps each data scope's page apart: an Agent user never gets another agent's kept page", async () => {
    expect(await names(t.app, userA)).toEqual(['Cache depot A']);
    expect(await names(t.app, userB)).toEqual(['Cache depot B']);
    expect(await names(t.app, userA)).toEqual(['Cache depot A']);
    // A search, a sort and a page are parts of the key too.
    expect(await names(t.app, admin, '/api/agent/locations?q=depot%20b')).toEqual(['Cache depot B']);
    expect(await names(t.app, admin, '/api/agent/locations?q=depot%20a')).toEqual(['Cache depot A']);
  });

  it('shows a write through the API on the very next request of the same instance', async () => {
    expect(await names(t.app, userA)).toEqual(['Cache depot A']);
    const res = await t.as(userA, { method: 'POST', url: '/api/agent/locations', payload: { name: 'Cache depot A2', state: 'VIC' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(await names(t.app, userA)).toEqual(['Cache depot A', 'Cache depot A2']);
    const id = res.json().data.id as number;
    expect((await t.as(userA, { method: 'DELETE', url: `/api/agent/locations/${id}` })).statusCode).toBe(200);
    expect(await names(t.app, userA)).toEqual(['Cache depot A']);
  });

  it('hears a change written straight into the database (a worker, psql): every instance forgets its pages', async () => {
    expect(await names(t.app, admin)).toContain('Cache depot B');
    expect(await names(b, admin)).toContain('Cache depot B');
    await t.db.updateTable('locations').set({ name: 'Cache depot B (psql)' }).where('name', '=', 'Cache depot B').execute();
    await vi.waitFor(() => expect(t.app.pageCache.size + b.pageCache.size).toBe(0), { timeout: 5000, interval: 10 });
    expect(await names(t.app, admin)).toContain('Cache depot B (psql)');
    expect(await names(b, admin)).toContain('Cache depot B (psql)');
  });

  it("clears another instance's pages when a request writes on this one", async () => {
    expect(await names(b, userA)).toEqual(['Cache depot A']);
    const res = await t.as(userA, { method: 'POST', url: '/api/agent/locations', payload: { name: 'Cache depot A3', state: 'NSW' } });
    expect(res.statusCode, res.body).toBe(201);
    await vi.waitFor(async () => expect(await names(b, userA)).toEqual(['Cache depot A', 'Cache depot A3']), {
      timeout: 5000,
      interval: 10,
    });
  });

  it('hears a cascade: deleting an agent empties the owner of its locations in kept pages', async () => {
    const agent = await t.build.agent({ name: 'Cache agent gone' });
    await t.build.location({ agent_id: agent.id, name: 'Cache depot orphan' });
    const owner = async () =>
      ((await t.as(admin, { method: 'GET', url: '/api/agent/locations?q=orphan' })).json().items as { agent_id: number | null }[])[0]
        .agent_id;
    expect(await owner()).toBe(agent.id);
    await t.db.deleteFrom('agents').where('id', '=', agent.id).execute();
    await vi.waitFor(async () => expect(await owner()).toBeNull(), { timeout: 5000, interval: 10 });
  });

  it("puts the trigger on a new resource's table at start, once, so a write there clears every instance's cache", async () => {
    await sql`create table cache_scratch (id bigserial primary key, name text)`.execute(t.db);
    await ensurePageCacheTriggers(t.db, ['cache_scratch', 'cache_scratch']);
    await ensurePageCacheTriggers(t.db, ['cache_scratch']);
    const triggers = await sql<{ n: number }>`select count(*)::int as n from pg_trigger g join pg_class c on c.oid = g.tgrelid
      where g.tgname = 'page_cache_notify' and c.relname = 'cache_scratch'`.execute(t.db);
    expect(triggers.rows[0].n).toBe(1);
    await names(b, admin);
    expect(b.pageCache.size).toBeGreaterThan(0);
    await sql`insert into cache_scratch (name) values ('x')`.execute(t.db);
    await vi.waitFor(() => expect(b.pageCache.size).toBe(0), { timeout: 5000, interval: 10 });
  });

  it('has the trigger on every table a cached page reads, for every scope', async () => {
    const triggered = new Set(
      (
        await sql<{ name: string }>`select c.relname as name from pg_trigger g join pg_class c on c.oid = g.tgrelid
          where g.tgname = 'page_cache_notify'`.execute(t.db)
      ).rows.map((r) => r.name),
    );
    const scopes: DataScope[] = [
      { agents: null, clients: null },
      { agents: [agentA], clients: null },
      { agents: null, clients: [1] },
      { agents: [agentA], clients: [1] },
    ];
    const c = new pg.Client({ connectionString: t.url });
    await c.connect();
    const cached: string[] = [];
    try {
      for (const d of describedResources(t.app.definitions.map((r) => r.path))) {
        const repo = resourceRepository(d);
        // A scope the resource names no column for reads nothing (the planner drops a constant-false query).
        const readByAnyScope = new Set<string>();
        for (const scope of scopes) {
          const q = { page: 1, per_page: 25, q: 'x' };
          const statement = d.pageJson ? pageJsonStatement(t.db, d, repo.pageParts(scope, q), q.per_page) : null;
          if (!statement) continue;
          cached.push(d.path);
          const plan = await c.query<{ 'QUERY PLAN': unknown }>(`explain (format json) ${statement.sql}`, [...statement.parameters]);
          const read = new Set<string>();
          JSON.stringify(plan.rows[0]['QUERY PLAN'], (key, value: unknown) => {
            if (key === 'Relation Name') read.add(value as string);
            return value;
          });
          for (const table of read) expect(triggered, `${d.path} reads ${table}`).toContain(table);
          for (const table of read) readByAnyScope.add(table);
        }
        if (d.pageJson) expect(readByAnyScope, `${d.path}: no table in any plan`).toContain(d.table);
      }
    } finally {
      await c.end();
    }
    // The resources whose definitions opt in (`pageCache: true`): their pages go through the cache.
    const optedIn = t.app.definitions.filter((d) => d.pageCache).map((d) => d.path);
    expect(optedIn).toEqual(expect.arrayContaining(['locations', 'devices', 'agents', 'permissions', 'panels', 'scratchInsurers']));
    expect(new Set(cached)).toEqual(new Set(optedIn));
  });
});

describe('ClearableCache', () => {
  it('does not keep a load that was reading while the cache was cleared', async () => {
    const cache = new ClearableCache<string>({ ttlMs: 60_000, maxEntries: 10 });
    let release!: () => void;
    const loading = cache.get('k', () => new Promise<string>((resolve) => (release = () => resolve('old'))));
    cache.clear();
    release();
    expect(await loading).toBe('old');
    expect(await cache.get('k', () => Promise.resolve('new'))).toBe('new');
  });

  it('keeps nothing with a life of 0, and drops the oldest entries past its count or weight', async () => {
    const off = new ClearableCache<string>({ ttlMs: 0, maxEntries: 10 });
    await off.get('k', () => Promise.resolve('v'));
    expect(off.size).toBe(0);
    const cache = new ClearableCache<string>({ ttlMs: 60_000, maxEntries: 3, maxWeight: 10, weigh: (v) => v.length });
    for (const k of ['a', 'b', 'c', 'd']) await cache.get(k, () => Promise.resolve('xx'));
    expect(cache.size).toBe(3);
    expect(await cache.get('a', () => Promise.resolve('reloaded'))).toBe('reloaded');
    expect(cache.totalWeight).toBeLessThanOrEqual(10);
    // Heavier than the whole cache: served, never kept.
    await cache.get('big', () => Promise.resolve('x'.repeat(11)));
    expect(await cache.get('big', () => Promise.resolve('again'))).toBe('again');
  });

  it('forgets an entry when its life is over', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new ClearableCache<string>({ ttlMs: 1000, maxEntries: 10 });
      await cache.get('k', () => Promise.resolve('v1'));
      expect(await cache.get('k', () => Promise.resolve('v2'))).toBe('v1');
      vi.setSystemTime(Date.now() + 1001);
      expect(await cache.get('k', () => Promise.resolve('v3'))).toBe('v3');
    } finally {
      vi.useRealTimers();
    }
  });
});
