import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/lib/tokens';
import { createTestContext, PASSWORD, type TestContext } from './helper';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});

const login = (email: unknown, password: unknown, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { email, password }, remoteAddress });

describe('POST auth/login', () => {
  it('replies the current user with a bearer token that opens auth/user', async () => {
    const agent = await t.build.agent();
    const client = await t.build.client();
    const u = await t.build.user({ roles: ['Agent'], agents: [agent.id], clients: [client.id], email: 'Login.Shape@Example.test' });
    const res = await login('login.shape@example.test', PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data).toMatchObject({
      id: u.id,
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      roles: ['Agent'],
      permissions: expect.arrayContaining(['scan', 'scan_edit', 'quote_edit', 'location', 'device', 'dashboard_statistics']),
      first_name: 'Test',
      last_name: 'User',
      name: 'Test User',
      email: 'Login.Shape@Example.test',
      consent: 0,
      agents: [agent.id],
      clients: [client.id],
    });
    expect(body.data.permissions).toHaveLength(6);
    for (const key of ['id', 'token', 'roles', 'permissions', 'first_name', 'last_name', 'name', 'email', 'consent', 'agents', 'clients']) {
      expect(body.data).toHaveProperty(key);
    }
    const me = await t.as(body.data.token, { method: 'GET', url: '/api/user/auth/user' });
    expect(me.statusCode).toBe(200);
    // toEqual treats the undefined token as absent: the same user without it.
    expect(me.json()).toEqual({ data: { ...body.data, token: undefined } });
    // Only a digest of the token is stored.
    const stored = await t.db.selectFrom('api_tokens').select('token_hash').where('user_id', '=', u.id).execute();
    expect(stored).toEqual([{ token_hash: hashToken(body.data.token) }]);
  });

  it('answers a wrong password and an unknown e-mail with the same 422 body', async () => {
    await t.build.user({ email: 'wrong.pw@example.test' });
    const wrong = await login('wrong.pw@example.test', 'not-the-password', '10.0.0.1');
    const unknown = await login('nobody.here@example.test', 'not-the-password', '10.0.0.1');
    expect(wrong.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ error: { email: expect.any(String) } });
    expect(unknown.body).toBe(wrong.body);
  });

  it('validates the body into a field map', async () => {
    const missingEmail = await t.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { password: 'x' } });
    expect(missingEmail.statusCode).toBe(422);
    expect(missingEmail.json()).toEqual({ error: { email: 'Email is required' } });

    const badEmail = await login('not-an-email', 'x');
    expect(badEmail.statusCode).toBe(422);
    expect(badEmail.json()).toEqual({ error: { email: 'Enter a valid email address' } });

    const missingPassword = await t.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { email: 'a@b.test' } });
    expect(missingPassword.statusCode).toBe(422);
    expect(missingPassword.json()).toEqual({ error: { password: 'Password is required' } });
    const numberPassword = await t.app.inject({
      method: 'POST',
      url: '/api/user/auth/login',
      payload: { email: 'a@b.test', password: 123 },
    });
    expect(numberPassword.json()).toEqual({ error: { password: 'Password must be a string' } });

    const both = await t.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: {} });
    expect(both.statusCode).toBe(422);
    expect(Object.keys(both.json().error).sort()).toEqual(['email', 'password']);
  });

  it('throttles after 5 failures per e-mail and address, even for the right password; other e-mails are not held', async () => {
    await t.build.user({ email: 'throttled@example.test' });
    await t.build.user({ email: 'bystander@example.test' });
    const ip = '10.1.2.3';
    for (let i = 0; i < 5; i++) expect((await login('throttled@example.test', `wrong-${i}`, ip)).statusCode).toBe(422);

    const sixth = await login('throttled@example.test', PASSWORD, ip);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual({ error: expect.stringMatching(/too many login attempts/i) });
    const retry = Number(sixth.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);

    // The e-mail is matched case-insensitively, and a spoofed X-Forwarded-For does not reset the count.
    const upper = await t.app.inject({
      method: 'POST',
      url: '/api/user/auth/login',
      remoteAddress: ip,
      headers: { 'x-forwarded-for': '203.0.113.9' },
      payload: { email: 'THROTTLED@example.test', password: PASSWORD },
    });
    expect(upper.statusCode).toBe(429);

    expect((await login('bystander@example.test', PASSWORD, ip)).statusCode).toBe(200);
    // The same e-mail from another address is its own bucket.
    expect((await login('throttled@example.test', PASSWORD, '10.9.9.9')).statusCode).toBe(200);
  });

  it('checks at most 5 of 20 parallel wrong attempts: counted before checking, the rest 429', async () => {
    await t.build.user({ email: 'parallel@example.test' });
    const ip = '10.7.7.7';
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => login('parallel@example.test', `wrong-${i}`, ip)));
    const codes = replies.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 422).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(15);
    expect(codes.every((c) => c === 422 || c === 429)).toBe(true);
    expect((await login('parallel@example.test', PASSWORD, ip)).statusCode).toBe(429);
  });

  it('refuses a NUL byte in the e-mail or password with 422 on the field', async () => {
    const email = await login('nul\u0000@example.test', 'x');
    expect(email.statusCode).toBe(422);
    expect(email.json()).toEqual({ error: { email: 'Email must not contain a NUL character' } });
    const password = await login('nul@example.test', 'pass\u0000word');
    expect(password.statusCode).toBe(422);
    expect(password.json()).toEqual({ error: { password: 'Password must not contain a NUL character' } });
  });

  it('lets the failures age out of the window', async () => {
    await t.build.user({ email: 'aged@example.test' });
    const ip = '10.4.4.4';
    for (let i = 0; i < 5; i++) await login('aged@example.test', 'wrong', ip);
    expect((await login('aged@example.test', PASSWORD, ip)).statusCode).toBe(429);
    await t.db
      .updateTable('auth_throttles')
      .set({ window_start: sql`now() - interval '2 minutes'` })
      .where('bucket', '=', 'login')
      .where('throttle_key', '=', `aged@example.test|${ip}`)
      .execute();
    expect((await login('aged@example.test', PASSWORD, ip)).statusCode).toBe(200);
  });
});

