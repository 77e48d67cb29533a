import type net from 'node:net';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { fileUrl } from '../../server/lib/storage';
import { MERGE_FIELDS } from '../../src/domain/scan-mail';
import { APPROVAL_MERGE_FIELDS } from '../../src/domain/quote-approval';
import { createTestContext, formData, type TestContext } from './helper';
import { jpegImage, pngImage } from './image-fixtures';

/** POST emails, the scan page's send-mail form, read back from a real local SMTP server. */

interface Received {
  to: string[];
  raw: string;
}

async function startSmtp() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 40 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('latin1') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as net.AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const decodeQp = (s: string) =>
  Buffer.from(
    s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/** A MIME header's file name: plain, or in RFC 2231 pieces (`filename*0*=utf-8''...`) as nodemailer writes a non-ASCII one. */
function filenameOf(head: string) {
  const unfolded = head.replace(/\r\n[ \t]+/g, ' ');
  const pieces = [...unfolded.matchAll(/filename\*(\d+)?(\*)?=("?)([^";\r\n]*)\3/gi)];
  if (pieces.length) {
    const joined = pieces.map((p) => p[4]).join('');
    return pieces[0][2] ? decodeURIComponent(joined.replace(/^utf-8''/i, '')) : joined;
  }
  return /Content-Disposition: attachment;\s*filename=("?)([^"\r\n]+)\1/i.exec(unfolded)?.[2];
}

/** The attachments of a raw MIME message: file name, type and decoded bytes (nodemailer writes them base64). */
function attachmentsOf(raw: string) {
  const out: { filename: string; type: string; data: Buffer }[] = [];
  for (const part of raw.split(/\r\n--[^\r\n]+\r\n/)) {
    const [head, ...rest] = part.split('\r\n\r\n');
    if (!/Content-Disposition: attachment/i.test(head)) continue;
    const filename = filenameOf(head);
    if (!filename) continue;
    const type = /Content-Type: ([^;\r\n]+)/i.exec(head)![1];
    const body = rest.join('\r\n\r\n').split(/\r\n--/)[0];
    out.push({ filename, type, data: Buffer.from(body.replace(/\s+/g, ''), 'base64') });
  }
  return out;
}
const htmlOf = (raw: string) => {
  const part = raw.split(/\r\n--[^\r\n]+\r\n/).find((p) => /^Content-Type: text\/html/im.test(p))!;
  return decodeQp(part.split('\r\n\r\n').slice(1).join('\r\n\r\n'));
};

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let t: TestContext;
let agentUser: string;
let mine: { agent: number; client: number; scan: number };
let otherScan: number;
const keys: { damage: string; annotate: string; report: string } = { damage: '', annotate: '', report: '' };
let otherKey: string;

/** A stored file linked to the scan as a detection's close-up. */
async function damageFile(scan: number, data: Buffer, type = 'image/png') {
  const key = await t.app.storage.put(data, type);
  await t.db
    .insertInto('scan_damages')
    .values({
      scan_id: scan,
      damage_id: `d-${key.slice(0, 8)}`,
      car_panel: 'bonnet',
      type: 'dents',
      level: 'heavy',
      width_mm: 20,
      height_mm: 10,
      image: fileUrl(key),
    })
    .execute();
  await t.db.insertInto('scan_files').values({ scan_id: scan, key }).execute();
  return key;
}

