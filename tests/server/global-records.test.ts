import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../src/domain/permissions';
import { type Call, createTestContext, PASSWORD, type TestContext } from './helper';

/**
 * Records every agent and client shares (roles, permissions, settings, the e-mail header, footer and templates) and
 * the users a restricted user manager reaches: an Agent-scoped and a Client-scoped user holding every permission
 * change none of them (403, nothing changed); a Super Admin does.
 */
let t: TestContext;
let admin: string;
const restricted: Record<'agent' | 'client', { token: string; id: number }> = {} as never;
let agentId: number;
let clientId: number;

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  clientId = (await t.build.client()).id;
  agentId = (await t.build.agent({ default_client_id: clientId })).id;
  const all = [...PERMISSIONS];
  const agentUser = await t.build.user({ roles: ['Agent'], agents: [agentId], permissions: all });
  const clientUser = await t.build.user({ roles: ['Client'], clients: [clientId], permissions: all });
  restricted.agent = { token: await t.login(agentUser.email), id: agentUser.id };
  restricted.client = { token: await t.login(clientUser.email), id: clientUser.id };
});

/** Every table's rows, hashed: what a refused call must leave as it was. */
async function snapshot(tables: string[]) {
  const out: Record<string, string> = {};
  for (const name of tables) {
    const r = await sql<{ digest: string }>`select count(*) || ':' || coalesce(sum(hashtextextended(x::text, 0)::numeric), 0) as digest
      from ${sql.table(name)} x`.execute(t.db);
    out[name] = r.rows[0].digest;
  }
  return out;
}
const LABEL = { agent: 'an Agent-scoped', client: 'a Client-scoped' } as const;
const GLOBAL_TABLES = ['roles', 'role_permissions', 'permissions', 'options', 'email_templates'];
const USER_TABLES = ['users', 'user_roles', 'user_agents', 'user_clients', 'password_resets', 'mail_outbox'];

