import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_RECORD_REFUSAL } from '../../server/plugins/auth';
import { type Call, createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
});

const option = (name: string) => t.db.selectFrom('options').selectAll().where('option_name', '=', name).executeTakeFirstOrThrow();
const put = (token: string, id: number, payload: unknown) =>
  t.as(token, { method: 'PUT', url: `/api/user/options/${id}`, payload: payload as InjectOptions['payload'] });
const bulk = (token: string, payload: unknown) =>
  t.as(token, { method: 'POST', url: '/api/user/options/bulksave', payload: payload as InjectOptions['payload'] });

describe('permission', () => {
  it('answers 403 on the settings routes without `user`, and on bulksave without `email_template`', async () => {
    const token = await t.login((await t.build.user({ permissions: ['scan', 'email_template'] })).email);
    const gst = await option('GST_PERCENT');
    for (const call of [
      { method: 'GET', url: '/api/user/options' },
      { method: 'GET', url: `/api/user/options/${gst.id}` },
      { method: 'PUT', url: `/api/user/options/${gst.id}`, payload: { option_value: '50', field_type: 'text' } },
    ] as Call[]) {
      const res = await t.as(token, call);
      expect(res.statusCode, `${call.method} ${JSON.stringify(call.url)}`).toBe(403);
      expect(res.json()).toEqual({ error: 'This action is unauthorized.' });
    }
    const settingsOnly = await t.login((await t.build.user({ permissions: ['user'] })).email);
    const res = await bulk(settingsOnly, [{ option_name: 'EMAIL_DEFAULT_HEADER', option_value: '<p>Hijacked</p>' }]);
    expect(res.statusCode).toBe(403);
    expect((await option('GST_PERCENT')).option_value).toBe('10');
    expect((await option('EMAIL_DEFAULT_HEADER')).option_value).not.toContain('Hijacked');
  });

  it('has no create or delete', async () => {
    const gst = await option('GST_PERCENT');
    expect(
      (await t.as(admin, { method: 'POST', url: '/api/user/options', payload: { option_name: 'NEW_ONE', option_value: 'x' } })).statusCode,
    ).toBe(404);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/user/options/${gst.id}` })).statusCode).toBe(404);
    expect(await option('GST_PERCENT')).toBeDefined();
  });
});

describe('GET options', () => {
  it('pages and searches the settings (spaces match underscores)', async () => {
    const page = await t.as(admin, { method: 'GET', url: '/api/user/options?page=1&per_page=10' });
    expect(page.statusCode).toBe(200);
    const names = page.json().items.map((o: { option_name: string }) => o.option_name);
    expect(names).toEqual([
      'EMAIL_DEFAULT_FOOTER',
      'EMAIL_DEFAULT_HEADER',
      'GST_PERCENT',
      'QUOTE_APPROVAL_DAYS',
      'TERMS_AND_CONDITIONS',
      'TYRE_LEGAL_MIN_MM',
      'TYRE_RECOMMENDED_MIN_MM',
      'UPLOAD_QUOTA_MB',
      'VEHICLE_COMPARE_WINDOW_DAYS',
    ]);
    expect(page.json().total).toBe(9);
    expect(page.json().items[2]).toEqual({
      id: expect.any(Number),
      option_name: 'GST_PERCENT',
      option_value: '10',
      field_type: 'text',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const second = await t.as(admin, { method: 'GET', url: '/api/user/options?page=3&per_page=3' });
    expect(second.json()).toMatchObject({
      total: 9,
      items: [
        { option_name: 'TYRE_RECOMMENDED_MIN_MM' },
        { option_name: 'UPLOAD_QUOTA_MB' },
        { option_name: 'VEHICLE_COMPARE_WINDOW_DAYS' },
      ],
    });
    for (const q of ['terms and', 'TERMS_AND', 'conditions']) {
      const found = await t.as(admin, { method: 'GET', url: `/api/user/options?q=${encodeURIComponent(q)}` });
      expect(found.json(), q).toMatchObject({ total: 1, items: [{ option_name: 'TERMS_AND_CONDITIONS' }] });
    }
    expect((await t.as(admin, { method: 'GET', url: '/api/user/options?q=%25' })).json()).toEqual({ items: [], total: 0 });
  });

  it('reads one, and answers the model 404 for an unknown id', async () => {
    const gst = await option('GST_PERCENT');
    const one = await t.as(admin, { method: 'GET', url: `/api/user/options/${gst.id}` });
    expect(one.json().data).toMatchObject({ id: gst.id, option_name: 'GST_PERCENT', option_value: '10', field_type: 'text' });
    for (const id of ['987654', 'abc']) {
      const res = await t.as(admin, { method: 'GET', url: `/api/user/options/${id}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: `No query results for model [Option] ${id}` });
    }
  });
});