const counts = async () =>
  (
    await sql<{ d: string }>`select (select count(*) from mail_outbox) || '/' || (select count(*) from scan_mails) || '/' ||
      (select count(*) from mail_attachments) as d`.execute(t.db)
  ).rows[0].d;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestContext({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'ScanQuote <no-reply@scanquote.test>' });
  const client = (await t.build.client()).id;
  const agent = (await t.build.agent({ default_client_id: client })).id;
  mine = {
    agent,
    client,
    scan: (await t.build.scan({ agent_id: agent, client_id: client, status: 'uploaded', license_plate: '1AB2CD' })).id,
  };
  const otherAgent = (await t.build.agent()).id;
  otherScan = (await t.build.scan({ agent_id: otherAgent })).id;
  agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agent] })).email);

  keys.damage = await damageFile(mine.scan, await pngImage(60, 30, '#112233'));
  const saved = await t.as(agentUser, {
    method: 'POST',
    url: `/api/scan/scans/${mine.scan}/annotates`,
    ...(await formData({ file: { data: await jpegImage(), filename: 'crop.jpg', type: 'image/jpeg' } })),
  });
  expect(saved.statusCode, saved.body).toBe(201);
  keys.annotate = saved.json().data.path;
  const refreshed = await t.as(agentUser, { method: 'POST', url: `/api/scan/scans/${mine.scan}/refresh` });
  keys.report = refreshed.json().data.pdf_path;
  expect(keys.report).toMatch(/\.pdf$/);
  otherKey = await damageFile(otherScan, await pngImage(10, 10, '#445566'));

  await t.db
    .updateTable('options')
    .set({ option_value: '<p><strong>Southern Scans</strong> header</p>' })
    .where('option_name', '=', 'EMAIL_DEFAULT_HEADER')
    .execute();
  await t.db
    .updateTable('options')
    .set({ option_value: '<p>Footer: call 03 9000 0000</p>' })
    .where('option_name', '=', 'EMAIL_DEFAULT_FOOTER')
    .execute();
});
afterAll(async () => {
  await smtp?.close();
});

const send = (payload: unknown, token = agentUser) => t.as(token, { method: 'POST', url: '/api/email/emails', payload: payload as string });
const valid = () => ({
  scan_id: mine.scan,
  recipients: ['Owner@Example.TEST', 'second@example.test'],
  subject: 'Your scan 1AB2CD',
  message: '<p>Hello, see the <em>damage</em> attached.</p><script>alert(1)</script>',
});

