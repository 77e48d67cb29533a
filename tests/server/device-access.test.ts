import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { authPlugin } from '../../server/plugins/auth';
import { databasePlugin } from '../../server/plugins/database';
import { errorsPlugin } from '../../server/plugins/errors';
import { createTestContext, type TestContext } from './helper';

/**
 * 'device' is an access kind the auth plugin enforces like the others: any route declaring it gets the API
 * key checked (Bearer or X-Api-Key, never a sign-in token) and the key's user and scope on the request, with no
 * per-route hook. Proved on a bare app holding only the plugins and one probe route.
 */
let t: TestContext;
let probe: FastifyInstance;
let key: string;
let token: string;
let user: { id: number; email: string };
let agents: number[];

beforeAll(async () => {
  t = await createTestContext();
  const admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  const client = await t.build.client({ name: 'Probe client' });
  const a1 = await t.build.agent({ name: 'Probe agent 1', default_client_id: client.id });
  const a2 = await t.build.agent({ name: 'Probe agent 2', default_client_id: client.id });
  agents = [a1.id, a2.id].sort((x, y) => x - y);
  user = await t.build.user({ roles: ['Agent'], agents });
  token = await t.login(user.email);
  const res = await t.as(admin, { method: 'GET', url: `/api/user/users/${user.id}/apikey` });
  expect(res.statusCode, res.body).toBe(200);
  key = res.json().data.token;

  probe = Fastify();
  await probe.register(errorsPlugin);
  await probe.register(databasePlugin, { db: t.db });
  await probe.register(authPlugin);
  probe.get('/api/probe', { config: { access: 'device' } }, (req: FastifyRequest) => Promise.resolve({ user: req.user, scope: req.scope }));
  await probe.ready();
  return () => probe.close();
});

const call = (headers: Record<string, string>) => probe.inject({ method: 'GET', url: '/api/probe', headers });

it('refuses a device route without a key, with an unknown key, and with a sign-in token (401), before the handler', async () => {
  const cases: Record<string, string>[] = [
    {},
    { authorization: 'Bearer nope' },
    { 'x-api-key': 'nope' },
    { authorization: `Bearer ${token}` },
  ];
  for (const headers of cases) {
    const res = await call(headers);
    expect(res.statusCode, JSON.stringify(headers)).toBe(401);
  }
});

it('takes the API key as a bearer token or X-Api-Key and puts its user and own scope on the request', async () => {
  const ways: Record<string, string>[] = [{ authorization: `Bearer ${key}` }, { 'x-api-key': key }];
  for (const headers of ways) {
    // The selection headers do not narrow a device's scope.
    const res = await call({ ...headers, x_sng_agents: String(agents[0]) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ id: user.id, agents, roles: ['Agent'], tokenId: null, impersonatorId: null });
    expect(body.scope).toEqual({ agents, clients: null });
  }
});
