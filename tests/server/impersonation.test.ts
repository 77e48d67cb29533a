import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/lib/tokens';
import { createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
let adminId: number;
let agentId: number;
beforeAll(async () => {
  t = await createTestContext();
  const root = await t.build.user({ roles: ['Super Admin'], email: 'imp.root@example.test' });
  adminId = root.id;
  admin = await t.login(root.email);
  agentId = (await t.build.agent()).id;
});

const take = (token: string, id: number | string) => t.as(token, { method: 'GET', url: `/api/user/auth/impersonate/take/${id}` });
const leave = (token: string, id: number | string) => t.as(token, { method: 'GET', url: `/api/user/auth/impersonate/${id}/leave` });
const me = (token: string) => t.as(token, { method: 'GET', url: '/api/user/auth/user' });
const auditOf = (action: string, subject: number) =>
  t.db
    .selectFrom('audit_log')
    .select(['action', 'actor_id', 'subject_id'])
    .where('action', '=', action)
    .where('subject_id', '=', subject)
    .execute();

describe('take', () => {
  it('gives a Super Admin a token for the user, marked with the admin, and records it', async () => {
    const target = await t.build.user({ roles: ['Agent'], agents: [agentId], email: 'imp.target@example.test' });
    const res = await take(admin, target.id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      data: {
        id: target.id,
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        impersonator_id: adminId,
        roles: ['Agent'],
        permissions: expect.arrayContaining(['scan']),
        first_name: 'Test',
        last_name: 'User',
        name: 'Test User',
        email: 'imp.target@example.test',
        consent: 0,
        agents: [agentId],
        clients: [],
      },
      impersonator_id: adminId,
    });
    const token = body.data.token as string;
    const who = await me(token);
    expect(who.json().data).toMatchObject({ id: target.id, impersonator_id: adminId });
    const stored = await t.db
      .selectFrom('api_tokens')
      .select(['user_id', 'impersonator_id'])
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ user_id: target.id, impersonator_id: adminId });
    expect(await auditOf('impersonate.take', target.id)).toEqual([
      { action: 'impersonate.take', actor_id: adminId, subject_id: target.id },
    ]);
    // The admin's own session is untouched.
    expect((await me(admin)).json().data.id).toBe(adminId);
  });

  it('refuses a user who is not a Super Admin, even one holding `user`', async () => {
    const target = await t.build.user({ permissions: ['scan'] });
    const manager = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentId], permissions: ['user'] })).email);
    const res = await take(manager, target.id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'Only a Super Admin may impersonate a user.' });
    const plain = await t.login((await t.build.user({ permissions: ['scan'] })).email);
    expect((await take(plain, target.id)).statusCode).toBe(403);
    expect(await auditOf('impersonate.take', target.id)).toEqual([]);
  });

  it('refuses oneself and another Super Admin', async () => {
    const self = await take(admin, adminId);
    expect(self.statusCode).toBe(403);
    expect(self.json()).toEqual({ error: 'You cannot impersonate yourself.' });
    const other = await t.build.user({ roles: ['Super Admin'] });
    const peer = await take(admin, other.id);
    expect(peer.statusCode).toBe(403);
    expect(peer.json()).toEqual({ error: 'You cannot impersonate another Super Admin.' });
    // An app asking for keys gets the refusal's message key too, to say it in its user's language.
    const keyed = await t.as(admin, {
      method: 'GET',
      url: `/api/user/auth/impersonate/take/${other.id}`,
      headers: { 'x-message-keys': '1' },
    });
    expect(keyed.json()).toEqual({
      error: 'You cannot impersonate another Super Admin.',
      message: { key: 'app.errors.impersonate_super_admin' },
    });
    const before = await t.db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', 'in', [adminId, other.id])
      .where('impersonator_id', 'is not', null)
      .execute();
    expect(before).toEqual([]);
  });

  it('refuses to chain: not while the token is itself an impersonation', async () => {
    // The impersonated user may hold `user` and even be able to reach the route.
    const target = await t.build.user({ permissions: ['user'] });
    const third = await t.build.user({ permissions: ['scan'] });
    const impersonating = (await take(admin, target.id)).json().data.token as string;
    const res = await take(impersonating, third.id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'You are already impersonating a user; leave impersonation first.' });
    expect(await auditOf('impersonate.take', third.id)).toEqual([]);
  });

  it('does not let the impersonating admin accept the terms for the user', async () => {
    const target = await t.build.user({ permissions: ['scan'] });
    const impersonating = (await take(admin, target.id)).json().data.token as string;
    const res = await t.as(impersonating, { method: 'POST', url: '/api/user/auth/consent' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'Only the user can accept the terms, not an impersonating admin.' });
    expect((await t.db.selectFrom('users').select('consent').where('id', '=', target.id).executeTakeFirstOrThrow()).consent).toBe(0);
    // The user's own sign-in still can.
    const own = await t.as(await t.login(target.email), { method: 'POST', url: '/api/user/auth/consent' });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data.consent).toBe(1);
  });

  it("answers the model's 404 for an unknown user", async () => {
    for (const id of ['987654', 'abc']) {
      const res = await take(admin, id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: `No query results for model [User] ${id}` });
    }
  });

  it('needs a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/api/user/auth/impersonate/take/${adminId}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/user/auth/impersonate/${adminId}/leave` })).statusCode).toBe(401);
  });
});

describe('leave', () => {
  it('revokes the impersonation token, gives the admin a new one, and records it', async () => {
    const target = await t.build.user({ roles: ['Agent'], agents: [agentId] });
    const impersonating = (await take(admin, target.id)).json().data.token as string;
    const res = await leave(impersonating, adminId);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      data: expect.objectContaining({
        id: adminId,
        email: 'imp.root@example.test',
        roles: ['Super Admin'],
        impersonator_id: null,
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      }),
    });
    expect((await me(impersonating)).statusCode).toBe(401);
    const restored = await me(body.data.token);
    expect(restored.json().data).toMatchObject({ id: adminId, impersonator_id: null });
    expect(await auditOf('impersonate.leave', target.id)).toEqual([
      { action: 'impersonate.leave', actor_id: adminId, subject_id: target.id },
    ]);
  });

  it('refuses a token that is not an impersonation, or one taken by another admin', async () => {
    const notImpersonating = await leave(admin, adminId);
    expect(notImpersonating.statusCode).toBe(403);
    expect(notImpersonating.json()).toEqual({ error: 'You are not impersonating anyone.' });

    const target = await t.build.user({ permissions: ['scan'] });
    const impersonating = (await take(admin, target.id)).json().data.token as string;
    const otherAdmin = await t.build.user({ roles: ['Super Admin'] });
    for (const id of [otherAdmin.id, target.id, 'abc']) {
      const res = await leave(impersonating, id);
      expect(res.statusCode, String(id)).toBe(403);
      expect(res.json()).toEqual({ error: 'This impersonation was not started by that user.' });
    }
    // Still impersonating: nothing was revoked or issued.
    expect((await me(impersonating)).json().data).toMatchObject({ id: target.id, impersonator_id: adminId });
    expect(await auditOf('impersonate.leave', target.id)).toEqual([]);
    expect(await t.db.selectFrom('api_tokens').select('id').where('user_id', '=', otherAdmin.id).execute()).toEqual([]);
  });
});
