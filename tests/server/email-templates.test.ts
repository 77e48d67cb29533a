import { beforeAll, describe, expect, it } from 'vitest';
import { type Call, createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestContext();
  await t.build.user({ roles: ['Super Admin'], email: 'templates.root@example.test' });
  admin = await t.login('templates.root@example.test');
});

const count = async () =>
  (
    await t.db
      .selectFrom('email_templates')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
const post = (payload: Record<string, unknown>) => t.as(admin, { method: 'POST', url: '/api/email/emailTemplates', payload });

describe('email templates: permission', () => {
  it('answers 403 on every route to a user without `email_template`, and changes nothing', async () => {
    const tpl = await t.build.emailTemplate({ template_name: 'Untouchable' });
    const token = await t.login((await t.build.user({ permissions: ['user', 'client', 'scan'] })).email);
    const before = await count();
    const calls: Call[] = [
      { method: 'GET', url: '/api/email/emailTemplates?page=1&per_page=10' },
      { method: 'GET', url: `/api/email/emailTemplates/${tpl.id}` },
      { method: 'POST', url: '/api/email/emailTemplates', payload: { templateName: 'Sneaky', templateBody: '<p>x</p>' } },
      { method: 'PUT', url: `/api/email/emailTemplates/${tpl.id}`, payload: { templateName: 'Renamed', templateBody: '<p>x</p>' } },
      { method: 'DELETE', url: `/api/email/emailTemplates/${tpl.id}` },
    ];
    for (const call of calls) {
      const res = await t.as(token, call);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(res.json()).toEqual({ error: 'This action is unauthorized.' });
    }
    expect(await count()).toBe(before);
    expect(
      (await t.db.selectFrom('email_templates').select('template_name').where('id', '=', tpl.id).executeTakeFirstOrThrow()).template_name,
    ).toBe('Untouchable');
  });
});

describe('email templates: validation', () => {
  it("answers 422 with the product's messages and stores nothing", async () => {
    const before = await count();
    const res = await post({});
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { templateName: 'Template Name is required', templateBody: 'Template Body is required' } });
    expect((await post({ templateName: 'x', templateBody: '   ' })).json()).toEqual({
      error: { templateBody: 'Template Body is required' },
    });
    expect(await count()).toBe(before);
  });

  it('refuses a name another template has (spaces and case aside), and keeps its own on update', async () => {
    const first = await post({ templateName: 'Reminder  Mail', templateBody: '<p>Hello</p>' });
    expect(first.statusCode, first.body).toBe(201);
    const before = await count();
    const again = await post({ templateName: ' reminder mail ', templateBody: '<p>Hi</p>' });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ error: { templateName: 'Template Name has already been taken.' } });
    expect(await count()).toBe(before);
    const id = first.json().data.id;
    const kept = await t.as(admin, {
      method: 'PUT',
      url: `/api/email/emailTemplates/${id}`,
      payload: { templateName: 'Reminder  Mail', templateBody: '<p>Changed</p>' },
    });
    expect(kept.statusCode, kept.body).toBe(200);
  });

  it('treats an empty editor, or a body that is nothing but script, as blank', async () => {
    const before = await count();
    for (const body of ['<p><br></p>', '<p>&nbsp;</p>', '<script>alert(1)</script>']) {
      const res = await post({ templateName: 'Blank', templateBody: body });
      expect(res.statusCode, body).toBe(422);
      expect(res.json()).toEqual({ error: { templateBody: 'Template Body is required' } });
    }
    expect(await count()).toBe(before);
  });

  it("refuses a placeholder no mail fills, naming it, and takes the scan and approval mails' merge fields", async () => {
    const before = await count();
    const res = await post({ templateName: 'Odd', templateBody: '<p>Hi {{customer_name}}, {{foo}} and {{ <b>bar</b> }}</p>' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { templateBody: 'Template Body uses merge fields no mail fills: {{foo}}, {{bar}}' } });
    expect(await count()).toBe(before);
    const fine = await post({ templateName: 'Fine', templateBody: '<p>{{customer_name}}: {{approval_link}} by {{expires_on}}</p>' });
    expect(fine.statusCode, fine.body).toBe(201);
  });
});

