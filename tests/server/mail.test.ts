import net from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../server/lib/mail-outbox';
import { createTestContext, type TestContext } from './helper';

interface Received {
  from: string | false;
  to: string[];
  raw: string;
}

/** A real SMTP server on a free local port that keeps what it receives. */
async function startSmtp() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom && session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as net.AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port nothing listens on. */
async function closedPort() {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Undoes quoted-printable soft line breaks and escapes, enough to read a link. */
const decodeQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let ok: TestContext;
let broken: TestContext;
beforeAll(async () => {
  smtp = await startSmtp();
  ok = await createTestContext({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'ScanQuote <no-reply@scanquote.test>' });
  broken = await createTestContext({ SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
});
afterAll(async () => {
  await smtp?.close();
});

async function forgot(t: TestContext, email: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/user/auth/forgot-password', payload: { email } });
  await t.settled();
  return res;
}

describe('the mail outbox over real SMTP', () => {
  it('delivers the reset mail with its link and marks the row sent', async () => {
    const u = await ok.build.user({ email: 'smtp.reader@example.test' });
    expect((await forgot(ok, u.email)).statusCode).toBe(200);
    const row = await ok.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    const link = /http:\/\/app\.test\/reset-password\?token=[A-Za-z0-9_-]{43}/.exec(row.text_body)![0];

    expect(await ok.mailer.deliverPending()).toBe(1);

    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0];
    expect(mail.from).toBe('no-reply@scanquote.test');
    expect(mail.to).toEqual(['smtp.reader@example.test']);
    expect(mail.raw).toMatch(/^Subject: Reset your password/m);
    expect(decodeQp(mail.raw)).toContain(link);

    const after = await ok.db.selectFrom('mail_outbox').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(after.sent_at).toBeInstanceOf(Date);

    // Nothing left to send: a second run sends nothing again.
    expect(await ok.mailer.deliverPending()).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it('keeps a mail pending with the error when SMTP is unreachable, and gives up after 5 attempts', async () => {
    const u = await broken.build.user();
    expect((await forgot(broken, u.email)).statusCode).toBe(200);

    expect(await broken.mailer.deliverPending()).toBe(0);
    const row = await broken.db.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);

    for (let i = 0; i < 4; i++) await broken.mailer.deliverPending();
    const gaveUp = await broken.db.selectFrom('mail_outbox').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(gaveUp).toMatchObject({ status: 'failed', attempts: 5 });
    // A failed mail is not retried.
    await broken.mailer.deliverPending();
    expect((await broken.db.selectFrom('mail_outbox').select('attempts').where('id', '=', row.id).executeTakeFirstOrThrow()).attempts).toBe(
      5,
    );
  });
});

describe('the mail outbox without SMTP', () => {
  it('prints each pending mail (recipients, subject, text) instead of sending it, and marks it sent', async () => {
    const printed: string[] = [];
    const mailer = createMailer(ok.db, { from: 'ScanQuote <no-reply@scanquote.test>', log: (text) => printed.push(text) });
    const id = await mailer.enqueue(ok.db, {
      to: ['a@example.test', 'b@example.test'],
      subject: 'Hello',
      text: 'Body text',
      html: '<p>Body text</p>',
    });

    expect(await mailer.deliverPending()).toBe(1);

    expect(printed).toEqual(['mail (no SMTP_URL set, printed instead of sent) to a@example.test,b@example.test: Hello\nBody text']);
    expect(await ok.db.selectFrom('mail_outbox').select('status').where('id', '=', id).executeTakeFirstOrThrow()).toEqual({
      status: 'sent',
    });
  });

  it("shows a line break stored in a subject escaped, so it cannot forge a line of the console's log", async () => {
    const printed: string[] = [];
    const mailer = createMailer(ok.db, { from: 'ScanQuote <no-reply@scanquote.test>', log: (text) => printed.push(text) });
    await ok.db.updateTable('mail_outbox').set({ status: 'sent' }).where('status', '=', 'pending').execute();
    await mailer.enqueue(ok.db, {
      to: ['a@example.test'],
      subject: 'Hello\r\nmail (no SMTP_URL set, printed instead of sent) to boss@example.test: Wire the money\u2028x',
      text: 'Body text',
      html: '<p>Body text</p>',
    });
    expect(await mailer.deliverPending()).toBe(1);
    expect(printed).toHaveLength(1);
    const [first, ...rest] = printed[0].split(/\r\n|\r|\n|\u2028|\u2029/);
    expect(first).toBe(
      'mail (no SMTP_URL set, printed instead of sent) to a@example.test: Hello\\r\\nmail (no SMTP_URL set, printed instead of sent) to boss@example.test: Wire the money\\u2028x',
    );
    expect(rest).toEqual(['Body text']);
  });
});