describe('GET auth/user', () => {
  it('needs a live bearer token', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/user/auth/user' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: expect.any(String) });

    const garbage = await t.as('garbage-token', { method: 'GET', url: '/api/user/auth/user' });
    expect(garbage.statusCode).toBe(401);
    expect(garbage.json()).toEqual({ error: expect.any(String) });

    const basic = await t.app.inject({ method: 'GET', url: '/api/user/auth/user', headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.statusCode).toBe(401);
  });

  it('refuses an expired token', async () => {
    const u = await t.build.user();
    const token = await t.login(u.email);
    expect((await t.as(token, { method: 'GET', url: '/api/user/auth/user' })).statusCode).toBe(200);
    await t.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', hashToken(token))
      .execute();
    // Edited behind the app's back: forget the checked token as the app's own writes do (plugins/auth.ts).
    t.app.accessCache.clear();
    const res = await t.as(token, { method: 'GET', url: '/api/user/auth/user' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });
});

describe('POST auth/logout', () => {
  it('revokes only the token it was called with', async () => {
    const u = await t.build.user();
    const first = await t.login(u.email);
    const second = await t.login(u.email);
    const out = await t.as(first, { method: 'POST', url: '/api/user/auth/logout' });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ data: { message: expect.any(String) } });
    expect((await t.as(first, { method: 'GET', url: '/api/user/auth/user' })).statusCode).toBe(401);
    expect((await t.as(first, { method: 'POST', url: '/api/user/auth/logout' })).statusCode).toBe(401);
    const other = await t.as(second, { method: 'GET', url: '/api/user/auth/user' });
    expect(other.statusCode).toBe(200);
    expect(other.json().data.id).toBe(u.id);
  });
});