const id = async (table: 'roles' | 'permissions', name: string) =>
  (await t.db.selectFrom(table).select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
const optionId = async (name: string) =>
  (await t.db.selectFrom('options').select('id').where('option_name', '=', name).executeTakeFirstOrThrow()).id;

async function globalWrites(): Promise<Call[]> {
  const template = (await t.build.emailTemplate()).id;
  const role = (
    await t.db
      .insertInto('roles')
      .values({ name: `Spare ${Date.now()}` })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const permission = (
    await t.db
      .insertInto('permissions')
      .values({ name: `spare_${Date.now()}` })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  return [
    { method: 'PUT', url: `/api/user/roles/${await id('roles', 'Agent')}`, payload: { name: 'Agent', permissions: ['scan', 'user'] } },
    { method: 'POST', url: '/api/user/roles', payload: { name: 'Everything', permissions: ['scan'] } },
    { method: 'DELETE', url: `/api/user/roles/${role}` },
    { method: 'POST', url: '/api/user/permissions', payload: { name: 'made_up' } },
    { method: 'PUT', url: `/api/user/permissions/${permission}`, payload: { name: `spare_x`, display_name: 'Renamed' } },
    { method: 'DELETE', url: `/api/user/permissions/${permission}` },
    { method: 'PUT', url: `/api/user/options/${await optionId('GST_PERCENT')}`, payload: { option_value: '55' } },
    { method: 'PUT', url: `/api/user/options/${await optionId('UPLOAD_QUOTA_MB')}`, payload: { option_value: '0' } },
    {
      method: 'POST',
      url: '/api/user/options/bulksave',
      payload: [{ option_name: 'EMAIL_DEFAULT_HEADER', option_value: '<p><a href="https://phish.example">Log in</a></p>' }],
    },
    { method: 'POST', url: '/api/email/emailTemplates', payload: { templateName: 'Phish', templateBody: '<p>Hi</p>' } },
    { method: 'PUT', url: `/api/email/emailTemplates/${template}`, payload: { templateName: 'Phish again', templateBody: '<p>Hi</p>' } },
    { method: 'DELETE', url: `/api/email/emailTemplates/${template}` },
  ];
}

describe('global records', () => {
  for (const side of ['agent', 'client'] as const) {
    it(`refuses every write by ${LABEL[side]} user holding every permission (403, nothing changed)`, async () => {
      const calls = await globalWrites();
      const before = await snapshot(GLOBAL_TABLES);
      for (const call of calls) {
        const res = await t.as(restricted[side].token, call);
        expect(res.statusCode, `${call.method} ${call.url} ${res.body}`).toBe(403);
      }
      expect(await snapshot(GLOBAL_TABLES)).toEqual(before);
    });

    it(`still lets ${LABEL[side]} user read them`, async () => {
      for (const url of ['/api/user/roles', '/api/user/permissions', '/api/user/options', '/api/email/emailTemplates']) {
        const res = await t.as(restricted[side].token, { method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
      }
    });
  }

  it('lets a Super Admin make each of those writes', async () => {
    for (const call of await globalWrites()) {
      const res = await t.as(admin, call);
      expect(res.statusCode, `${call.method} ${call.url} ${res.body}`).toBeLessThan(300);
    }
    expect(
      (await t.db.selectFrom('options').select('option_value').where('option_name', '=', 'GST_PERCENT').executeTakeFirstOrThrow())
        .option_value,
    ).toBe('55');
  });
});

describe('restricted user managers', () => {
  /** A user within a restricted manager's own agents and clients: an Agent user on their agent, or a Client user on their client. */
  const own = (side: 'agent' | 'client') =>
    side === 'agent' ? { roles: ['Agent'], agents: [agentId], clients: [] } : { roles: ['Client'], agents: [], clients: [clientId] };
  const target = (side: 'agent' | 'client') => t.build.user(own(side));
  const body = (u: { email: string }, side: 'agent' | 'client', extra: Record<string, unknown> = {}) => ({
    first_name: 'Target',
    last_name: 'User',
    email: u.email,
    password: '',
    ...own(side),
    ...extra,
  });

  for (const side of ['agent', 'client'] as const) {
    it(`refuses ${LABEL[side]} manager another user's e-mail, a password, and their own roles (nothing changed)`, async () => {
      const u = await target(side);
      const me = await t.db.selectFrom('users').select('email').where('id', '=', restricted[side].id).executeTakeFirstOrThrow();
      const before = await snapshot(USER_TABLES);
      const email = await t.as(restricted[side].token, {
        method: 'PUT',
        url: `/api/user/users/${u.id}`,
        payload: body(u, side, { email: me.email.replace('@', '+taken@') }),
      });
      expect(email.statusCode, email.body).toBe(403);
      expect(email.json().error).toMatch(/e-mail/);
      const password = await t.as(restricted[side].token, {
        method: 'PUT',
        url: `/api/user/users/${u.id}`,
        payload: body(u, side, { password: 'brand-new-secret' }),
      });
      expect(password.statusCode).toBe(422);
      expect(Object.keys(password.json().error)).toEqual(['password']);
      const ownRoles = await t.as(restricted[side].token, {
        method: 'PUT',
        url: `/api/user/users/${restricted[side].id}`,
        payload: { ...body(me, side), roles: ['Agent', 'Client'] },
      });
      expect(ownRoles.statusCode).toBe(422);
      const superAdmin = await t.as(restricted[side].token, {
        method: 'POST',
        url: '/api/user/users',
        payload: { ...body({ email: `granted-${side}@example.test` }, side), password: PASSWORD, roles: ['Super Admin'] },
      });
      expect(superAdmin.statusCode).toBe(422);
      expect(await snapshot(USER_TABLES)).toEqual(before);
    });
  }

  it("lets a restricted manager edit a user's name, keeping the e-mail as stored, whatever its letters' case", async () => {
    const u = await target('agent');
    const res = await t.as(restricted.agent.token, {
      method: 'PUT',
      url: `/api/user/users/${u.id}`,
      payload: body(u, 'agent', { first_name: 'Renamed', email: u.email.toUpperCase() }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ first_name: 'Renamed', email: u.email });
    const stored = await t.db.selectFrom('users').select('email').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(stored.email).toBe(u.email);
  });

  it("lets a Super Admin change another user's e-mail and password", async () => {
    const u = await target('agent');
    const res = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/users/${u.id}`,
      payload: body(u, 'agent', { email: 'moved.by.admin@example.test', password: 'brand-new-secret' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.email).toBe('moved.by.admin@example.test');
  });
});