describe('email templates: records', () => {
  it('sanitises the body before storing it: no script, no event handler, no javascript: URL', async () => {
    const dirty =
      '<p onclick="steal()">Hello <strong>{{customer_name}}</strong></p><script>alert(1)</script>' +
      '<img src="https://cdn.example.test/a.png" onerror="alert(2)"><a href="javascript:alert(3)">click</a>' +
      '<a href="https://example.test/quote">quote</a>';
    const res = await post({ templateName: 'Dirty', templateBody: dirty });
    expect(res.statusCode, res.body).toBe(201);
    const body: string = res.json().data.templateBody;
    const stored = (
      await t.db.selectFrom('email_templates').select('template_body').where('id', '=', res.json().data.id).executeTakeFirstOrThrow()
    ).template_body;
    expect(stored).toBe(body);
    for (const bad of ['<script', 'alert(1)', 'onerror', 'onclick', 'javascript:']) expect(stored).not.toContain(bad);
    expect(stored).toContain('<strong>{{customer_name}}</strong>');
    expect(stored).toContain('<img src="https://cdn.example.test/a.png" />');
    expect(stored).toContain('href="https://example.test/quote"');

    const updated = await t.as(admin, {
      method: 'PUT',
      url: `/api/email/emailTemplates/${res.json().data.id}`,
      payload: { templateName: 'Dirty', templateBody: '<p>ok</p><iframe src="https://evil.test"></iframe><a href="JaVaScRiPt:x()">y</a>' },
    });
    expect(updated.json().data.templateBody).toBe('<p>ok</p><a rel="noopener noreferrer">y</a>');
  });

  it('replies a page as {items, meta: {total, last_page}}', async () => {
    for (const name of ['Meta one', 'Meta two', 'Meta three']) await t.build.emailTemplate({ template_name: name });
    const page1 = await t.as(admin, {
      method: 'GET',
      url: '/api/email/emailTemplates?page=1&per_page=2&q=meta&sort=templateName&order=asc',
    });
    expect(page1.statusCode).toBe(200);
    expect(Object.keys(page1.json()).sort()).toEqual(['items', 'meta']);
    expect(page1.json().meta).toEqual({ total: 3, last_page: 2 });
    expect(page1.json().items.map((i: { templateName: string }) => i.templateName)).toEqual(['Meta one', 'Meta three']);
    const page2 = await t.as(admin, {
      method: 'GET',
      url: '/api/email/emailTemplates?page=2&per_page=2&q=meta&sort=templateName&order=asc',
    });
    expect(page2.json()).toEqual({ items: [expect.objectContaining({ templateName: 'Meta two' })], meta: { total: 3, last_page: 2 } });
    const empty = await t.as(admin, { method: 'GET', url: '/api/email/emailTemplates?q=nothing-matches-this' });
    expect(empty.json()).toEqual({ items: [], meta: { total: 0, last_page: 1 } });
  });

  it('creates, reads, searches, updates, deletes and lists', async () => {
    const created = await post({ templateName: ' Quote ready ', templateBody: '<p>Your quote is ready.</p>' });
    expect(created.statusCode).toBe(201);
    const tpl = created.json().data;
    expect(tpl).toEqual({
      id: expect.any(Number),
      templateName: 'Quote ready',
      templateBody: '<p>Your quote is ready.</p>',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await t.as(admin, { method: 'GET', url: `/api/email/emailTemplates/${tpl.id}` })).json()).toEqual({ data: tpl });
    expect((await t.as(admin, { method: 'GET', url: '/api/email/emailTemplates?q=quote%20ready' })).json()).toEqual({
      items: [tpl],
      meta: { total: 1, last_page: 1 },
    });

    const updated = await t.as(admin, {
      method: 'PUT',
      url: `/api/email/emailTemplates/${tpl.id}`,
      payload: { templateName: 'Quote is ready', templateBody: '<p>See attached.</p>' },
    });
    expect(updated.json().data).toMatchObject({ templateName: 'Quote is ready', templateBody: '<p>See attached.</p>' });
    expect((await t.as(admin, { method: 'GET', url: '/api/email/emailTemplates/lists' })).json()).toEqual(
      expect.arrayContaining([{ text: 'Quote is ready', value: tpl.id }]),
    );

    expect((await t.as(admin, { method: 'DELETE', url: `/api/email/emailTemplates/${tpl.id}` })).statusCode).toBe(200);
    const gone = await t.as(admin, { method: 'GET', url: `/api/email/emailTemplates/${tpl.id}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: `No query results for model [EmailTemplate] ${tpl.id}` });
  });
});