describe('POST auth/consent', () => {
  it('records the consent on the server', async () => {
    const u = await t.build.user();
    const token = await t.login(u.email);
    expect((await t.as(token, { method: 'GET', url: '/api/user/auth/user' })).json().data.consent).toBe(0);
    const res = await t.as(token, { method: 'POST', url: '/api/user/auth/consent' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: u.id, consent: 1 });
    // Another browser (a new sign-in) sees it too.
    const again = await t.login(u.email);
    expect((await t.as(again, { method: 'GET', url: '/api/user/auth/user' })).json().data.consent).toBe(1);
  });
});

describe('PUT auth/profile', () => {
  const profile = (token: string, payload: Record<string, unknown>) =>
    t.as(token, { method: 'PUT', url: '/api/user/auth/profile', payload });
  /** The change in `body` is refused (422 on current_password) without the current password, and with a wrong one. */
  const expectCurrentPasswordAsked = async (token: string, body: Record<string, unknown>) => {
    const missing = await profile(token, body);
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toEqual({ error: { current_password: 'Current Password is required' } });
    const wrong = await profile(token, { ...body, current_password: 'not-my-password' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ error: { current_password: 'The current password is incorrect.' } });
  };

  it('needs `user`, as the Update Profile page does', async () => {
    const u = await t.build.user({ roles: ['Client'] });
    const res = await profile(await t.login(u.email), { first_name: 'No', last_name: 'Access', email: u.email });
    expect(res.statusCode).toBe(403);
    expect((await t.db.selectFrom('users').select('last_name').where('id', '=', u.id).executeTakeFirstOrThrow()).last_name).toBe('User');
  });

  it('updates the name and e-mail and keeps the password when none is typed', async () => {
    const u = await t.build.user({ email: 'profile.keep@example.test', permissions: ['user'] });
    const token = await t.login(u.email);
    const res = await profile(token, {
      first_name: ' Ada ',
      last_name: 'Lovelace',
      email: 'ada@example.test',
      password: '',
      current_password: PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: u.id,
      first_name: 'Ada',
      last_name: 'Lovelace',
      name: 'Ada Lovelace',
      email: 'ada@example.test',
    });
    expect(res.json().data).not.toHaveProperty('token');
    expect((await t.as(token, { method: 'GET', url: '/api/user/auth/user' })).json().data.email).toBe('ada@example.test');
    // Old password still works, with the new e-mail.
    expect((await login('ada@example.test', PASSWORD)).statusCode).toBe(200);
    expect((await login('profile.keep@example.test', PASSWORD)).statusCode).toBe(422);
  });

  it('sets a new password only with the current one, and signs out every other session of the user', async () => {
    const u = await t.build.user({ permissions: ['user'] });
    const token = await t.login(u.email);
    const other = await t.login(u.email);
    const body = { first_name: 'New', last_name: 'Password', email: u.email, password: 'brand-new-secret' };

    await expectCurrentPasswordAsked(token, body);
    expect((await login(u.email, PASSWORD, '10.8.0.1')).statusCode).toBe(200);

    const res = await profile(token, { ...body, current_password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect((await login(u.email, 'brand-new-secret', '10.8.0.2')).statusCode).toBe(200);
    expect((await login(u.email, PASSWORD, '10.8.0.3')).statusCode).toBe(422);
    // This session stays; the others (a second browser, the logins above) are signed out.
    expect((await t.as(token, { method: 'GET', url: '/api/user/auth/user' })).statusCode).toBe(200);
    expect((await t.as(other, { method: 'GET', url: '/api/user/auth/user' })).statusCode).toBe(401);
  });

  it('throttles wrong current passwords like a login: at most 5 checked of 20 parallel', async () => {
    const u = await t.build.user({ permissions: ['user'] });
    const token = await t.login(u.email);
    const body = { first_name: 'A', last_name: 'B', email: u.email, password: 'brand-new-secret' };
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => profile(token, { ...body, current_password: `wrong-${i}` })));
    const codes = replies.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 422).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(15);
    // Held even with the right one until the window passes.
    expect((await profile(token, { ...body, current_password: PASSWORD })).statusCode).toBe(429);
  });

  it("throttles e-mail changes, so 'already taken' cannot be used to list registered addresses", async () => {
    const u = await t.build.user({ permissions: ['user'] });
    const token = await t.login(u.email);
    const tries = [];
    for (let i = 0; i < 6; i++)
      tries.push(await profile(token, { first_name: 'A', last_name: 'B', email: `probe-${i}@example.test`, current_password: PASSWORD }));
    expect(tries.slice(0, 5).map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(tries[5].statusCode).toBe(429);
    expect(tries[5].json().error).toMatch(/Too many e-mail changes/);
    // Keeping the e-mail is not a change: name edits go on.
    expect((await profile(token, { first_name: 'C', last_name: 'D', email: 'probe-4@example.test' })).statusCode).toBe(200);
  });

  it("refuses another user's e-mail (any case) but accepts a change of case of one's own", async () => {
    await t.build.user({ email: 'taken@example.test', permissions: ['user'] });
    const u = await t.build.user({ email: 'mine@example.test', permissions: ['user'] });
    const token = await t.login(u.email);
    const dup = await profile(token, { first_name: 'A', last_name: 'B', email: 'Taken@Example.test', current_password: PASSWORD });
    expect(dup.statusCode).toBe(422);
    expect(dup.json()).toEqual({ error: { email: 'Email has already been taken.' } });
    const stored = await t.db.selectFrom('users').select(['email', 'first_name']).where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ email: 'mine@example.test', first_name: 'Test' });

    const own = await profile(token, { first_name: 'A', last_name: 'B', email: 'Mine@Example.test', current_password: PASSWORD });
    expect(own.statusCode).toBe(200);
    expect(own.json().data.email).toBe('Mine@Example.test');
  });

  it('changes the e-mail only with the current password, and tells the old address', async () => {
    const u = await t.build.user({ email: 'before.change@example.test', permissions: ['user'] });
    const token = await t.login(u.email);
    const body = { first_name: 'Test', last_name: 'User', email: 'after.change@example.test' };
    const mails = () =>
      t.db
        .selectFrom('mail_outbox')
        .select(['subject', 'text_body'])
        .where((eb) => eb(eb.val(u.email), '=', eb.fn.any('recipients')))
        .execute();

    await expectCurrentPasswordAsked(token, body);
    const stored = () => t.db.selectFrom('users').select('email').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect((await stored()).email).toBe('before.change@example.test');
    expect(await mails()).toEqual([]);

    const res = await profile(token, { ...body, current_password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect((await stored()).email).toBe('after.change@example.test');
    const notices = await mails();
    expect(notices).toHaveLength(1);
    expect(notices[0].subject).toBe('Your e-mail address was changed');
    expect(notices[0].text_body).toContain('after.change@example.test');
  });

  it('validates the fields and a short password', async () => {
    const u = await t.build.user({ permissions: ['user'] });
    const token = await t.login(u.email);
    const res = await profile(token, { first_name: '  ', last_name: 'B', email: 'nope', password: 'short', current_password: PASSWORD });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: {
        first_name: 'First Name is required',
        email: 'Enter a valid email address',
        password: 'Password must be at least 8 characters',
      },
    });
    expect((await login(u.email, PASSWORD)).statusCode).toBe(200);
  });

  it('needs a token', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/user/auth/profile',
      payload: { first_name: 'A', last_name: 'B', email: 'x@y.test' },
    });
    expect(res.statusCode).toBe(401);
  });
});