describe('PUT options/{id}', () => {
  it('requires a value and stores nothing when blank', async () => {
    const terms = await option('TERMS_AND_CONDITIONS');
    for (const option_value of [undefined, '', '   ']) {
      const res = await put(admin, terms.id, { option_value, field_type: 'editor' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: { option_value: 'Option Value is required' } });
    }
    // An emptied rich-text editor leaves markup behind; that is blank too.
    const empty = await put(admin, terms.id, { option_value: '<p><br></p>&nbsp;', field_type: 'editor' });
    expect(empty.json()).toEqual({ error: { option_value: 'Option Value is required' } });
    expect((await option('TERMS_AND_CONDITIONS')).option_value).toBe(terms.option_value);
  });

  it('sanitises an editor value before storing it', async () => {
    const terms = await option('TERMS_AND_CONDITIONS');
    const res = await put(admin, terms.id, {
      option_value:
        '<h3>Terms</h3><p onclick="steal()">Be nice.<script>alert(1)</script><a href="javascript:alert(2)">x</a><img src="x" onerror="alert(3)"></p>',
      field_type: 'editor',
    });
    expect(res.statusCode).toBe(200);
    const stored = (await option('TERMS_AND_CONDITIONS')).option_value;
    expect(res.json().data.option_value).toBe(stored);
    expect(stored).toContain('<h3>Terms</h3>');
    expect(stored).toContain('Be nice.');
    expect(stored).not.toMatch(/script|onclick|onerror|javascript:/i);
  });

  it('keeps the stored field type: a text value is not treated as HTML, and sending "editor" does not change it', async () => {
    const gst = await option('GST_PERCENT');
    const res = await put(admin, gst.id, { option_value: ' 12.5 ', field_type: 'editor' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ option_name: 'GST_PERCENT', option_value: '12.5', field_type: 'text' });
    expect(await option('GST_PERCENT')).toMatchObject({ option_value: '12.5', field_type: 'text' });
  });

  it('holds GST_PERCENT to a number from 0 to 100', async () => {
    const gst = await option('GST_PERCENT');
    await put(admin, gst.id, { option_value: '10', field_type: 'text' });
    for (const bad of ['abc', '-1', '100.5', '101', '1e2', '10%']) {
      const res = await put(admin, gst.id, { option_value: bad, field_type: 'text' });
      expect(res.statusCode, bad).toBe(422);
      expect(res.json()).toEqual({ error: { option_value: 'GST Percent must be a number from 0 to 100' } });
    }
    expect((await option('GST_PERCENT')).option_value).toBe('10');
    for (const ok of ['0', '100', '7.25'])
      expect((await put(admin, gst.id, { option_value: ok, field_type: 'text' })).statusCode, ok).toBe(200);
    await put(admin, gst.id, { option_value: '10', field_type: 'text' });
  });

  it('holds the tyre limits to 0 to 30 mm with at most one decimal; both start at 1.5 and 3', async () => {
    const limits = { TYRE_LEGAL_MIN_MM: 'Tyre Legal Min MM', TYRE_RECOMMENDED_MIN_MM: 'Tyre Recommended Min MM' };
    expect((await option('TYRE_LEGAL_MIN_MM')).option_value).toBe('1.5');
    expect((await option('TYRE_RECOMMENDED_MIN_MM')).option_value).toBe('3');
    for (const [name, label] of Object.entries(limits)) {
      const row = await option(name);
      for (const bad of ['abc', '-1', '1.55', '30.5', '31', '1,5', '2mm']) {
        const res = await put(admin, row.id, { option_value: bad, field_type: 'text' });
        expect(res.statusCode, bad).toBe(422);
        expect(res.json()).toEqual({ error: { option_value: `${label} must be a number of mm from 0 to 30 with at most 1 decimal` } });
      }
      expect((await option(name)).option_value).toBe(row.option_value);
      // Within the range and in order with the other limit (legal 1.5, recommended 3).
      for (const ok of name === 'TYRE_LEGAL_MIN_MM' ? ['0', '1.6', '3'] : ['1.5', '3.5', '30'])
        expect((await put(admin, row.id, { option_value: ok, field_type: 'text' })).statusCode, ok).toBe(200);
      await put(admin, row.id, { option_value: row.option_value, field_type: 'text' });
    }
  });

  it('keeps the legal tyre minimum at or below the recommended one, whichever is changed', async () => {
    const legal = await option('TYRE_LEGAL_MIN_MM');
    const recommended = await option('TYRE_RECOMMENDED_MIN_MM');
    const high = await put(admin, legal.id, { option_value: '5', field_type: 'text' });
    expect(high.statusCode).toBe(422);
    expect(high.json()).toEqual({ error: { option_value: 'Tyre Legal Min MM must not be above Tyre Recommended Min MM (3 mm)' } });
    const low = await put(admin, recommended.id, { option_value: '1', field_type: 'text' });
    expect(low.json()).toEqual({ error: { option_value: 'Tyre Recommended Min MM must not be below Tyre Legal Min MM (1.5 mm)' } });
    expect([(await option('TYRE_LEGAL_MIN_MM')).option_value, (await option('TYRE_RECOMMENDED_MIN_MM')).option_value]).toEqual([
      '1.5',
      '3',
    ]);
  });

  it('holds the vehicle comparison window to 1 to 3650 whole days; it starts at 180', async () => {
    const row = await option('VEHICLE_COMPARE_WINDOW_DAYS');
    expect(row.option_value).toBe('180');
    for (const bad of ['0', '-5', '1.5', '3651', 'abc']) {
      const res = await put(admin, row.id, { option_value: bad, field_type: 'text' });
      expect(res.statusCode, bad).toBe(422);
      expect(res.json()).toEqual({ error: { option_value: 'Vehicle Compare Window Days must be a whole number of days from 1 to 3650' } });
    }
    expect((await put(admin, row.id, { option_value: '90', field_type: 'text' })).statusCode).toBe(200);
    await put(admin, row.id, { option_value: '180', field_type: 'text' });
  });
});

