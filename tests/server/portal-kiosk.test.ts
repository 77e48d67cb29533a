import { hash } from '@node-rs/argon2';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueKioskToken, KIOSK_TOKEN_DAYS } from '../../server/lib/kiosk';
import { createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
let clientId: number;
const PIN = '246810';
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  clientId = (await t.build.client({ name: 'Kiosk client' })).id;
});

// The pincode throttle counts per agent and address: each test uses its own address.
let address = 0;
const nextAddress = () => `10.31.0.${++address}`;

const enrol = (agentId: number, pincode: unknown, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: `/api/agent/agents/${agentId}/portal/enrol`, payload: { pincode }, remoteAddress });
const tokenFor = async (agentId: number, pincode = PIN) => {
  const res = await enrol(agentId, pincode);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.kiosk_token as string;
};
const portalScans = (agentId: number, token?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/scan/portal/${agentId}/scans`,
    headers: token === undefined ? {} : { 'x-kiosk-token': token },
  });
const portalAgent = (agentId: number, token?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/agent/agents/${agentId}/portal`,
    headers: token === undefined ? {} : { 'x-kiosk-token': token },
  });
const newAgent = async (over: { portal_mode?: 'enrolled' | 'open'; is_enabled?: number } = {}) =>
  t.build.agent({ is_enabled: 1, pincode_hash: await hash(PIN), default_client_id: clientId, ...over });

