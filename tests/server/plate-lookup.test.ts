import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedScans } from '../../server/seed/scans-demo';
import { createTestContext, type TestContext } from './helper';

/** The plate autocomplete and fetch, from the built-in registry and from an HTTP provider (a real local server). */

interface Seen {
  url: string;
  authorization: string | undefined;
}

/** A look-up service on a free local port: `mode` decides how it answers. */
async function startProvider() {
  const seen: Seen[] = [];
  const state = { mode: 'ok' as 'ok' | 'slow' | 'error' | 'garbage' };
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url!, authorization: req.headers.authorization });
    if (state.mode === 'slow') return void setTimeout(() => res.end('{}'), 3000).unref();
    if (state.mode === 'error') return void res.writeHead(503).end('down for maintenance: internal host db-7');
    if (state.mode === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": {"nope": true}}');
    const url = new URL(req.url!, 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/v1/search')
      return void res.end(JSON.stringify({ data: [{ number: 'EXT123', state: 'NSW', make: 'Volvo', model: 'XC60' }] }));
    if (url.pathname === '/v1/fetch/EXT123')
      return void res.end(
        JSON.stringify({
          data: {
            number: 'EXT123',
            state: url.searchParams.get('state'),
            ag_response: { colour: 'Blue', make: 'Volvo', model: 'XC60', vehicle: { body_type: 'SUV' } },
            valuation_response: { price: 41000 },
          },
        }),
      );
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let provider: Awaited<ReturnType<typeof startProvider>>;
let builtIn: TestContext;
let external: TestContext;
let builtInToken: string;
let externalToken: string;

beforeAll(async () => {
  provider = await startProvider();
  builtIn = await createTestContext();
  external = await createTestContext({ PLATE_LOOKUP_URL: provider.url, PLATE_LOOKUP_KEY: 'plate-key-123', PLATE_LOOKUP_TIMEOUT_MS: '500' });
  builtInToken = await builtIn.login((await builtIn.build.user({ roles: ['Agent'], agents: [(await builtIn.build.agent()).id] })).email);
  externalToken = await external.login((await external.build.user({ roles: ['Super Admin'] })).email);
});
afterAll(async () => {
  await provider?.close();
});

describe('the built-in provider (registrations table)', () => {
  it('suggests at most 10 plates by prefix, spaces and dashes ignored, letters upper-cased', async () => {
    for (let i = 0; i < 12; i++) await builtIn.build.registration({ number: `1AB${String(i).padStart(2, '0')}Q`, state: 'VIC' });
    await builtIn.build.registration({ number: '1AC00Q', state: 'VIC' });
    const res = await builtIn.as(builtInToken, { method: 'POST', url: '/api/scan/license-plates/search', payload: { number: ' 1a-b' } });
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().data as { number: string }[];
    expect(items.map((p) => p.number)).toEqual(Array.from({ length: 10 }, (_, i) => `1AB${String(i).padStart(2, '0')}Q`));
    expect(items[0]).toEqual({ number: '1AB00Q', state: 'VIC', make: 'Toyota', model: 'Corolla' });
    // A LIKE wildcard is text, not a pattern.
    const wild = await builtIn.as(builtInToken, { method: 'POST', url: '/api/scan/license-plates/search', payload: { number: '%' } });
    expect(wild.statusCode).toBe(422);
    expect(wild.json().error).toEqual({ number: 'Number may hold only letters and digits' });
    for (const payload of [{}, { number: '' }, { number: ' - ' }, { number: 12 }, { number: 'X'.repeat(41) }]) {
      const bad = await builtIn.as(builtInToken, { method: 'POST', url: '/api/scan/license-plates/search', payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(422);
      expect(typeof bad.json().error.number, bad.body).toBe('string');
    }
  });

  it('fetches a plate in the wire shape, narrowed by state; an unknown one is the model 404', async () => {
    await builtIn.build.registration({
      number: 'FETCH1',
      state: 'NSW',
      make: 'Mazda',
      model: 'CX-5',
      colour: 'Red',
      body_type: 'SUV',
      valuation: 27500,
    });
    await builtIn.build.registration({
      number: 'FETCH1',
      state: 'QLD',
      make: 'Kia',
      model: 'Cerato',
      colour: 'White',
      body_type: 'Sedan',
      valuation: 12000,
    });
    const res = await builtIn.as(builtInToken, { method: 'GET', url: '/api/scan/license-plates/fetch/fetch1?state=qld' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      number: 'FETCH1',
      state: 'QLD',
      ag_response: { colour: 'White', make: 'Kia', model: 'Cerato', vehicle: { body_type: 'Sedan' } },
      valuation_response: { price: 12000 },
    });
    const missing = await builtIn.as(builtInToken, { method: 'GET', url: '/api/scan/license-plates/fetch/FETCH1?state=WA' });
    expect([missing.statusCode, missing.json().error]).toEqual([404, 'No query results for model [Registration] FETCH1']);
    const badState = await builtIn.as(builtInToken, { method: 'GET', url: '/api/scan/license-plates/fetch/FETCH1?state=XX' });
    expect(badState.json().error).toEqual({ state: 'The selected state is invalid' });
  });
});

describe('the HTTP provider (PLATE_LOOKUP_URL)', () => {
  it('asks the service with the key and answers its records', async () => {
    provider.state.mode = 'ok';
    provider.seen.length = 0;
    const search = await external.as(externalToken, { method: 'POST', url: '/api/scan/license-plates/search', payload: { number: 'ext' } });
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().data).toEqual([{ number: 'EXT123', state: 'NSW', make: 'Volvo', model: 'XC60' }]);
    const fetched = await external.as(externalToken, { method: 'GET', url: '/api/scan/license-plates/fetch/EXT123?state=NSW' });
    expect(fetched.json().data).toMatchObject({
      number: 'EXT123',
      ag_response: { make: 'Volvo', vehicle: { body_type: 'SUV' } },
      valuation_response: { price: 41000 },
    });
    expect(provider.seen).toEqual([
      { url: '/v1/search?number=EXT&limit=10', authorization: 'Bearer plate-key-123' },
      { url: '/v1/fetch/EXT123?state=NSW', authorization: 'Bearer plate-key-123' },
    ]);
    const unknown = await external.as(externalToken, { method: 'GET', url: '/api/scan/license-plates/fetch/NOPE1' });
    expect(unknown.statusCode).toBe(404);
  });

  it('says 504 when the service does not answer in time, without waiting for it', async () => {
    provider.state.mode = 'slow';
    const started = Date.now();
    const res = await external.as(externalToken, { method: 'GET', url: '/api/scan/license-plates/fetch/EXT123' });
    expect(res.statusCode).toBe(504);
    expect(res.json()).toEqual({ error: 'The registration lookup service did not answer within 0.5 seconds' });
    expect(Date.now() - started).toBeLessThan(2500);
    const search = await external.as(externalToken, { method: 'POST', url: '/api/scan/license-plates/search', payload: { number: 'ext' } });
    expect(search.statusCode).toBe(504);
  });

  it("says 502 when the service fails, answers nonsense or is not there, never passing on the service's own text", async () => {
    provider.state.mode = 'error';
    const failed = await external.as(externalToken, { method: 'GET', url: '/api/scan/license-plates/fetch/EXT123' });
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({ error: 'The registration lookup service failed (status 503)' });
    expect(failed.body).not.toContain('db-7');
    provider.state.mode = 'garbage';
    const garbage = await external.as(externalToken, { method: 'GET', url: '/api/scan/license-plates/fetch/EXT123' });
    expect([garbage.statusCode, garbage.json().error]).toEqual([
      502,
      'The registration lookup service gave an answer that could not be read',
    ]);
    await provider.close();
    const gone = await external.as(externalToken, { method: 'POST', url: '/api/scan/license-plates/search', payload: { number: 'ext' } });
    expect([gone.statusCode, gone.json().error]).toEqual([502, 'The registration lookup service could not be reached']);
  });
});

describe('the demo registry', () => {
  it("holds every demo scan's vehicle and more in each state, so the demo's plate fetch fills the scan's fields offline", async () => {
    const client = (await builtIn.build.client()).id;
    const agent = (await builtIn.build.agent({ default_client_id: client })).id;
    const site = (await builtIn.build.location({ agent_id: agent, state: 'NSW' })).id;
    await builtIn.build.device({ location_id: site, agent_id: agent, default_client_id: client, type: 'arch', serial: 'DEMO-REG-1' });
    await seedScans(builtIn.db, builtIn.app.storage, { count: 6, seed: 7 });
    const scans = await builtIn.db
      .selectFrom('scans')
      .select(['id', 'license_plate', 'location_state', 'make', 'model', 'car_color', 'body_type', 'valuation'])
      .where('agent_id', '=', agent)
      .execute();
    expect(scans).toHaveLength(6);
    for (const s of scans) {
      const res = await builtIn.as(builtInToken, {
        method: 'GET',
        url: `/api/scan/license-plates/fetch/${s.license_plate}?state=${s.location_state}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({
        number: s.license_plate,
        state: s.location_state,
        ag_response: { colour: s.car_color, make: s.make, model: s.model, vehicle: { body_type: s.body_type } },
        valuation_response: { price: Number(s.valuation) },
      });
    }
    const perState = await builtIn.db
      .selectFrom('registrations')
      .select(['state', (eb) => eb.fn.countAll<string>().as('n')])
      .groupBy('state')
      .execute();
    expect(perState).toHaveLength(8);
    expect(perState.every((r) => Number(r.n) >= 25)).toBe(true);
  });
});