describe('POST options/search', () => {
  it('gives any signed-in user the named settings (the terms dialog)', async () => {
    const nobody = await t.login((await t.build.user({ permissions: [] })).email);
    const res = await t.as(nobody, {
      method: 'POST',
      url: '/api/user/options/search',
      payload: { option_name: ['TERMS_AND_CONDITIONS', 'gst_percent', 'NOT_THERE'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((o: { option_name: string }) => o.option_name)).toEqual(['GST_PERCENT', 'TERMS_AND_CONDITIONS']);
    expect(res.json().data[1]).toMatchObject({
      option_name: 'TERMS_AND_CONDITIONS',
      field_type: 'editor',
      option_value: expect.stringContaining('Terms'),
    });
  });

  it('needs a token and a list of names', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/user/options/search', payload: { option_name: ['GST_PERCENT'] } })).statusCode,
    ).toBe(401);
    const empty = await t.as(admin, { method: 'POST', url: '/api/user/options/search', payload: { option_name: [] } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({ error: { option_name: 'Option Name is required' } });
    expect((await t.as(admin, { method: 'POST', url: '/api/user/options/search', payload: {} })).json()).toEqual({
      error: { option_name: 'Option Name is required' },
    });
  });
});

describe('POST options/bulksave', () => {
  // The header and footer reach every agent's mails: a Super Admin saves them.

  it('saves the e-mail header and footer, sanitised', async () => {
    const res = await bulk(admin, [
      { option_name: 'EMAIL_DEFAULT_HEADER', option_value: '<p>Dear customer,<script>alert(1)</script></p>' },
      { option_name: 'EMAIL_DEFAULT_FOOTER', option_value: '<p style="text-align:center" onmouseover="x()">Regards</p>' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((o: { option_name: string }) => o.option_name)).toEqual(['EMAIL_DEFAULT_HEADER', 'EMAIL_DEFAULT_FOOTER']);
    expect((await option('EMAIL_DEFAULT_HEADER')).option_value).toBe('<p>Dear customer,</p>');
    expect((await option('EMAIL_DEFAULT_FOOTER')).option_value).toBe('<p style="text-align:center">Regards</p>');
  });

  it("says 'Header is required' / 'Footer is required' and saves nothing (all or nothing)", async () => {
    const header = (await option('EMAIL_DEFAULT_HEADER')).option_value;
    const footer = (await option('EMAIL_DEFAULT_FOOTER')).option_value;
    const footerBlank = await bulk(admin, [
      { option_name: 'EMAIL_DEFAULT_HEADER', option_value: '<p>A new header</p>' },
      { option_name: 'EMAIL_DEFAULT_FOOTER', option_value: '<p></p>' },
    ]);
    expect(footerBlank.statusCode).toBe(422);
    expect(footerBlank.json()).toEqual({ error: { EMAIL_DEFAULT_FOOTER: 'Footer is required' } });
    const headerBlank = await bulk(admin, [{ option_name: 'EMAIL_DEFAULT_HEADER', option_value: '  ' }]);
    expect(headerBlank.json()).toEqual({ error: { EMAIL_DEFAULT_HEADER: 'Header is required' } });
    expect((await option('EMAIL_DEFAULT_HEADER')).option_value).toBe(header);
    expect((await option('EMAIL_DEFAULT_FOOTER')).option_value).toBe(footer);
  });

  it('refuses names that are not settings, and any save by a restricted user', async () => {
    const unknown = await bulk(admin, [
      { option_name: 'EMAIL_DEFAULT_HEADER', option_value: '<p>Hi</p>' },
      { option_name: 'MADE_UP', option_value: 'x' },
    ]);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual({ error: { MADE_UP: 'MADE_UP is not a setting.' } });
    expect(await t.db.selectFrom('options').select('id').where('option_name', '=', 'MADE_UP').execute()).toEqual([]);
    const restricted = await t.login((await t.build.user({ permissions: ['email_template', 'user', 'app_setting'] })).email);
    const gst = await bulk(restricted, [{ option_name: 'GST_PERCENT', option_value: '55' }]);
    expect(gst.statusCode).toBe(403);
    expect(gst.json()).toEqual({ error: GLOBAL_RECORD_REFUSAL });
    const badGst = await bulk(admin, [{ option_name: 'GST_PERCENT', option_value: '555' }]);
    expect(badGst.json()).toEqual({ error: { GST_PERCENT: 'GST Percent must be a number from 0 to 100' } });
    expect((await option('GST_PERCENT')).option_value).toBe('10');
    const fine = await bulk(admin, [{ option_name: 'GST_PERCENT', option_value: '15' }]);
    expect(fine.statusCode).toBe(200);
    expect((await option('GST_PERCENT')).option_value).toBe('15');
    await bulk(admin, [{ option_name: 'GST_PERCENT', option_value: '10' }]);
    const malformed = await bulk(admin, { option_name: 'EMAIL_DEFAULT_HEADER', option_value: '<p>x</p>' });
    expect(malformed.statusCode).toBe(422);
  });

  it('creates the header or footer option when an installation lacks it', async () => {
    await t.db.deleteFrom('options').where('option_name', '=', 'EMAIL_DEFAULT_FOOTER').execute();
    const res = await bulk(admin, [{ option_name: 'EMAIL_DEFAULT_FOOTER', option_value: '<p>Bye</p>' }]);
    expect(res.statusCode).toBe(200);
    expect(await option('EMAIL_DEFAULT_FOOTER')).toMatchObject({ option_value: '<p>Bye</p>', field_type: 'editor' });
  });
});

describe('If-Match: two editors of the settings', () => {
  const ifMatch = (at: Date) => ({ 'if-match': `"${at.toISOString()}"` });
  /** The header and footer page's save, made from the copies read at `at` (or with a raw If-Match). */
  const bulkFrom = (at: Date | string, payload: { option_name: string; option_value: string }[]) =>
    t.as(admin, {
      method: 'POST',
      url: '/api/user/options/bulksave',
      headers: typeof at === 'string' ? { 'if-match': at } : ifMatch(at),
      payload,
    });

  // The tag is the newest `updated_at` among the settings saved, as the page read them.
  it('refuses a header and footer save made from a copy saved since (409), and takes the newest copy', async () => {
    const read = await t.db
      .selectFrom('options')
      .selectAll()
      .where('option_name', 'in', ['EMAIL_DEFAULT_HEADER', 'EMAIL_DEFAULT_FOOTER'])
      .execute();
    const newest = new Date(Math.max(...read.map((o) => o.updated_at.getTime())));
    const first = await bulkFrom(newest, [
      { option_name: 'EMAIL_DEFAULT_HEADER', option_value: '<p>First editor</p>' },
      { option_name: 'EMAIL_DEFAULT_FOOTER', option_value: '<p>First footer</p>' },
    ]);
    expect(first.statusCode).toBe(200);
    const second = await bulkFrom(newest, [
      { option_name: 'EMAIL_DEFAULT_HEADER', option_value: '<p>Second editor</p>' },
      { option_name: 'EMAIL_DEFAULT_FOOTER', option_value: '<p>Second footer</p>' },
    ]);
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toMatch(/^Someone else saved this record after you opened it/);
    expect((await option('EMAIL_DEFAULT_HEADER')).option_value).toBe('<p>First editor</p>');
    expect((await option('EMAIL_DEFAULT_FOOTER')).option_value).not.toBe('<p>Second footer</p>');
    const saved = new Date(first.json().data[0].updated_at);
    const again = await bulkFrom(saved, [{ option_name: 'EMAIL_DEFAULT_HEADER', option_value: '<p>Second editor</p>' }]);
    expect(again.statusCode).toBe(200);
    const malformed = await bulkFrom('yesterday', [{ option_name: 'EMAIL_DEFAULT_HEADER', option_value: '<p>Third</p>' }]);
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().error).toHaveProperty('if-match');
    expect((await option('EMAIL_DEFAULT_HEADER')).option_value).toBe('<p>Second editor</p>');
  });

  it('refuses a setting saved from a stale copy (409) and stores nothing', async () => {
    const gst = await option('GST_PERCENT');
    const first = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/options/${gst.id}`,
      headers: ifMatch(gst.updated_at),
      payload: { option_value: '11', field_type: 'text' },
    });
    expect(first.statusCode).toBe(200);
    const stale = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/options/${gst.id}`,
      headers: ifMatch(gst.updated_at),
      payload: { option_value: '12', field_type: 'text' },
    });
    expect(stale.statusCode).toBe(409);
    expect((await option('GST_PERCENT')).option_value).toBe('11');
    await put(admin, gst.id, { option_value: '10', field_type: 'text' });
  });
});
