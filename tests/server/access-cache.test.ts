import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/lib/tokens';
import { AccessCache } from '../../server/plugins/auth';
import { createTestContext, type TestContext } from './helper';

/**
 * The checked-token cache (plugins/auth.ts): a burst of requests costs one database lookup, and every write that
 * changes who a token belongs to or what it may do takes effect on the very next request of this instance.
 */
let t: TestContext;
let admin: string;
let agentId: number;

beforeAll(async () => {
  t = await createTestContext({ AUTH_CACHE_SECONDS: '30' });
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  agentId = (await t.build.agent()).id;
  await t.build.location({ agent_id: agentId });
});

const me = (token: string) => t.as(token, { method: 'GET', url: '/api/user/auth/user' });
const locations = (token: string) => t.as(token, { method: 'GET', url: '/api/agent/locations' });
/** Revokes the token in the database only, as another instance would: this instance does not hear of it. */
const revokeBehindTheAppsBack = (token: string) =>
  t.db.updateTable('api_tokens').set({ revoked_at: new Date() }).where('token_hash', '=', hashToken(token)).execute();

describe('checked-token cache', () => {
  it('answers repeated requests from memory for AUTH_CACHE_SECONDS (the documented staleness)', async () => {
    const token = await t.login((await t.build.user()).email);
    expect((await me(token)).statusCode).toBe(200);
    await revokeBehindTheAppsBack(token);
    // Still served from the cache: proof that the second request did not query the token.
    expect((await me(token)).statusCode).toBe(200);
    t.app.accessCache.clear();
    expect((await me(token)).statusCode).toBe(401);
  });

  it('refuses a token right after its logout, on the same instance', async () => {
    const token = await t.login((await t.build.user()).email);
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(200);
    expect((await t.as(token, { method: 'POST', url: '/api/user/auth/logout' })).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('applies a role change at once: the user loses the permission on the next request', async () => {
    const user = await t.build.user({ roles: ['Agent'], agents: [agentId] });
    const token = await t.login(user.email);
    expect((await locations(token)).statusCode).toBe(200);
    const put = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/users/${user.id}`,
      payload: { first_name: 'Test', last_name: 'User', email: user.email, roles: ['Client'], clients: [(await t.build.client()).id] },
    });
    expect(put.statusCode).toBe(200);
    expect((await locations(token)).statusCode).toBe(403);
  });

  it("applies a role's permission change at once", async () => {
    const user = await t.build.user({ permissions: ['location'] });
    const token = await t.login(user.email);
    expect((await locations(token)).statusCode).toBe(200);
    const role = await t.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['roles.id', 'roles.name'])
      .where('user_roles.user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    const put = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/roles/${role.id}`,
      payload: { name: role.name, permissions: ['scan'] },
    });
    expect(put.statusCode).toBe(200);
    expect((await locations(token)).statusCode).toBe(403);
  });

  it("signs a user out everywhere at once when an admin sets the user's password", async () => {
    const user = await t.build.user({ roles: ['Agent'], agents: [agentId] });
    const token = await t.login(user.email);
    expect((await me(token)).statusCode).toBe(200);
    const put = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/users/${user.id}`,
      payload: {
        first_name: 'Test',
        last_name: 'User',
        email: user.email,
        roles: ['Agent'],
        agents: [agentId],
        password: 'a-new-password-1',
      },
    });
    expect(put.statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('refuses a deleted user at once', async () => {
    const user = await t.build.user({ roles: ['Agent'], agents: [agentId] });
    const token = await t.login(user.email);
    expect((await locations(token)).statusCode).toBe(200);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/user/users/${user.id}` })).statusCode).toBe(200);
    expect((await locations(token)).statusCode).toBe(401);
  });

  it('refuses an impersonation token as soon as the admin leaves', async () => {
    const superAdmin = await t.build.user({ roles: ['Super Admin'] });
    const adminToken = await t.login(superAdmin.email);
    const target = await t.build.user({ roles: ['Agent'], agents: [agentId] });
    const take = await t.as(adminToken, { method: 'GET', url: `/api/user/auth/impersonate/take/${target.id}` });
    expect(take.statusCode).toBe(200);
    const impersonation = take.json().data.token as string;
    expect((await me(impersonation)).json().data.id).toBe(target.id);
    const leave = await t.as(impersonation, { method: 'GET', url: `/api/user/auth/impersonate/${superAdmin.id}/leave` });
    expect(leave.statusCode).toBe(200);
    expect((await me(impersonation)).statusCode).toBe(401);
  });

  it('refuses a token after a password reset at once', async () => {
    const user = await t.build.user();
    const token = await t.login(user.email);
    expect((await me(token)).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/api/user/auth/forgot-password', payload: { email: user.email } });
    await t.app.background.settled(); // forgot-password replies before it writes the mail
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where((eb) => eb(eb.val(user.email), '=', eb.fn.any('recipients')))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const resetToken = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1];
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/user/auth/reset-password',
      payload: { token: resetToken, password: 'another-password-1', password_confirmation: 'another-password-1' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
  });
});

describe('AccessCache', () => {
  const access = (expiresInMs: number) => ({
    id: 1,
    first_name: 'A',
    last_name: 'B',
    email: 'a@b.test',
    consent: 1,
    roles: ['Agent'],
    permissions: ['location'],
    agents: [1],
    clients: [],
    token_id: 7,
    impersonator_id: null,
    expires_at: new Date(Date.now() + expiresInMs),
  });

  it('loads once within the TTL and never past the token’s own expiry', async () => {
    const cache = new AccessCache(60_000);
    let loads = 0;
    const load = () => (loads++, Promise.resolve(access(40)));
    await cache.get('h', load);
    await cache.get('h', load);
    expect(loads).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    await cache.get('h', load);
    expect(loads).toBe(2);
  });

  it('does not keep a load that was running when the cache was cleared', async () => {
    const cache = new AccessCache(60_000);
    let release!: () => void;
    const slow = cache.get('h', () => new Promise((r) => (release = () => r(access(60_000)))));
    cache.clear();
    release();
    await slow;
    expect(cache.size).toBe(0);
  });

  it('keeps nothing with a TTL of 0, and no failed check', async () => {
    const off = new AccessCache(0);
    await off.get('h', () => Promise.resolve(access(60_000)));
    expect(off.size).toBe(0);
    const on = new AccessCache(60_000);
    await on.get('h', () => Promise.resolve(null));
    expect(on.size).toBe(0);
  });
});
