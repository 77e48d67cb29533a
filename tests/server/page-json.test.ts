import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonPages } from '../../server/lib/page-json';
import { recordJsonCheck, recordJsonSql } from '../../server/lib/record-json';
import { metaPageReply, pageReply } from '../../server/lib/replies';
import { describedAt, type PageQuery, type ResourceDescription, resourceRepository } from '../../server/lib/resource';
import { createTestContext, type TestContext } from './helper';

let t: TestContext;
let locationsResource: ResourceDescription;
let emailTemplatesResource: ResourceDescription;
let admin: string;
const everything = { agents: null, clients: null };
beforeAll(async () => {
  t = await createTestContext();
  locationsResource = describedAt('locations');
  emailTemplatesResource = describedAt('emailTemplates');
  await t.build.user({ roles: ['Super Admin'], email: 'root@example.test' });
  admin = await t.login('root@example.test');
  // Text JSON must escape, timestamps with microseconds and before 1970, a null owner.
  const names = ['Quote " and \\ back', 'Tab\there\nnewline', '東京 デポ', 'Emoji 🚗 depot', '100% _under_', 'Plain'];
  const times = ['2026-11-24 01:02:03.999999+00', '1969-07-20 20:17:40+00', '2026-02-28 23:59:59.5+11', '2000-01-01 00:00:00.001+00'];
  for (const [i, name] of names.entries())
    await sql`insert into locations (name, state, agent_id, created_at, updated_at)
      values (${name}, 'VIC', null, ${times[i % times.length]}::timestamptz, ${times[(i + 1) % times.length]}::timestamptz)`.execute(t.db);
});

/** The page as the JavaScript path writes it (rows parsed by pg, the reply schema's output), as a client reads it. */
async function pageByJavaScript(q: PageQuery) {
  const { items, total } = await resourceRepository(locationsResource).page(t.db, everything, q);
  return JSON.parse(JSON.stringify(pageReply(locationsResource.record).parse({ items, total }))) as unknown;
}

describe('a page written by PostgreSQL (recordJsonSql)', () => {
  it('is written only for records of flat scalars', () => {
    expect(recordJsonSql(z.object({ id: z.number(), name: z.string().nullable(), at: z.date(), ok: z.boolean() }), 'p')).not.toBeNull();
    expect(recordJsonSql(z.object({ id: z.number(), roles: z.array(z.string()) }), 'p')).toBeNull();
    expect(recordJsonSql(z.object({ id: z.number(), prices: z.object({ a: z.number() }) }), 'p')).toBeNull();
    expect(recordJsonSql(z.object({ id: z.number(), note: z.string().optional() }), 'p')).toBeNull();
  });

  it("checks a record's JSON has the form JavaScript gives it (the test suite's check of every page)", () => {
    const check = recordJsonCheck(locationsResource.record)!;
    const row = {
      id: 1,
      name: 'A',
      state: 'VIC',
      agent_id: null,
      created_at: '2026-11-24T01:02:03.999Z',
      updated_at: '2026-11-24T01:02:03.000Z',
    };
    expect(check.safeParse(row).success).toBe(true);
    expect(check.safeParse({ ...row, created_at: '2026-11-24T01:02:03.999999+00:00' }).success).toBe(false);
    expect(check.safeParse({ ...row, id: '1' }).success).toBe(false);
    expect(check.safeParse({ ...row, name: null }).success).toBe(false);
    expect(check.safeParse({ ...row, password_hash: 'x' }).success).toBe(false);
  });

  it('holds the same rows, order and values as the page JavaScript writes', async () => {
    const pages = jsonPages(t.app, locationsResource, resourceRepository(locationsResource));
    const queries: PageQuery[] = [
      { page: 1, per_page: 25 },
      { page: 1, per_page: 4, sort: 'name', order: 'desc' },
      { page: 2, per_page: 4, sort: 'created_at', order: 'asc' },
      { page: 1, per_page: 10, q: '100%' },
      { page: 1, per_page: 10, q: 'デポ' },
      { page: 9, per_page: 10 },
      { page: 1, per_page: 10, q: 'no such depot' },
    ];
    for (const q of queries) {
      const body = await pages.body(everything, q, null);
      expect(body, JSON.stringify(q)).not.toBeNull();
      expect(JSON.parse(body!), JSON.stringify(q)).toEqual(await pageByJavaScript(q));
    }
    const first = JSON.parse((await pages.body(everything, { page: 1, per_page: 25, sort: 'name', order: 'asc' }, null))!);
    expect(first.items.map((l: { name: string }) => l.name)).toContain('Quote " and \\ back');
    expect(first.items.find((l: { name: string }) => l.name === 'Quote " and \\ back').created_at).toBe('2026-11-24T01:02:03.999Z');
  });

  it('writes the meta shape (email templates) with the last page', async () => {
    for (let i = 0; i < 3; i++)
      await t.db
        .insertInto('email_templates')
        .values({ template_name: `Template ${i}`, template_body: `<p>${i}</p>` })
        .execute();
    const repo = resourceRepository(emailTemplatesResource);
    const pages = jsonPages(t.app, emailTemplatesResource, repo);
    const q = { page: 1, per_page: 2 };
    const { items, total } = await repo.page(t.db, everything, q);
    const expected = metaPageReply(emailTemplatesResource.record).parse({ items, meta: { total, last_page: Math.ceil(total / 2) } });
    expect(JSON.parse((await pages.body(everything, q, null))!)).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('is what the list route sends', async () => {
    const q = { page: 1, per_page: 25 };
    const res = await t.as(admin, { method: 'GET', url: '/api/agent/locations?page=1&per_page=25' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toBe(await jsonPages(t.app, locationsResource, resourceRepository(locationsResource)).body(everything, q, null));
  });
});