describe('POST emails', () => {
  it('queues the mail with the header, the footer and the scan files as attachments, records it with the scan, and the outbox delivers it', async () => {
    const template = await t.build.emailTemplate();
    const res = await send({ ...valid(), template_id: template.id, attachments: [keys.damage, keys.annotate, keys.report] });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      scan_id: mine.scan,
      recipients: ['owner@example.test', 'second@example.test'],
      subject: 'Your scan 1AB2CD',
    });
    // Named as people write them: the panel's label, the level lower-case, the report with the registration.
    expect(data.attachments.map((a: { filename: string }) => a.filename)).toEqual([
      'Bonnet – heavy dent.png',
      'Saved image 1.jpg',
      'Scan Report – 1AB2CD.pdf',
    ]);
    const record = await t.db.selectFrom('scan_mails').selectAll().where('id', '=', data.id).executeTakeFirstOrThrow();
    expect(record).toMatchObject({
      scan_id: mine.scan,
      template_id: template.id,
      recipients: ['owner@example.test', 'second@example.test'],
    });

    expect(await t.mailer.deliverPending()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0];
    expect(mail.to).toEqual(['owner@example.test', 'second@example.test']);
    expect(mail.raw).toMatch(/^Subject: Your scan 1AB2CD/m);
    const html = htmlOf(mail.raw);
    expect(html).toContain('<strong>Southern Scans</strong> header');
    expect(html).toContain('see the <em>damage</em> attached');
    expect(html).toContain('Footer: call 03 9000 0000');
    expect(html).not.toContain('<script');
    expect(html.indexOf('Southern Scans')).toBeLessThan(html.indexOf('damage'));
    expect(html.indexOf('damage')).toBeLessThan(html.indexOf('Footer'));
    const files = attachmentsOf(mail.raw);
    expect(files.map((f) => [f.filename, f.type])).toEqual([
      ['Bonnet – heavy dent.png', 'image/png'],
      ['Saved image 1.jpg', 'image/jpeg'],
      ['Scan Report – 1AB2CD.pdf', 'application/pdf'],
    ]);
    for (const [i, key] of [keys.damage, keys.annotate, keys.report].entries())
      expect(files[i].data.equals((await t.app.storage.get(key))!.data), key).toBe(true);
    // The copies were kept only to send them; the record says what went.
    expect(await t.db.selectFrom('mail_attachments').selectAll().execute()).toEqual([]);
  });

  it('refuses bad input with 422 on the field and queues nothing', async () => {
    const before = await counts();
    const bad: [Record<string, unknown>, string][] = [
      [{ ...valid(), recipients: [] }, 'recipients'],
      [{ ...valid(), recipients: ['ok@example.test', 'not-an-address'] }, 'recipients.1'],
      [{ ...valid(), recipients: Array.from({ length: 21 }, (_, i) => `r${i}@example.test`) }, 'recipients'],
      [{ ...valid(), subject: '  ' }, 'subject'],
      [{ ...valid(), message: undefined }, 'message'],
      [{ ...valid(), message: '<p><br></p>' }, 'message'],
      [{ ...valid(), template_id: 999999 }, 'template_id'],
      // Attachments are the scan's own files by name: another scan's file, a URL or a path are refused.
      [{ ...valid(), attachments: [keys.damage, otherKey] }, 'attachments.1'],
      [{ ...valid(), attachments: [fileUrl(keys.damage)] }, 'attachments.0'],
      [{ ...valid(), attachments: ['../../etc/passwd'] }, 'attachments.0'],
      [{ ...valid(), attachments: Array.from({ length: 11 }, () => keys.damage) }, 'attachments'],
      [{ ...valid(), scan_id: 'abc' }, 'scan_id'],
    ];
    for (const [payload, field] of bad) {
      const res = await send(payload);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(422);
      expect(typeof res.json().error[field], `${field}: ${res.body}`).toBe('string');
    }
    expect(await counts()).toBe(before);
  });

  it('refuses attachments over 20 MB in all', async () => {
    const big = Buffer.alloc(11 * 1024 * 1024, 1);
    const a = await damageFile(mine.scan, big, 'video/webm');
    const b = await damageFile(mine.scan, big, 'video/webm');
    const before = await counts();
    const res = await send({ ...valid(), attachments: [a, b] });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toEqual({ attachments: 'Attachments must be less than 20 MB in all' });
    expect(await counts()).toBe(before);
  });

  it("gives an Agent user the model's 404 for another agent's scan, and needs `scan`", async () => {
    const before = await counts();
    const res = await send({ ...valid(), scan_id: otherScan, attachments: [otherKey] });
    expect([res.statusCode, res.json().error]).toEqual([404, `No query results for model [Scan] ${otherScan}`]);
    const noScan = await t.login((await t.build.user({ permissions: ['email_template'] })).email);
    expect((await send(valid(), noScan)).statusCode).toBe(403);
    expect(await counts()).toBe(before);
  });
});

