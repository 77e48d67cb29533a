import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { redactUrl } from '../../server/lib/log-redaction';
import { createTestContext, type TestContext } from './helper';

/** The app's request log, as JSON lines written to the stream buildApp is given. */
const lines: string[] = [];
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ LOG_LEVEL: 'info' }, undefined, { write: (line: string) => void lines.push(line) });
});

describe('request log', () => {
  it('never holds a password reset token: not the link opened, not the reset call, not a header', async () => {
    await t.build.user({ email: 'log.reset@example.test' });
    lines.length = 0;
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/user/auth/forgot-password',
      payload: { email: 'log.reset@example.test' },
      remoteAddress: '10.77.0.1',
    });
    expect(forgot.statusCode).toBe(200);
    await t.app.background.settled(); // forgot-password replies before it writes the mail
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where((eb) => eb(eb.val('log.reset@example.test'), '=', eb.fn.any('recipients')))
      .executeTakeFirstOrThrow();
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1];

    // The browser opens the link (the SPA route), then posts the token; a client might also put it in a query.
    await t.app.inject({ method: 'GET', url: `/reset-password?token=${token}` });
    await t.app.inject({ method: 'GET', url: `/api/user/auth/user?token=${token}`, headers: { authorization: `Bearer ${token}` } });
    await t.app.inject({ method: 'GET', url: `/api/health?token=${token}&x=1` });
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/user/auth/reset-password',
      payload: { token, password: 'new-password-1' },
      remoteAddress: '10.77.0.2',
    });
    expect(reset.statusCode).toBeLessThan(500);

    const log = lines.join('');
    // The requests were logged (so the assertion below is not vacuous), their URLs without the token.
    expect(log).toContain('"url":"/reset-password?[redacted]"');
    expect(log).toContain('"url":"/api/user/auth/user?[redacted]"');
    expect(log).toContain('"url":"/api/health?token=[redacted]&x=1"');
    expect(log).toContain('"url":"/api/user/auth/reset-password"');
    expect(log).not.toContain(token);
    expect(log.toLowerCase()).not.toContain('bearer');
  });
});

describe('redactUrl', () => {
  it.each([
    ['/reset-password?token=abc', '/reset-password?[redacted]'],
    ['/api/user/auth/login?email=a@b.c', '/api/user/auth/login?[redacted]'],
    ['/api/user/files/x.csv?expires=1&uid=2&sig=deadbeef', '/api/user/files/x.csv?expires=1&uid=2&sig=[redacted]'],
    ['/api/scan/scans?page=1&TOKEN=x&q=abc', '/api/scan/scans?page=1&TOKEN=[redacted]&q=abc'],
    ['/api/scan/scans?%74oken=x', '/api/scan/scans?%74oken=[redacted]'],
    ['/api/scan/scans?page=1', '/api/scan/scans?page=1'],
    ['/api/health', '/api/health'],
    [`/approve/${'a'.repeat(43)}`, '/approve/[redacted]'],
    [`/api/quote/approvals/${'a'.repeat(43)}?x=1`, '/api/quote/approvals/[redacted]?x=1'],
  ])('%s -> %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe('MAIL_CONSOLE', () => {
  it('prints mails on the console by default only in development', () => {
    expect(loadConfig({}).MAIL_CONSOLE).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).MAIL_CONSOLE).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).MAIL_CONSOLE).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).MAIL_CONSOLE).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', MAIL_CONSOLE: 'true' }).MAIL_CONSOLE).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', MAIL_CONSOLE: 'false' }).MAIL_CONSOLE).toBe(false);
  });
});
