import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { createDatabase } from '../../server/db/database';
import { createTestContext, PASSWORD, type TestContext } from './helper';

/**
 * Request cost: with the token checked recently, an authenticated read is one database round trip:
 * one record is one query, a page (rows and total) is one query.
 */
let t: TestContext;
let app: FastifyInstance;
let queries: string[] = [];
let token: string;
let agentId: number;

beforeAll(async () => {
  t = await createTestContext();
  // The same app on the same database, through a Kysely that notes every statement it runs.
  const db = createDatabase(t.url, 2).withPlugin({
    transformQuery: (args) => {
      queries.push(args.node.kind);
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  });
  app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DATABASE_URL: t.url, STATIC_DIR: 'none', PAGE_CACHE_SECONDS: '0' }),
    db,
  });
  await app.ready();
  afterAll(async () => {
    await app.close();
    await db.destroy();
  });
  agentId = (await t.build.agent()).id;
  for (let i = 0; i < 30; i++) await t.build.location({ agent_id: agentId, name: `Depot ${String(i).padStart(2, '0')}` });
  const user = await t.build.user({ roles: ['Agent'], agents: [agentId] });
  const login = await app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { email: user.email, password: PASSWORD } });
  token = login.json().data.token as string;
});

const get = (url: string) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
const statementsFor = async (url: string) => {
  await get(url);
  queries = [];
  const res = await get(url);
  expect(res.statusCode, res.body).toBe(200);
  return { res, statements: queries.length };
};

describe('database round trips of an authenticated read', () => {
  it('one record: one statement', async () => {
    const id = (await get('/api/agent/locations?per_page=1')).json().items[0].id as number;
    expect((await statementsFor(`/api/agent/locations/${id}`)).statements).toBe(1);
  });

  it('a page of 25 with its total: one statement, rows in order', async () => {
    const { res, statements } = await statementsFor('/api/agent/locations?page=1&per_page=25&sort=name&order=desc');
    expect(statements).toBe(1);
    const body = res.json();
    expect(body.total).toBe(30);
    expect(body.items.map((l: { name: string }) => l.name)).toEqual(
      Array.from({ length: 25 }, (_, i) => `Depot ${String(29 - i).padStart(2, '0')}`),
    );
    expect(Object.keys(body.items[0]).sort()).toEqual(['agent_id', 'created_at', 'id', 'name', 'state', 'updated_at']);
  });

  it('a page past the end: no rows, and still the total', async () => {
    const res = await get('/api/agent/locations?page=9&per_page=25');
    expect(res.json()).toEqual({ items: [], total: 30 });
    const none = await get('/api/agent/locations?q=no-such-depot');
    expect(none.json()).toEqual({ items: [], total: 0 });
  });
});
