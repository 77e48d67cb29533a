import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
let agentA: number;
let agentB: number;
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  agentA = (await t.build.agent({ name: 'Hook agent A' })).id;
  agentB = (await t.build.agent({ name: 'Hook agent B' })).id;
});

const body = (over: Record<string, unknown> = {}) => ({
  agent_id: agentA,
  endpoint: 'https://hooks.example.test/scans',
  description: 'Job board',
  events: ['scan.created'],
  ...over,
});
const countHooks = async () =>
  (
    await t.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

describe('webhooks', () => {
  it('lists the events a webhook may subscribe to', async () => {
    const res = await t.as(admin, { method: 'GET', url: '/api/agent/webhooks/events' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { text: 'Scan created', value: 'scan.created' },
      { text: 'Scan updated', value: 'scan.updated' },
      { text: 'Quote generated', value: 'quote.generated' },
    ]);
  });

  it('creates with a server-made secret, ignoring one in the body; updates keep it', async () => {
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/agent/webhooks',
      payload: body({ secret: 'whsec_mine', events: ['scan.created', 'quote.generated'] }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const hook = res.json().data;
    expect(hook).toMatchObject({
      agent_id: agentA,
      endpoint: 'https://hooks.example.test/scans',
      description: 'Job board',
      events: ['scan.created', 'quote.generated'],
    });
    expect(hook.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect((await t.db.selectFrom('webhooks').select('secret').where('id', '=', hook.id).executeTakeFirstOrThrow()).secret).toBe(
      hook.secret,
    );

    const other = (await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: body() })).json().data;
    expect(other.secret).not.toBe(hook.secret);

    const updated = await t.as(admin, {
      method: 'PUT',
      url: `/api/agent/webhooks/${hook.id}`,
      payload: body({ endpoint: 'http://hooks.example.test/v2', events: ['scan.updated'], secret: 'whsec_mine' }),
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ endpoint: 'http://hooks.example.test/v2', events: ['scan.updated'], secret: hook.secret });
    expect((await t.as(admin, { method: 'GET', url: `/api/agent/webhooks/${hook.id}` })).json()).toEqual({ data: updated.json().data });

    expect((await t.as(admin, { method: 'DELETE', url: `/api/agent/webhooks/${hook.id}` })).statusCode).toBe(200);
    const gone = await t.as(admin, { method: 'GET', url: `/api/agent/webhooks/${hook.id}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: `No query results for model [Webhook] ${hook.id}` });
  });

  it("pages an agent's webhooks with agent_id, and searches", async () => {
    const a1 = await t.build.webhook({ agent_id: agentA, endpoint: 'https://a.example.test/one' });
    const b1 = await t.build.webhook({ agent_id: agentB, endpoint: 'https://b.example.test/one' });
    const forA = (await t.as(admin, { method: 'GET', url: `/api/agent/webhooks?agent_id=${agentA}&per_page=100` })).json();
    expect(forA.items.map((h: { id: number }) => h.id)).toContain(a1.id);
    expect(forA.items.every((h: { agent_id: number }) => h.agent_id === agentA)).toBe(true);
    const forB = (await t.as(admin, { method: 'GET', url: `/api/agent/webhooks?agent_id=${agentB}` })).json();
    expect(forB).toEqual({ items: [expect.objectContaining({ id: b1.id })], total: 1 });
    expect((await t.as(admin, { method: 'GET', url: '/api/agent/webhooks?q=b.example' })).json().total).toBe(1);
    const bad = await t.as(admin, { method: 'GET', url: '/api/agent/webhooks?agent_id=abc' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().error)).toEqual(['agent_id']);
  });

  it('answers 422 for a missing or non-http(s) endpoint, no or unknown events, a missing agent; stores nothing', async () => {
    const before = await countHooks();
    const empty = await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: { events: [] } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({
      error: { agent_id: 'Agent is required', endpoint: 'Endpoint is required', events: 'Events is required' },
    });
    for (const endpoint of ['ftp://hooks.example.test/x', 'javascript:alert(1)', 'not a url', 'https://']) {
      const res = await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: body({ endpoint }) });
      expect(res.json(), endpoint).toEqual({ error: { endpoint: 'Endpoint must be a valid URL' } });
    }
    const unknown = await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: body({ events: ['scan.deleted'] }) });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual({ error: { events: 'The selected events is invalid' } });
    const noAgent = await t.as(admin, { method: 'POST', url: '/api/agent/webhooks', payload: body({ agent_id: 99999999 }) });
    expect(noAgent.json()).toEqual({ error: { agent_id: 'The selected agent is invalid' } });
    expect(await countHooks()).toBe(before);
  });

  it('answers 403 on every webhook route to a user without `agent`', async () => {
    const hook = await t.build.webhook({ agent_id: agentA });
    const token = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA] })).email);
    const calls: InjectOptions[] = [
      { method: 'GET', url: '/api/agent/webhooks' },
      { method: 'GET', url: '/api/agent/webhooks/events' },
      { method: 'GET', url: '/api/agent/webhooks/lists' },
      { method: 'GET', url: `/api/agent/webhooks/${hook.id}` },
      { method: 'POST', url: '/api/agent/webhooks', payload: body() },
      { method: 'PUT', url: `/api/agent/webhooks/${hook.id}`, payload: body({ endpoint: 'https://evil.example.test' }) },
      { method: 'DELETE', url: `/api/agent/webhooks/${hook.id}` },
    ];
    const before = await countHooks();
    for (const call of calls) expect((await t.as(token, call)).statusCode, `${call.method} ${call.url}`).toBe(403);
    expect(await countHooks()).toBe(before);
  });

  it("keeps Agent and Client users to their agents' webhooks", async () => {
    const client = (await t.build.client({ name: 'Hook client' })).id;
    const served = (await t.build.agent({ name: 'Hook served agent', default_client_id: client })).id;
    const mine = await t.build.webhook({ agent_id: agentA, endpoint: 'https://scope.example.test/a' });
    const theirs = await t.build.webhook({ agent_id: agentB, endpoint: 'https://scope.example.test/b' });
    const servedHook = await t.build.webhook({ agent_id: served, endpoint: 'https://scope.example.test/served' });
    const agentUser = await t.login((await t.build.user({ roles: ['Agent'], agents: [agentA], permissions: ['agent'] })).email);
    const clientUser = await t.login((await t.build.user({ roles: ['Client'], clients: [client], permissions: ['agent'] })).email);
    const ids = async (token: string) =>
      (await t.as(token, { method: 'GET', url: '/api/agent/webhooks?q=scope.example&per_page=100' }))
        .json()
        .items.map((h: { id: number }) => h.id);
    expect(await ids(agentUser)).toEqual([mine.id]);
    expect(await ids(clientUser)).toEqual([servedHook.id]);
    expect((await t.as(agentUser, { method: 'GET', url: `/api/agent/webhooks/${theirs.id}` })).statusCode).toBe(404);
    const before = await countHooks();
    expect((await t.as(agentUser, { method: 'POST', url: '/api/agent/webhooks', payload: body({ agent_id: agentB }) })).statusCode).toBe(
      403,
    );
    expect(await countHooks()).toBe(before);
    expect((await t.as(agentUser, { method: 'POST', url: '/api/agent/webhooks', payload: body() })).statusCode).toBe(201);
  });
});