describe('POST agents/{id}/portal/enrol', () => {
  it('gives a kiosk token valid 30 days for the right pincode', async () => {
    const agent = await newAgent();
    const before = Date.now();
    const res = await enrol(agent.id, PIN);
    expect(res.statusCode, res.body).toBe(200);
    const { kiosk_token, expires_at } = res.json().data as { kiosk_token: string; expires_at: string };
    expect(kiosk_token).toMatch(new RegExp(`^${agent.id}\\.1\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
    const days = (Date.parse(expires_at) - before) / 86_400_000;
    expect(days).toBeGreaterThan(KIOSK_TOKEN_DAYS - 0.01);
    expect(days).toBeLessThan(KIOSK_TOKEN_DAYS + 0.01);
  });

  it('refuses a wrong pincode naming the field, and throttles with validate-pin (5 failures per agent and address)', async () => {
    const agent = await newAgent();
    const ip = nextAddress();
    const wrong = await enrol(agent.id, '000000', ip);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ error: { pincode: 'Pincode does not match' } });
    expect((await enrol(agent.id, '', ip)).json()).toEqual({ error: { pincode: 'Pincode is required' } });
    // validate-pin and enrol share one count.
    for (let i = 0; i < 3; i++) {
      const v = await t.app.inject({
        method: 'POST',
        url: `/api/agent/agents/${agent.id}/validate-pin`,
        payload: { pin: '999999' },
        remoteAddress: ip,
      });
      expect(v.json()).toEqual({ data: false });
    }
    expect((await enrol(agent.id, '123456', ip)).statusCode).toBe(422);
    const throttled = await enrol(agent.id, PIN, ip);
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await enrol(agent.id, PIN)).statusCode).toBe(200);
  });

  it('answers the model 404 for a disabled or missing agent', async () => {
    const disabled = await newAgent({ is_enabled: 0 });
    expect((await enrol(disabled.id, PIN)).statusCode).toBe(404);
    expect((await enrol(99_999_999, PIN)).json()).toEqual({ error: 'No query results for model [Agent] 99999999' });
  });
});

describe('the portal endpoints of an enrolled agent', () => {
  it('answer 401 without a valid kiosk token and the portal fields of the last 48 hours with one', async () => {
    const agent = await newAgent();
    const other = await newAgent();
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
    await t.build.scan({ agent_id: agent.id, license_plate: 'NEW001', scanned_at: hoursAgo(1), client_id: clientId, make: 'Mazda' });
    await t.build.scan({ agent_id: agent.id, license_plate: 'OLD001', scanned_at: hoursAgo(49) });
    await t.build.scan({ agent_id: other.id, license_plate: 'OTH001', scanned_at: hoursAgo(1) });

    for (const res of [await portalScans(agent.id), await portalAgent(agent.id), await portalScans(agent.id, 'nonsense')]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'Kiosk not enrolled: enter the pincode' });
    }
    // A signed-in admin's bearer token is not a kiosk token.
    expect((await t.as(admin, { method: 'GET', url: `/api/scan/portal/${agent.id}/scans` })).statusCode).toBe(401);

    const token = await tokenFor(agent.id);
    const res = await portalScans(agent.id, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      items: [
        {
          id: expect.any(Number),
          licensePlate: 'NEW001',
          timestamp: expect.any(String),
          has_quote: false,
          status: 'uploaded',
          type: 'arch',
          damageCount: 0,
          dentCount: 0,
          scratchCount: 0,
        },
      ],
      total: 1,
    });
    const branding = await portalAgent(agent.id, token);
    expect(branding.json()).toEqual({
      data: {
        id: agent.id,
        name: agent.name,
        primary_color: '#0c1839',
        text_color: '#000000',
        logo: null,
        blurb: null,
        portal_mode: 'enrolled',
      },
    });
    // The token opens its own agent's portal only.
    expect((await portalScans(other.id, token)).statusCode).toBe(401);
  });

  it('refuse an expired, tampered or foreign-signed token', async () => {
    const agent = await newAgent();
    const token = await tokenFor(agent.id);
    const [id, version, expires, sig] = token.split('.');
    const tampered = [
      `${id}.${version}.${Number(expires) + 86_400}.${sig}`,
      `${id}.${Number(version) + 1}.${expires}.${sig}`,
      // The first character: the last one of base64url carries padding bits, and A/B there can decode to the same bytes.
      `${id}.${version}.${expires}.${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`,
    ];
    for (const bad of tampered) expect((await portalScans(agent.id, bad)).statusCode, bad).toBe(401);
    const expired = issueKioskToken(t.app.signer, agent.id, 1, Date.now() - (KIOSK_TOKEN_DAYS + 1) * 86_400_000).token;
    expect((await portalScans(agent.id, expired)).statusCode).toBe(401);
    const fresh = issueKioskToken(t.app.signer, agent.id, 1).token;
    expect((await portalScans(agent.id, fresh)).statusCode).toBe(200);
  });

  it('are void once the pincode changes on the agent form; saving it without a new pincode keeps them', async () => {
    const agent = await newAgent();
    const token = await tokenFor(agent.id);
    const body = (over: Record<string, string | number>) => ({
      name: agent.name,
      phone: '0390001111',
      email: 'kiosk@agent.test',
      address: '1 Kiosk St',
      portal_email_address: 'portal@agent.test',
      abn: '51824753556',
      default_client_id: clientId,
      language: 'en',
      ...over,
    });
    const keep = await t.as(admin, { method: 'PUT', url: `/api/agent/agents/${agent.id}`, payload: body({ pincode: '' }) });
    expect(keep.statusCode, keep.body).toBe(200);
    expect((await portalScans(agent.id, token)).statusCode).toBe(200);

    const change = await t.as(admin, { method: 'PUT', url: `/api/agent/agents/${agent.id}`, payload: body({ pincode: '135799' }) });
    expect(change.statusCode, change.body).toBe(200);
    expect((await portalScans(agent.id, token)).statusCode).toBe(401);
    // The old pincode no longer enrols; the new one does, and its token works.
    expect((await enrol(agent.id, PIN)).statusCode).toBe(422);
    expect((await portalScans(agent.id, await tokenFor(agent.id, '135799'))).statusCode).toBe(200);
  });
});

describe('an open portal and the agent setting', () => {
  it('needs no token when the agent set its portal to open; the form saves and validates the setting', async () => {
    const agent = await newAgent();
    expect((await portalScans(agent.id)).statusCode).toBe(401);
    const body = {
      name: agent.name,
      phone: '0390001111',
      email: 'open@agent.test',
      address: '1 Open St',
      portal_email_address: 'portal@agent.test',
      abn: '51824753556',
      default_client_id: clientId,
      language: 'en',
    };
    const bad = await t.as(admin, { method: 'PUT', url: `/api/agent/agents/${agent.id}`, payload: { ...body, portal_mode: 'public' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toHaveProperty('portal_mode');

    const open = await t.as(admin, { method: 'PUT', url: `/api/agent/agents/${agent.id}`, payload: { ...body, portal_mode: 'open' } });
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().data.portal_mode).toBe('open');
    expect((await portalScans(agent.id)).statusCode).toBe(200);
    expect((await portalAgent(agent.id)).json().data.portal_mode).toBe('open');

    // A new agent's portal is enrolled unless the form says otherwise.
    const created = await t.as(admin, {
      method: 'POST',
      url: '/api/agent/agents',
      payload: { ...body, name: 'Kiosk default', pincode: PIN },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.portal_mode).toBe('enrolled');
  });

  it('a disabled agent has no portal: 404 even when open', async () => {
    const agent = await newAgent({ is_enabled: 0, portal_mode: 'open' });
    expect((await portalScans(agent.id)).statusCode).toBe(404);
    expect((await portalAgent(agent.id)).statusCode).toBe(404);
    expect((await portalScans(Number.NaN)).statusCode).toBe(404);
  });
});