describe('merge fields and the preview', () => {
  const preview = (payload: unknown, token = agentUser) =>
    t.as(token, { method: 'POST', url: '/api/email/emails/preview', payload: payload as string });

  it('GET merge-fields lists every field a template may use, described in both languages, to any signed-in user', async () => {
    const clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [mine.client] })).email);
    const res = await t.as(clientUser, { method: 'GET', url: '/api/email/merge-fields' });
    expect(res.statusCode, res.body).toBe(200);
    const fields: { name: string; description: { en: string; ja: string }; example: string; mails: string[] }[] = res.json().data;
    // The scan mail's, then the approval mail's own: every name either mail fills, once.
    expect(fields.map((f) => f.name)).toEqual([
      ...MERGE_FIELDS.map((f) => f.name),
      ...APPROVAL_MERGE_FIELDS.filter((n) => !MERGE_FIELDS.some((f) => f.name === n)),
    ]);
    expect(fields.find((f) => f.name === 'dent_count')).toEqual({
      name: 'dent_count',
      description: { en: 'Number of dents found', ja: '検出されたへこみの数' },
      example: '12',
      mails: ['scan'],
    });
    expect(fields.find((f) => f.name === 'registration')?.mails).toEqual(['scan', 'approval']);
    expect(fields.find((f) => f.name === 'approval_link')).toMatchObject({
      description: { en: 'Link to the approval page (no sign-in)' },
      mails: ['approval'],
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/email/merge-fields' })).statusCode).toBe(401);
  });

  it('fills every field from the scan, and the preview is exactly the mail that goes out', async () => {
    const client = await t.build.client({ name: 'Harbour & Co Fleet' });
    const agent = await t.build.agent({ name: 'Bayside Scans', default_client_id: client.id });
    await t.db.updateTable('agents').set({ phone: '03 9555 0101', email: 'desk@bayside.test' }).where('id', '=', agent.id).execute();
    const location = await t.build.location({ name: 'Dandenong Depot', agent_id: agent.id });
    const scan = await t.build.scan({
      agent_id: agent.id,
      client_id: client.id,
      location_id: location.id,
      license_plate: 'XYZ789',
      make: 'Mazda',
      model: 'CX-5',
      car_color: 'Red',
      scanned_at: new Date('2024-05-31T07:30:00Z'),
    });
    await t.db.updateTable('scans').set({ dent_count: 7, scratch_count: 2, body_type: 'SUV' }).where('id', '=', scan.id).execute();
    const quote = (
      await sql<{ id: number }>`insert into quotes (scan_id, agent_id, client_id, client_snapshot, gst_percent)
        values (${scan.id}, ${agent.id}, ${client.id}, '{}'::jsonb, 10) returning id`.execute(t.db)
    ).rows[0];
    const user = await t.login((await t.build.user({ roles: ['Agent'], agents: [agent.id] })).email);
    const appUrl = loadConfig(t.configEnv).APP_URL.replace(/\/$/, '');
    const body = {
      scan_id: scan.id,
      recipients: ['owner@example.test'],
      subject: 'Scan of {{registration}} for {{customer_name}}',
      message: `<p>${MERGE_FIELDS.map((f) => `${f.name}=[{{${f.name}}}]`).join(' ')}</p>`,
    };
    const shown = await preview(body, user);
    expect(shown.statusCode, shown.body).toBe(200);
    const p = shown.json().data;
    expect(p.unresolved).toEqual([]);
    expect(p.subject).toBe('Scan of XYZ789 for Harbour & Co Fleet');
    const expected: Record<string, string> = {
      customer_name: 'Harbour &amp; Co Fleet',
      client_name: 'Harbour &amp; Co Fleet',
      registration: 'XYZ789',
      make: 'Mazda',
      model: 'CX-5',
      colour: 'Red',
      body_type: 'SUV',
      dent_count: '7',
      scratch_count: '2',
      damage_count: '9',
      scan_date: '31-05-2024 05:30 PM',
      location: 'Dandenong Depot',
      agent_name: 'Bayside Scans',
      agent_phone: '03 9555 0101',
      agent_email: 'desk@bayside.test',
      scan_link: `${appUrl}/scans/${scan.id}`,
      quote_link: `${appUrl}/quotes/${quote.id}/invoice`,
    };
    for (const [name, value] of Object.entries(expected)) expect(p.html, name).toContain(`${name}=[${value}]`);
    expect(p.html).not.toContain('{{');
    // A field filled into a link's address: the link stays; an unsafe address from a scan's field does not.
    const linked = await preview({ ...body, message: '<p><a href="{{scan_link}}">Open</a> <a href="{{make}}">Make</a></p>' }, user);
    expect(linked.json().data.html).toContain(`<a href="${appUrl}/scans/${scan.id}"`);
    await t.db.updateTable('scans').set({ make: 'javascript:alert(1)' }).where('id', '=', scan.id).execute();
    const unsafe = await preview({ ...body, message: '<p><a href="{{make}}">Make</a></p>' }, user);
    expect(unsafe.json().data.html).not.toContain('javascript:');
    await t.db.updateTable('scans').set({ make: 'Mazda' }).where('id', '=', scan.id).execute();
    expect(p.html).toContain('<strong>Southern Scans</strong> header');
    expect(p.html).toContain('Footer: call 03 9000 0000');
    expect(p.text).toContain('registration=[XYZ789]');

    // Nothing was stored by the preview; sending stores exactly what it showed.
    const before = await counts();
    expect((await preview(body, user)).json().data).toEqual(p);
    expect(await counts()).toBe(before);
    const sent = await send(body, user);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().data.subject).toBe(p.subject);
    const row = await t.db
      .selectFrom('mail_outbox')
      .select(['subject', 'html', 'text_body'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ subject: p.subject, html: p.html, text_body: p.text });
    smtp.received.length = 0;
    expect(await t.mailer.deliverPending()).toBe(1);
    expect(htmlOf(smtp.received[0].raw).replace(/\r\n/g, '\n')).toBe(p.html);
  });

  it('refuses to send while a placeholder is left, naming it on its field, and queues nothing; the preview lists it', async () => {
    const bare = (await t.build.scan({ agent_id: mine.agent, license_plate: null })).id;
    const body = {
      scan_id: bare,
      recipients: ['owner@example.test'],
      subject: 'Scan {{registration}}',
      message: '<p>Dear {{customer_name}}, {{nickname}} and {{ customer_name }}; {{make}}</p>',
    };
    const shown = await preview(body);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().data.unresolved).toEqual(['{{registration}}', '{{customer_name}}', '{{nickname}}', '{{make}}']);
    const before = await counts();
    const res = await send(body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toEqual({
      subject: 'Subject has placeholders this scan cannot fill: {{registration}}',
      message: 'Message has placeholders this scan cannot fill: {{customer_name}}, {{nickname}}, {{make}}',
    });
    expect(await counts()).toBe(before);
  });

  it("fills a scan's fields into the message as text: markup typed into one is no link or image in the mail that goes out", async () => {
    const make = '<a href="https://evil.example/login">Renew your rego</a>';
    const scan = (await t.build.scan({ agent_id: mine.agent, make, model: '<img src=x onerror=alert(1)>' })).id;
    const body = { scan_id: scan, recipients: ['owner@example.test'], subject: 'Your {{make}}', message: '<p>Your {{make}} {{model}}</p>' };
    const shown = await preview(body);
    expect(shown.statusCode, shown.body).toBe(200);
    const { html, subject } = shown.json().data;
    expect(html).toContain('Your &lt;a href=');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toMatch(/<a [^>]*evil\.example|<img [^>]*onerror/);
    // The subject is plain text, never rendered as HTML.
    expect(subject).toBe(`Your ${make}`);
    const sent = await send(body);
    expect(sent.statusCode, sent.body).toBe(201);
    const row = await t.db.selectFrom('mail_outbox').select('html').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.html).toBe(html);
  });

  it('names the attachments after what they show, numbering equal names, and the preview names them the same', async () => {
    const a = await damageFile(mine.scan, await pngImage(20, 20, '#101010'));
    const b = await damageFile(mine.scan, await pngImage(21, 20, '#202020'));
    const body = { ...valid(), attachments: [keys.damage, a, b, keys.report] };
    const shown = await preview(body);
    expect(shown.statusCode, shown.body).toBe(200);
    const names = shown.json().data.attachments.map((x: { filename: string }) => x.filename);
    expect(names).toEqual([
      'Bonnet – heavy dent.png',
      'Bonnet – heavy dent (2).png',
      'Bonnet – heavy dent (3).png',
      'Scan Report – 1AB2CD.pdf',
    ]);
    const sent = await send(body);
    expect(sent.json().data.attachments.map((x: { filename: string }) => x.filename)).toEqual(names);
  });
});
