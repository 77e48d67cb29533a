import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../../server/lib/tokens';
import { createTestContext, PASSWORD, type TestContext } from './helper';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});

// forgot-password allows 5 requests a minute per address: each test uses its own address.
let address = 0;
const nextAddress = () => `10.20.0.${++address}`;

/** Asks for a reset mail and waits for the work the route does after replying. */
async function forgot(email: string, remoteAddress = nextAddress()) {
  const res = await t.app.inject({ method: 'POST', url: '/api/user/auth/forgot-password', payload: { email }, remoteAddress });
  await t.settled();
  return res;
}
const reset = (payload: Record<string, unknown>, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/user/auth/reset-password', payload, remoteAddress });
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { email, password }, remoteAddress: nextAddress() });

const outboxFor = (email: string) =>
  t.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where((eb) => eb(eb.val(email), '=', eb.fn.any('recipients')))
    .orderBy('id')
    .execute();

/** The token from the reset link in the newest mail to `email`. */
async function tokenFromMail(email: string) {
  const mails = await outboxFor(email);
  const last = mails.at(-1);
  if (!last) throw new Error(`no mail to ${email}`);
  const m = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(last.text_body);
  if (!m) throw new Error(`no reset link in: ${last.text_body}`);
  return m[1];
}

describe('POST auth/forgot-password', () => {
  it('replies the same for a registered and an unregistered address; only the registered one gets a mail', async () => {
    const u = await t.build.user({ email: 'forgot.me@example.test' });
    const resetRows = () => t.db.selectFrom('password_resets').select(['id', 'user_id']).execute();
    const before = await resetRows();
    const known = await forgot('Forgot.Me@example.test');
    const unknown = await forgot('never.registered@example.test');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ data: { message: expect.any(String) } });

    const mails = await outboxFor('forgot.me@example.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ status: 'pending', subject: expect.any(String) });
    expect(mails[0].text_body).toContain('http://app.test/reset-password?token=');
    expect(mails[0].html).toContain('http://app.test/reset-password?token=');
    expect(await outboxFor('never.registered@example.test')).toHaveLength(0);
    const after = await resetRows();
    expect(after.filter((r) => !before.some((b) => b.id === r.id))).toEqual([{ id: expect.any(Number), user_id: u.id }]);
  });

  it('validates the e-mail', async () => {
    const res = await forgot('not-an-email');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { email: 'Enter a valid email address' } });
    const nul = await forgot('a\u0000@example.test');
    expect(nul.statusCode).toBe(422);
    expect(nul.json()).toEqual({ error: { email: 'Email must not contain a NUL character' } });
  });

  it('replies before looking the address up, so a registered and an unknown one take the same path and time', async () => {
    const u = await t.build.user({ email: 'same.path@example.test' });
    // Hold the users table: a route that looked the address up before replying would wait here.
    const blocker = new pg.Client({ connectionString: t.url });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('lock table users in access exclusive mode');
    try {
      const timed = async (email: string) => {
        const started = performance.now();
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/user/auth/forgot-password',
          payload: { email },
          remoteAddress: nextAddress(),
        });
        return { res, ms: performance.now() - started };
      };
      const known = await timed(u.email);
      const unknown = await timed('nobody.at.all@example.test');
      expect(known.res.statusCode).toBe(200);
      expect(unknown.res.body).toBe(known.res.body);
      // Both answered while the table was locked (the look-up had not run); generous bound for a busy machine.
      expect(known.ms).toBeLessThan(2000);
      expect(unknown.ms).toBeLessThan(2000);
      expect(await outboxFor(u.email)).toHaveLength(0);
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    await t.settled();
    expect(await outboxFor(u.email)).toHaveLength(1);
    expect(await outboxFor('nobody.at.all@example.test')).toHaveLength(0);
  });

  it('starts the look-up only once the reply has left the server, for a registered and an unknown address alike', async () => {
    const u = await t.build.user({ email: 'after.reply@example.test' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const events: string[] = [];
    // Added after Fastify's own listener: its 'finish' listener runs after Fastify's, in the same turn.
    const onRequest = (_req: IncomingMessage, res: ServerResponse) => res.once('finish', () => events.push('reply sent'));
    t.app.server.on('request', onRequest);
    const background = t.app.background;
    const run = background.run.bind(background);
    const spy = vi.spyOn(background, 'run').mockImplementation((name, task, log) =>
      run(
        name,
        () => {
          events.push(`work: ${name}`);
          return task();
        },
        log,
      ),
    );
    try {
      for (const email of [u.email, 'not.registered.anywhere@example.test']) {
        events.length = 0;
        const res = await fetch(`http://127.0.0.1:${port}/api/user/auth/forgot-password`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
        });
        expect(res.status).toBe(200);
        await t.settled();
        expect(events, email).toEqual(['reply sent', 'work: password reset mail']);
      }
    } finally {
      spy.mockRestore();
      t.app.server.off('request', onRequest);
    }
    expect(await outboxFor(u.email)).toHaveLength(1);
    expect(await outboxFor('not.registered.anywhere@example.test')).toHaveLength(0);
  });

  it('stores only a digest of the token', async () => {
    const u = await t.build.user();
    await forgot(u.email);
    const token = await tokenFromMail(u.email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await t.db.selectFrom('password_resets').selectAll().where('user_id', '=', u.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    // Valid for 10 minutes.
    const ttl = new Date(rows[0].expires_at).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
  });

  it('is rate limited per address', async () => {
    const ip = nextAddress();
    for (let i = 0; i < 5; i++) expect((await forgot(`flood-${i}@example.test`, ip)).statusCode).toBe(200);
    const sixth = await forgot('flood-6@example.test', ip);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual({ error: expect.any(String) });
    expect(sixth.headers['retry-after']).toBeDefined();
  });
});

describe('POST auth/reset-password', () => {
  it('sets the password, signs the user out everywhere, and is single use', async () => {
    const u = await t.build.user();
    const other = await t.build.user();
    const sessionA = await t.login(u.email);
    const sessionB = await t.login(u.email);
    const otherSession = await t.login(other.email);
    await forgot(u.email);
    const token = await tokenFromMail(u.email);

    const res = await reset({ token, password: 'a-brand-new-one', password_confirmation: 'a-brand-new-one' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { message: 'Password Changed Successfully' } });

    expect((await login(u.email, PASSWORD)).statusCode).toBe(422);
    expect((await login(u.email, 'a-brand-new-one')).statusCode).toBe(200);
    for (const s of [sessionA, sessionB]) expect((await t.as(s, { method: 'GET', url: '/api/user/auth/user' })).statusCode).toBe(401);
    expect((await t.as(otherSession, { method: 'GET', url: '/api/user/auth/user' })).statusCode).toBe(200);

    const again = await reset({ token, password: 'yet-another-one' });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ error: { token: expect.any(String) } });
    expect((await login(u.email, 'a-brand-new-one')).statusCode).toBe(200);
  });

  it('refuses a token past its lifetime', async () => {
    const u = await t.build.user();
    await forgot(u.email);
    const token = await tokenFromMail(u.email);
    await t.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', u.id)
      .execute();
    const res = await reset({ token, password: 'too-late-now' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { token: expect.any(String) } });
    expect((await login(u.email, PASSWORD)).statusCode).toBe(200);
  });

  it('a newer request invalidates the older token', async () => {
    const u = await t.build.user();
    await forgot(u.email);
    const older = await tokenFromMail(u.email);
    await forgot(u.email);
    const newer = await tokenFromMail(u.email);
    expect(newer).not.toBe(older);

    const stale = await reset({ token: older, password: 'from-the-old-link' });
    expect(stale.statusCode).toBe(422);
    expect(Object.keys(stale.json().error)).toEqual(['token']);
    expect((await reset({ token: newer, password: 'from-the-new-link' })).statusCode).toBe(200);
    expect((await login(u.email, 'from-the-new-link')).statusCode).toBe(200);
  });

  it('refuses an unknown or malformed token', async () => {
    const unknown = await reset({ token: 'A'.repeat(43), password: 'whatever-123' });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().error)).toEqual(['token']);
    const malformed = await reset({ token: 'short', password: 'whatever-123' });
    expect(malformed.statusCode).toBe(422);
    expect(Object.keys(malformed.json().error)).toEqual(['token']);
  });

  it('refuses a mismatched confirmation and a short password without using up the token', async () => {
    const u = await t.build.user();
    await forgot(u.email);
    const token = await tokenFromMail(u.email);

    const mismatch = await reset({ token, password: 'first-choice', password_confirmation: 'second-choice' });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toEqual({ error: { password_confirmation: 'Confirm Password does not match' } });

    const short = await reset({ token, password: 'short', password_confirmation: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.json()).toEqual({ error: { password: 'Password must be at least 8 characters' } });

    expect((await login(u.email, PASSWORD)).statusCode).toBe(200);
    expect((await reset({ token, password: 'finally-right', password_confirmation: 'finally-right' })).statusCode).toBe(200);
  });
});
