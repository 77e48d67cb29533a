import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, secondInstance, type TestContext } from './helper';

/** The general request rate limit holds across instances with RATE_LIMIT_STORE=postgres. */
let t: TestContext;
let b: Awaited<ReturnType<typeof secondInstance>>;
beforeAll(async () => {
  t = await createTestContext({ RATE_LIMIT_STORE: 'postgres', RATE_LIMIT_PER_MINUTE: '10' });
  b = await secondInstance(t);
});

const health = (app: typeof t.app, remoteAddress: string) => app.inject({ method: 'GET', url: '/api/health', remoteAddress });

describe('a rate limit shared by two instances', () => {
  it('counts requests to either instance against one limit per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await health(i % 2 ? b.app : t.app, '10.12.0.1')).statusCode);
    expect(statuses).toEqual(Array(10).fill(200));
    const a11 = await health(t.app, '10.12.0.1');
    const b12 = await health(b.app, '10.12.0.1');
    expect([a11.statusCode, b12.statusCode]).toEqual([429, 429]);
    expect(Number(b12.headers['x-ratelimit-remaining'])).toBe(0);
    expect(Number(b12.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own count.
    expect((await health(b.app, '10.12.0.2')).statusCode).toBe(200);
  });

  it("keeps a route's own limit apart from the general one, and shared too", async () => {
    const reset = (app: typeof t.app) =>
      app.inject({
        method: 'POST',
        url: '/api/user/auth/forgot-password',
        payload: { email: 'nobody@example.test' },
        remoteAddress: '10.12.0.3',
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await reset(i % 2 ? b.app : t.app)).statusCode);
    expect(statuses.slice(0, 5).every((s) => s < 400)).toBe(true);
    expect(statuses[5]).toBe(429);
    const keys = (await sql<{ key: string }>`select key from rate_limits where key like '%10.12.0.3'`.execute(t.db)).rows.map((r) => r.key);
    expect(keys).toEqual(['POST /api/user/auth/forgot-password|10.12.0.3']);
  });

  it('starts a new window once the old one has expired', async () => {
    for (let i = 0; i < 11; i++) await health(t.app, '10.12.0.4');
    expect((await health(b.app, '10.12.0.4')).statusCode).toBe(429);
    await sql`update rate_limits set expires_at = now() - interval '1 second' where key = '10.12.0.4'`.execute(t.db);
    expect((await health(b.app, '10.12.0.4')).statusCode).toBe(200);
  });
});
