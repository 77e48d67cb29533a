import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describedResources, resourceRepository, type PageQuery } from '../../server/lib/resource';
import { metaPageReply, pageReply } from '../../server/lib/replies';
import { createTestContext, type TestContext } from './helper';

/**
 * Issue 8, Request cost: a plain resource's page is written as JSON by PostgreSQL (`pageJson`). For every registered
 * resource and many pages, it must be the same JSON, once parsed, as the rows read by `page` and written through the
 * reply's schema (only the record's fields, dates as ISO strings) — what the serialiser sent before.
 */
describe('pages written by PostgreSQL', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    // Rows in every resource: several of each, with nulls and odd text where the builders allow.
    for (let i = 0; i < 3; i++) {
      const client = await t.build.client({ name: `Client ${i} "quoted" \\ back` });
      const agent = await t.build.agent();
      const location = await t.build.location({ name: `Depot ${i}`, agent_id: i === 0 ? null : agent.id });
      await t.build.device({ location_id: location.id, agent_id: agent.id, default_client_id: client.id });
      await t.build.webhook({ agent_id: agent.id });
      await t.build.product({ price: 10.5 + i, type: i === 0 ? null : 'arch' });
      await t.build.part({ type: null });
      await t.build.emailTemplate({ template_body: `<p>Héllo ${i} ✓</p>` });
      await t.build.user({ roles: ['Agent'], agents: [agent.id] });
    }
  });
  afterAll(() => t.app.close());

  it('equals the serialiser’s page for every resource, sort, search and page', async () => {
    const unrestricted = { agents: null, clients: null };
    const checked: string[] = [];
    const serialised: string[] = [];
    for (const d of describedResources()) {
      const repo = resourceRepository(d);
      // Records with lists or objects (a user's roles, a client's matrices) page through the serialiser.
      if (!repo.pageJson) {
        serialised.push(d.path);
        continue;
      }
      const shape = d.pageShape ?? 'total';
      const queries: PageQuery[] = [
        { page: 1, per_page: 25 },
        { page: 1000, per_page: 25 },
        { page: 1, per_page: 10, q: 'e' },
        ...d.sortable.flatMap((sort) => [
          { page: 1, per_page: 3, sort, order: 'asc' as const },
          { page: 2, per_page: 3, sort, order: 'desc' as const },
        ]),
      ];
      for (const q of queries) {
        const written = JSON.parse(await repo.pageJson!(t.db, unrestricted, q, shape, null)) as unknown;
        const { items, total } = await repo.page(t.db, unrestricted, q, null);
        const reply =
          shape === 'meta'
            ? metaPageReply(d.record).parse({ items, meta: { total, last_page: Math.max(1, Math.ceil(total / q.per_page)) } })
            : pageReply(d.record).parse({ items, total });
        expect(written, `${d.path} ${JSON.stringify(q)}`).toEqual(JSON.parse(JSON.stringify(reply)));
      }
      checked.push(d.path);
    }
    console.log(`written by PostgreSQL: ${checked.join(', ')}; through the serialiser: ${serialised.join(', ')}`);
    expect(checked).toEqual(expect.arrayContaining(['locations', 'products', 'parts']));
  });

  it('goes out as JSON through the route, compressed like any reply', async () => {
    const token = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
    const res = await t.as(token, {
      method: 'GET',
      url: '/api/agent/locations?per_page=2&sort=name&order=asc',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json<{ items: Record<string, unknown>[]; total: number }>();
    expect(body.items).toHaveLength(2);
    expect(Object.keys(body.items[0]).sort()).toEqual(['agent_id', 'created_at', 'id', 'name', 'state', 'updated_at']);
    expect(body.items[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
