import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../src/domain/permissions';
import { type Call, createTestContext, type TestContext } from './helper';

/**
 * Records an agent owns (the agent itself, its sites, devices and webhooks) and those a client owns (the client and
 * its price lists): a restricted user holding every permission may read those in their scope, but changes only the
 * ones of their own agents (clients). A Client user reads the agents serving their client and changes none of them;
 * an Agent user reads the clients their agents serve and changes none of them.
 */
let t: TestContext;
let admin: string;
let clientSide: string;
let agentSide: string;
let client: number;
let otherClient: number;
let agent: number;
let otherAgent: number;
let site: number;
let otherSite: number;
let device: number;
let hook: number;

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  client = (await t.build.client({ name: 'Owned client' })).id;
  otherClient = (await t.build.client({ name: 'Owned other client' })).id;
  // The agent serves both clients: its default one and, through a second device, the other.
  agent = (await t.build.agent({ name: 'Owned agent', default_client_id: client })).id;
  otherAgent = (await t.build.agent({ name: 'Owned other agent', default_client_id: otherClient })).id;
  site = (await t.build.location({ name: 'Owned site', agent_id: agent })).id;
  otherSite = (await t.build.location({ name: 'Owned other site', agent_id: otherAgent })).id;
  device = (await t.build.device({ location_id: site, agent_id: agent, default_client_id: client, serial: '5200000001' })).id;
  await t.build.device({ location_id: site, agent_id: agent, default_client_id: otherClient, serial: '5200000003' });
  hook = (await t.build.webhook({ agent_id: agent })).id;
  const all = [...PERMISSIONS];
  clientSide = await t.login((await t.build.user({ roles: ['Client'], clients: [client], permissions: all })).email);
  agentSide = await t.login((await t.build.user({ roles: ['Agent'], agents: [agent], permissions: all })).email);
});

async function snapshot() {
  const out: Record<string, string> = {};
  for (const name of ['agents', 'locations', 'devices', 'webhooks', 'clients', 'client_dent_prices']) {
    const r = await sql<{ digest: string }>`select count(*) || ':' || coalesce(sum(hashtextextended(x::text, 0)::numeric), 0) as digest
      from ${sql.table(name)} x`.execute(t.db);
    out[name] = r.rows[0].digest;
  }
  return out;
}

const agentFields = (over: Record<string, unknown> = {}) => ({
  name: 'Owned agent',
  phone: '0352001234',
  email: 'desk@owned.test',
  address: '1 Malop St, Geelong VIC 3220',
  portal_email_address: 'portal@owned.test',
  abn: '51824753556',
  pincode: '',
  default_client_id: client,
  language: 'en',
  ...over,
});

/** What a Client user must not do to the agent serving their client. */
const agentWrites = (): Call[] => [
  { method: 'PUT', url: `/api/agent/agents/${agent}`, payload: agentFields({ portal_mode: 'open', pincode: '999999' }) },
  { method: 'DELETE', url: `/api/agent/agents/${agent}` },
  { method: 'PUT', url: `/api/agent/locations/${site}`, payload: { name: 'Renamed by insurer', state: 'VIC', agent_id: agent } },
  { method: 'DELETE', url: `/api/agent/locations/${site}` },
  {
    method: 'POST',
    url: '/api/agent/devices',
    payload: { location_id: site, type: 'arch', agent_id: agent, serial: '5200000002', default_client_id: client },
  },
  {
    method: 'PUT',
    url: `/api/agent/devices/${device}`,
    payload: { location_id: site, type: 'tire', agent_id: agent, serial: '5200000001', default_client_id: client },
  },
  { method: 'DELETE', url: `/api/agent/devices/${device}` },
  {
    method: 'POST',
    url: '/api/agent/webhooks',
    payload: { agent_id: agent, endpoint: 'https://attacker.example.test/hook', events: ['scan.created', 'scan.updated'] },
  },
];
/** The agent's webhook is beyond a Client user's reach altogether (its signing secret): not found, never changed. */
const hookWrites = (): Call[] => [
  {
    method: 'PUT',
    url: `/api/agent/webhooks/${hook}`,
    payload: { agent_id: agent, endpoint: 'https://attacker.example.test/hook2', events: ['scan.created'] },
  },
  { method: 'DELETE', url: `/api/agent/webhooks/${hook}` },
];

describe("records an agent or a client owns: changed only by the owner's users", () => {
  it('a Client user holding every permission reads the agent serving their client, its site and device, not its webhook', async () => {
    for (const url of [`/api/agent/agents/${agent}`, `/api/agent/locations/${site}`, `/api/agent/devices/${device}`]) {
      const res = await t.as(clientSide, { method: 'GET', url });
      expect(res.statusCode, `${url} ${res.body}`).toBe(200);
    }
    const hookRead = await t.as(clientSide, { method: 'GET', url: `/api/agent/webhooks/${hook}` });
    expect(hookRead.statusCode).toBe(404);
    expect(hookRead.body).not.toContain('whsec_');
  });

  it('but creates, changes and deletes none of them (403, or 404 for the webhook; nothing changed)', async () => {
    const before = await snapshot();
    for (const call of agentWrites()) {
      const res = await t.as(clientSide, call);
      expect(res.statusCode, `${call.method} ${call.url} ${res.body}`).toBe(403);
    }
    for (const call of hookWrites()) {
      const res = await t.as(clientSide, call);
      expect(res.statusCode, `${call.method} ${call.url} ${res.body}`).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('an Agent user reads the client their agent serves through a device, but changes it not (403); their own client they change', async () => {
    expect((await t.as(agentSide, { method: 'GET', url: `/api/quote/clients/${otherClient}` })).statusCode).toBe(200);
    const before = await snapshot();
    for (const call of [
      { method: 'PUT', url: `/api/quote/clients/${otherClient}`, payload: { name: 'Owned other client', sc_threshold: 9 } },
      { method: 'DELETE', url: `/api/quote/clients/${otherClient}` },
    ] as Call[]) {
      const res = await t.as(agentSide, call);
      expect(res.statusCode, `${call.method} ${call.url} ${res.body}`).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
    // The Client user of that client may.
    const own = await t.as(clientSide, {
      method: 'PUT',
      url: `/api/quote/clients/${client}`,
      payload: { name: 'Owned client', sc_threshold: 4 },
    });
    expect(own.statusCode, own.body).toBe(200);
  });

  it("an Agent user changes their own agent's records, and a Super Admin anyone's", async () => {
    const mine = await t.as(agentSide, {
      method: 'PUT',
      url: `/api/agent/locations/${site}`,
      payload: { name: 'Owned site renamed', state: 'VIC', agent_id: agent },
    });
    expect(mine.statusCode, mine.body).toBe(200);
    const hookEdit = await t.as(agentSide, {
      method: 'PUT',
      url: `/api/agent/webhooks/${hook}`,
      payload: { agent_id: agent, endpoint: 'https://hooks.example.test/moved', events: ['scan.created'] },
    });
    expect(hookEdit.statusCode, hookEdit.body).toBe(200);
    const theirs = await t.as(admin, {
      method: 'PUT',
      url: `/api/agent/locations/${otherSite}`,
      payload: { name: 'Owned other site renamed', state: 'VIC', agent_id: otherAgent },
    });
    expect(theirs.statusCode, theirs.body).toBe(200);
  });
});
