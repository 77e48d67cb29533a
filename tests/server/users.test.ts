import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/lib/tokens';
import { findAccessByApiKeyHash } from '../../server/lib/access';
import { type Call, createTestContext, PASSWORD, type TestContext } from './helper';

let t: TestContext;
let admin: string;
let adminId: number;
beforeAll(async () => {
  t = await createTestContext();
  const root = await t.build.user({ roles: ['Super Admin'], email: 'users.root@example.test' });
  adminId = root.id;
  admin = await t.login(root.email);
});

const countUsers = async () =>
  (
    await t.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
const ids = (rows: { id?: number; value?: number | string }[]) => rows.map((r) => Number(r.id ?? r.value)).sort((a, b) => a - b);
const post = (token: string, payload: Record<string, unknown>) => t.as(token, { method: 'POST', url: '/api/user/users', payload });
const put = (token: string, id: number, payload: Record<string, unknown>) =>
  t.as(token, { method: 'PUT', url: `/api/user/users/${id}`, payload });
const newUser = (over: Record<string, unknown> = {}) => ({
  first_name: 'Nina',
  last_name: 'New',
  email: `nina.${Math.random().toString(36).slice(2)}@example.test`,
  roles: ['Super Admin'],
  password: 'a-good-password',
  ...over,
});

/** Every reply collected here is checked for hash values at the end. */
const replies: LightMyRequestResponse[] = [];
const keep = (r: LightMyRequestResponse) => (replies.push(r), r);

describe('permission', () => {
  it('answers 403 on every users route to a user without `user`, and changes nothing', async () => {
    const agent = (await t.build.agent()).id;
    const victim = await t.build.user({ roles: ['Agent'], agents: [agent] });
    const u = await t.build.user({ roles: ['Agent'], agents: [agent] });
    const token = await t.login(u.email);
    const before = await countUsers();
    const calls: Call[] = [
      { method: 'GET', url: '/api/user/users' },
      { method: 'GET', url: `/api/user/users/${victim.id}` },
      { method: 'POST', url: '/api/user/users', payload: newUser({ roles: ['Agent'], agents: [agent] }) },
      { method: 'PUT', url: `/api/user/users/${victim.id}`, payload: newUser({ roles: ['Agent'], agents: [agent] }) },
      { method: 'DELETE', url: `/api/user/users/${victim.id}` },
      { method: 'GET', url: `/api/user/users/${victim.id}/apikey` },
    ];
    for (const call of calls) {
      const res = await t.as(token, call);
      expect(res.statusCode, `${call.method} ${JSON.stringify(call.url)}`).toBe(403);
      expect(res.json()).toEqual({ error: 'This action is unauthorized.' });
    }
    expect(await countUsers()).toBe(before);
    const stored = await t.db.selectFrom('users').select(['email', 'api_key_hash']).where('id', '=', victim.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ email: victim.email, api_key_hash: null });
  });
});

describe('validation', () => {
  it('answers 422 with every required field and stores nothing', async () => {
    const before = await countUsers();
    const res = await post(admin, { first_name: ' ', roles: [] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: {
        first_name: 'First Name is required',
        last_name: 'Last Name is required',
        email: 'Email is required',
        roles: 'Roles is required',
        password: 'Password is required',
      },
    });
    expect(await countUsers()).toBe(before);
  });

  it('requires agents with the Agent role and clients with the Client role', async () => {
    const before = await countUsers();
    const agentRole = await post(admin, newUser({ roles: ['Agent'] }));
    expect(agentRole.statusCode).toBe(422);
    expect(agentRole.json()).toEqual({ error: { agents: 'Agents is required' } });
    const clientRole = await post(admin, newUser({ roles: ['client'], clients: [] }));
    expect(clientRole.json()).toEqual({ error: { clients: 'Clients is required' } });
    const both = await post(admin, newUser({ roles: ['Agent', 'Client'], agents: [], clients: [] }));
    expect(both.json()).toEqual({ error: { agents: 'Agents is required', clients: 'Clients is required' } });
    expect(await countUsers()).toBe(before);
  });

  it('checks the e-mail, the password length, and that roles, agents and clients exist', async () => {
    const before = await countUsers();
    expect((await post(admin, newUser({ email: 'not-an-email' }))).json()).toEqual({ error: { email: 'Enter a valid email address' } });
    expect((await post(admin, newUser({ password: 'short' }))).json()).toEqual({
      error: { password: 'Password must be at least 8 characters' },
    });
    expect((await post(admin, newUser({ roles: ['Janitor'] }))).json()).toEqual({ error: { roles: 'The selected roles is invalid' } });
    const missingAgent = await post(admin, newUser({ roles: ['Agent'], agents: [987654] }));
    expect(missingAgent.statusCode).toBe(422);
    expect(missingAgent.json()).toEqual({ error: { agents: 'The selected agents is invalid' } });
    expect((await post(admin, newUser({ roles: ['Client'], clients: [987654] }))).json()).toEqual({
      error: { clients: 'The selected clients is invalid' },
    });
    expect(await countUsers()).toBe(before);
  });

  it('refuses an e-mail already taken, whatever its case', async () => {
    await t.build.user({ email: 'taken.one@example.test' });
    const before = await countUsers();
    const res = await post(admin, newUser({ email: 'Taken.ONE@example.test' }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { email: 'Email has already been taken.' } });
    expect(await countUsers()).toBe(before);
    const other = await t.build.user();
    const onUpdate = await put(admin, other.id, newUser({ email: 'TAKEN.one@example.test' }));
    expect(onUpdate.json()).toEqual({ error: { email: 'Email has already been taken.' } });
  });
});

describe('create, read, page, search, update, delete', () => {
  it('keeps roles, agents and clients, hashes the password, and never sends a hash', async () => {
    const agent = (await t.build.agent()).id;
    const client = (await t.build.client()).id;
    const created = keep(
      await post(admin, {
        first_name: ' Olive ',
        last_name: 'Operator',
        email: 'olive.operator@example.test',
        roles: ['agent', 'Client'],
        agents: [agent],
        clients: [client],
        password: 'olive-password',
      }),
    );
    expect(created.statusCode).toBe(201);
    const user = created.json().data;
    expect(user).toEqual({
      id: expect.any(Number),
      first_name: 'Olive',
      last_name: 'Operator',
      email: 'olive.operator@example.test',
      roles: ['Agent', 'Client'],
      agents: [agent],
      clients: [client],
      has_api_key: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const stored = await t.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    // The new user signs in with the password given.
    const own = await t.login('olive.operator@example.test', 'olive-password');

    const one = keep(await t.as(admin, { method: 'GET', url: `/api/user/users/${user.id}` }));
    expect(one.json()).toEqual({ data: user });

    for (const q of ['olive', 'OPERATOR', 'Olive Operator', 'operator@example']) {
      const page = keep(await t.as(admin, { method: 'GET', url: `/api/user/users?page=1&per_page=10&q=${encodeURIComponent(q)}` }));
      expect(page.json(), q).toEqual({ items: [user], total: 1 });
    }

    // A blank password on edit leaves it unchanged (and keeps the user signed in).
    const edited = keep(
      await put(admin, user.id, {
        first_name: 'Olivia',
        last_name: 'Operator',
        email: 'olivia@example.test',
        roles: ['Agent', 'Client'],
        agents: [agent],
        clients: [client],
        password: '',
      }),
    );
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({ first_name: 'Olivia', email: 'olivia@example.test' });
    await t.login('olivia@example.test', 'olive-password');
    expect((await t.as(own, { method: 'GET', url: '/api/user/auth/user' })).statusCode).toBe(200);

    // A new password replaces it and signs the user out.
    const repassed = await put(admin, user.id, { ...edited.json().data, password: 'another-password' });
    expect(repassed.statusCode).toBe(200);
    await t.login('olivia@example.test', 'another-password');
    expect((await t.as(own, { method: 'GET', url: '/api/user/auth/user' })).statusCode).toBe(401);

    const deleted = keep(await t.as(admin, { method: 'DELETE', url: `/api/user/users/${user.id}` }));
    expect(deleted.statusCode).toBe(200);
    const gone = await t.as(admin, { method: 'GET', url: `/api/user/users/${user.id}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: `No query results for model [User] ${user.id}` });
    expect(await t.db.selectFrom('user_roles').select('role_id').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('refuses agents without the Agent role and clients without the Client role (422, nothing changed), and clears them with the role', async () => {
    const agent = (await t.build.agent()).id;
    const client = (await t.build.client()).id;
    const u = await t.build.user({ roles: ['Agent', 'Client'], agents: [agent], clients: [client] });
    const base = { first_name: 'Test', last_name: 'User', email: u.email };
    // Sent without the role they scope, agents and clients would be dropped unseen: a custom role carries no data scope.
    const stale = await put(admin, u.id, { ...base, roles: ['Client'], agents: [agent], clients: [client] });
    expect(stale.statusCode).toBe(422);
    expect(stale.json().error).toEqual({ agents: 'Agents apply only to a user with the Agent role' });
    const custom = await t.as(admin, {
      method: 'POST',
      url: '/api/user/users',
      payload: { ...base, email: 'scope.custom@example.test', password: 'long-enough-1', roles: ['Super Admin'], clients: [client] },
    });
    expect(custom.json().error).toEqual({ clients: 'Clients apply only to a user with the Client role' });
    expect(await t.db.selectFrom('user_agents').select('agent_id').where('user_id', '=', u.id).execute()).toEqual([{ agent_id: agent }]);
    // The form clears them with the role: the user keeps the other.
    const noAgent = await put(admin, u.id, { ...base, roles: ['Client'], agents: [], clients: [client] });
    expect(noAgent.statusCode).toBe(200);
    expect(noAgent.json().data).toMatchObject({ roles: ['Client'], agents: [], clients: [client] });
    const noClient = await put(admin, u.id, { ...base, roles: ['Agent'], agents: [agent], clients: [] });
    expect(noClient.json().data).toMatchObject({ roles: ['Agent'], agents: [agent], clients: [] });
    expect(await t.db.selectFrom('user_clients').select('client_id').where('user_id', '=', u.id).execute()).toEqual([]);
  });

  it('revokes the tokens of a deleted user', async () => {
    const u = await t.build.user({ permissions: ['scan'] });
    const token = await t.login(u.email);
    expect((await t.as(token, { method: 'GET', url: '/api/user/auth/user' })).statusCode).toBe(200);
    expect((await t.as(admin, { method: 'DELETE', url: `/api/user/users/${u.id}` })).statusCode).toBe(200);
    expect((await t.as(token, { method: 'GET', url: '/api/user/auth/user' })).statusCode).toBe(401);
    expect(await t.db.selectFrom('api_tokens').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
  });

  it("refuses to delete oneself (403) and to drop one's own Super Admin role (422)", async () => {
    const self = await t.as(admin, { method: 'DELETE', url: `/api/user/users/${adminId}` });
    expect(self.statusCode).toBe(403);
    expect(self.json()).toEqual({ error: 'You cannot delete your own account.' });
    const keyedSelf = await t.as(admin, { method: 'DELETE', url: `/api/user/users/${adminId}`, headers: { 'x-message-keys': '1' } });
    expect(keyedSelf.json()).toEqual({ error: 'You cannot delete your own account.', message: { key: 'app.errors.own_account' } });
    const demote = await put(admin, adminId, {
      first_name: 'Test',
      last_name: 'User',
      email: 'users.root@example.test',
      roles: ['Client'],
      clients: [(await t.build.client()).id],
    });
    expect(demote.statusCode).toBe(422);
    expect(demote.json()).toEqual({ error: { roles: 'You cannot remove the Super Admin role from yourself.' } });
    const me = await t.as(admin, { method: 'GET', url: `/api/user/users/${adminId}` });
    expect(me.json().data.roles).toEqual(['Super Admin']);
  });

  it('lists users for selects', async () => {
    const u = await t.build.user({ email: 'lists.me@example.test' });
    const lists = await t.as(admin, { method: 'GET', url: '/api/user/users/lists' });
    expect(lists.statusCode).toBe(200);
    expect(lists.json()).toContainEqual({ text: 'Test User', value: u.id });
  });
});

describe('the Super Admin role and users, for a non-Super-Admin', () => {
  let agent: number;
  let manager: string;
  beforeAll(async () => {
    agent = (await t.build.agent()).id;
    const m = await t.build.user({ roles: ['Agent'], agents: [agent], permissions: ['user'] });
    manager = await t.login(m.email);
  });

  it('cannot assign the Super Admin role (422 on roles) and stores nothing', async () => {
    const before = await countUsers();
    for (const roles of [
      ['Super Admin', 'Agent'],
      ['super admin', 'Agent'],
    ]) {
      const res = await post(manager, newUser({ roles, agents: [agent] }));
      expect(res.statusCode, roles.join()).toBe(422);
      expect(res.json()).toEqual({ error: { roles: 'Only a Super Admin may assign the Super Admin role.' } });
    }
    const plain = await t.build.user({ roles: ['Agent'], agents: [agent] });
    const promote = await put(manager, plain.id, {
      first_name: 'Test',
      last_name: 'User',
      email: plain.email,
      roles: ['Agent', 'Super Admin'],
      agents: [agent],
    });
    expect(promote.statusCode).toBe(422);
    expect(await countUsers()).toBe(before + 1);
    const roles = await t.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select('roles.name')
      .where('user_id', '=', plain.id)
      .execute();
    expect(roles).toEqual([{ name: 'Agent' }]);
  });

  it('cannot edit, delete or make a key for a Super Admin user (403)', async () => {
    const boss = await t.build.user({ roles: ['Super Admin', 'Agent'], agents: [agent] });
    // Visible (they share the agent), but out of reach.
    expect((await t.as(manager, { method: 'GET', url: `/api/user/users/${boss.id}` })).statusCode).toBe(200);
    const edit = await put(manager, boss.id, {
      first_name: 'Hacked',
      last_name: 'User',
      email: boss.email,
      roles: ['Agent'],
      agents: [agent],
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json()).toEqual({ error: 'Only a Super Admin may edit a Super Admin.' });
    const del = await t.as(manager, { method: 'DELETE', url: `/api/user/users/${boss.id}` });
    expect(del.statusCode).toBe(403);
    expect(del.json()).toEqual({ error: 'Only a Super Admin may delete a Super Admin.' });
    const keyedDel = await t.as(manager, { method: 'DELETE', url: `/api/user/users/${boss.id}`, headers: { 'x-message-keys': '1' } });
    expect(keyedDel.json()).toEqual({
      error: 'Only a Super Admin may delete a Super Admin.',
      message: { key: 'app.errors.super_admin_target.delete' },
    });
    expect((await t.as(manager, { method: 'GET', url: `/api/user/users/${boss.id}/apikey` })).statusCode).toBe(403);
    const stored = await t.db
      .selectFrom('users')
      .select(['first_name', 'api_key_hash'])
      .where('id', '=', boss.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ first_name: 'Test', api_key_hash: null });
  });
});

describe('scoping', () => {
  let a1: number;
  let a2: number;
  let c1: number;
  let c2: number;
  let inA1: number;
  let inA2: number;
  let inC1: number;
  let inC2: number;
  let agentManager: string;
  let agentManagerId: number;
  let clientManager: string;
  beforeAll(async () => {
    a1 = (await t.build.agent()).id;
    a2 = (await t.build.agent()).id;
    c1 = (await t.build.client()).id;
    c2 = (await t.build.client()).id;
    inA1 = (await t.build.user({ roles: ['Agent'], agents: [a1], email: 'scope.a1@example.test' })).id;
    inA2 = (await t.build.user({ roles: ['Agent'], agents: [a2], email: 'scope.a2@example.test' })).id;
    inC1 = (await t.build.user({ roles: ['Client'], clients: [c1], email: 'scope.c1@example.test' })).id;
    inC2 = (await t.build.user({ roles: ['Client'], clients: [c2], email: 'scope.c2@example.test' })).id;
    const am = await t.build.user({ roles: ['Agent'], agents: [a1], permissions: ['user'], email: 'scope.am@example.test' });
    agentManagerId = am.id;
    agentManager = await t.login(am.email);
    clientManager = await t.login(
      (await t.build.user({ roles: ['Client'], clients: [c1], permissions: ['user'], email: 'scope.cm@example.test' })).email,
    );
  });

  it('an Agent user sees only users sharing one of their agents; a Client user those sharing a client', async () => {
    const agentPage = await t.as(agentManager, { method: 'GET', url: '/api/user/users?q=scope.&per_page=100' });
    expect(ids(agentPage.json().items)).toEqual([inA1, agentManagerId]);
    expect(agentPage.json().total).toBe(2);
    const clientPage = await t.as(clientManager, { method: 'GET', url: '/api/user/users?q=scope.c&per_page=100' });
    expect(ids(clientPage.json().items)).toEqual(expect.arrayContaining([inC1]));
    expect(ids(clientPage.json().items)).not.toContain(inC2);
    const all = await t.as(admin, { method: 'GET', url: '/api/user/users?q=scope.&per_page=100' });
    expect(ids(all.json().items)).toEqual(expect.arrayContaining([inA1, inA2, inC1, inC2]));
    const lists = await t.as(agentManager, { method: 'GET', url: '/api/user/users/lists' });
    expect(ids(lists.json())).toEqual([inA1, agentManagerId]);
  });

  it("answers the model's 404 for a user outside the scope, on every route", async () => {
    for (const call of [
      { method: 'GET', url: `/api/user/users/${inA2}` },
      { method: 'PUT', url: `/api/user/users/${inA2}`, payload: newUser({ roles: ['Agent'], agents: [a1] }) },
      { method: 'DELETE', url: `/api/user/users/${inA2}` },
      { method: 'GET', url: `/api/user/users/${inA2}/apikey` },
    ] as Call[]) {
      const res = await t.as(agentManager, call);
      expect(res.statusCode, `${call.method} ${JSON.stringify(call.url)}`).toBe(404);
      expect(res.json()).toEqual({ error: `No query results for model [User] ${inA2}` });
    }
    expect((await t.as(clientManager, { method: 'GET', url: `/api/user/users/${inC2}` })).statusCode).toBe(404);
    const stored = await t.db.selectFrom('users').select('email').where('id', '=', inA2).executeTakeFirstOrThrow();
    expect(stored.email).toBe('scope.a2@example.test');
  });

  it('an Agent user creates users of their own agents only', async () => {
    const ok = await post(agentManager, newUser({ roles: ['Agent'], agents: [a1] }));
    expect(ok.statusCode).toBe(201);
    const before = await countUsers();
    const foreign = await post(agentManager, newUser({ roles: ['Agent'], agents: [a1, a2] }));
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json()).toEqual({ error: { agents: 'The selected agents is invalid' } });
    // A user outside their agents would leave their sight: refused, nothing stored.
    const outside = await post(agentManager, newUser({ roles: ['Client'], clients: [c1] }));
    expect(outside.statusCode).toBe(422);
    expect(await countUsers()).toBe(before);
  });

  it('refuses to edit a user who also holds an agent the editor does not (403), and a write moving the user out of sight', async () => {
    const shared = await t.build.user({ roles: ['Agent'], agents: [a1, a2] });
    const res = await put(agentManager, shared.id, {
      first_name: 'Shared',
      last_name: 'User',
      email: shared.email,
      roles: ['Agent'],
      agents: [a1],
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'You may not edit a user whose access exceeds yours.' });
    const mine = await t.build.user({ roles: ['Agent'], agents: [a1] });
    const away = await put(agentManager, mine.id, {
      first_name: 'Mine',
      last_name: 'User',
      email: mine.email,
      roles: ['Agent'],
      agents: [a2],
    });
    expect(away.statusCode).toBe(422);
    const stored = await t.db.selectFrom('user_agents').select('agent_id').where('user_id', '=', shared.id).orderBy('agent_id').execute();
    expect(stored.map((r) => r.agent_id)).toEqual([a1, a2]);
  });

  it('a Client user holding `user` cannot edit, delete or make a key for a user of their client who also holds an agent (403)', async () => {
    // The manager holds every permission the target does: only the agent is beyond them.
    const agentRole = await t.db
      .selectFrom('role_permissions')
      .innerJoin('roles', 'roles.id', 'role_permissions.role_id')
      .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
      .select('permissions.name')
      .where('roles.name', '=', 'Agent')
      .execute();
    const powerful = await t.build.user({ roles: ['Client'], clients: [c1], permissions: ['user', ...agentRole.map((r) => r.name)] });
    const manager = await t.login(powerful.email);
    const agentsUser = await t.build.user({ roles: ['Agent', 'Client'], agents: [a1], clients: [c1] });
    const edit = await put(manager, agentsUser.id, {
      first_name: 'Hijacked',
      last_name: 'User',
      email: agentsUser.email,
      roles: ['Client'],
      clients: [c1],
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json()).toEqual({ error: 'You may not edit a user whose access exceeds yours.' });
    const key = await t.as(manager, { method: 'GET', url: `/api/user/users/${agentsUser.id}/apikey` });
    expect(key.statusCode).toBe(403);
    const del = await t.as(manager, { method: 'DELETE', url: `/api/user/users/${agentsUser.id}` });
    expect(del.statusCode).toBe(403);
    const stored = await t.db
      .selectFrom('users')
      .select(['first_name', 'api_key_hash'])
      .where('id', '=', agentsUser.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ first_name: 'Test', api_key_hash: null });
    const agents = await t.db.selectFrom('user_agents').select('agent_id').where('user_id', '=', agentsUser.id).execute();
    expect(agents.map((r) => r.agent_id)).toEqual([a1]);
    // A user of the client alone stays the manager's to edit.
    const own = await put(manager, inC1, {
      first_name: 'Own',
      last_name: 'User',
      email: 'scope.c1@example.test',
      roles: ['Client'],
      clients: [c1],
    });
    expect(own.statusCode, own.body).toBe(200);
  });
});

describe('a non-Super-Admin holding `user` never grants or edits beyond their own access', () => {
  let a1: number;
  let a2: number;
  let c1: number;
  let manager: string;
  let managerId: number;
  let managerRole: string;
  const body = (u: { email: string }, over: Record<string, unknown> = {}) => ({
    first_name: 'Test',
    last_name: 'User',
    email: u.email,
    roles: ['Agent'],
    agents: [a1],
    ...over,
  });
  const storedUser = async (id: number) => {
    const row = await t.db
      .selectFrom('users')
      .select(['first_name', 'password_hash', 'api_key_hash'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const roles = await t.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select('roles.name')
      .where('user_id', '=', id)
      .orderBy('roles.name')
      .execute();
    return { ...row, roles: roles.map((r) => r.name) };
  };
  beforeAll(async () => {
    a1 = (await t.build.agent()).id;
    a2 = (await t.build.agent()).id;
    c1 = (await t.build.client()).id;
    const m = await t.build.user({ roles: ['Agent'], agents: [a1], permissions: ['user'] });
    managerId = m.id;
    manager = await t.login(m.email);
    managerRole = (await storedUser(m.id)).roles.find((r) => r !== 'Agent')!;
  });

  it('assigns only roles they hold (422 on roles), and is offered only roles whose permissions they all hold', async () => {
    const wide = await t.as(admin, {
      method: 'POST',
      url: '/api/user/roles',
      payload: { name: 'Catalogue Editor', permissions: ['product'] },
    });
    expect(wide.statusCode).toBe(201);
    const before = await countUsers();
    const res = await post(manager, newUser({ roles: ['Agent', 'Catalogue Editor'], agents: [a1] }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { roles: 'You may only assign roles you hold.' } });
    expect(await countUsers()).toBe(before);
    // A role within their permissions that they do not hold is not theirs to grant either; a user who has it keeps it.
    const viewer = await t.as(admin, { method: 'POST', url: '/api/user/roles', payload: { name: 'Scan Viewer', permissions: ['scan'] } });
    expect(viewer.statusCode).toBe(201);
    const granted = await post(manager, newUser({ roles: ['Agent', 'Scan Viewer'], agents: [a1] }));
    expect(granted.statusCode).toBe(422);
    expect(granted.json()).toEqual({ error: { roles: 'You may only assign roles you hold.' } });
    expect(await countUsers()).toBe(before);
    const holder = await t.build.user({ roles: ['Agent', 'Scan Viewer'], agents: [a1] });
    const kept = await put(manager, holder.id, body(holder, { roles: ['Agent', 'Scan Viewer'], first_name: 'Kept' }));
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await storedUser(holder.id)).roles).toEqual(['Agent', 'Scan Viewer']);
    const lists = (await t.as(manager, { method: 'GET', url: '/api/user/roles/lists' })).json<{ text: string }[]>();
    expect(lists.map((r) => r.text)).toEqual(expect.arrayContaining(['Agent', managerRole]));
    expect(lists.map((r) => r.text)).not.toContain('Catalogue Editor');
    // Their own role (`user` and nothing more) may be granted.
    expect((await post(manager, newUser({ roles: ['Agent', managerRole], agents: [a1] }))).statusCode).toBe(201);
  });

  it('never changes their own roles (422), while a name edit of their own goes through', async () => {
    const me = await storedUser(managerId);
    const self = await t.db.selectFrom('users').select('email').where('id', '=', managerId).executeTakeFirstOrThrow();
    for (const roles of [['Agent', managerRole, 'Client'], ['Agent']]) {
      const res = await put(manager, managerId, body(self, { roles, clients: [c1] }));
      expect(res.statusCode, roles.join()).toBe(422);
      expect(res.json().error.roles).toBe('You cannot change your own roles.');
    }
    expect((await storedUser(managerId)).roles).toEqual(me.roles);
    const rename = await put(manager, managerId, body(self, { roles: ['agent', managerRole], first_name: 'Manny' }));
    expect(rename.statusCode, rename.body).toBe(200);
  });

  it('cannot edit, delete or make an API key for a user with a wider access (403): another agent, or a permission', async () => {
    const twoAgents = await t.build.user({ roles: ['Agent'], agents: [a1, a2] });
    const morePower = await t.build.user({ roles: ['Agent'], agents: [a1], permissions: ['app_setting'] });
    // Seen through agent a1, but also holding a client the manager does not.
    const aClient = await t.build.user({ roles: ['Agent', 'Client'], agents: [a1], clients: [c1] });
    for (const target of [twoAgents, morePower, aClient]) {
      const takeover = await put(manager, target.id, body(target, { first_name: 'Owned', password: 'attacker-password' }));
      expect(takeover.statusCode).toBe(403);
      expect(takeover.json()).toEqual({ error: 'You may not edit a user whose access exceeds yours.' });
      const key = await t.as(manager, { method: 'GET', url: `/api/user/users/${target.id}/apikey` });
      expect(key.statusCode).toBe(403);
      expect(key.json()).toEqual({ error: 'You may not generate an API key for a user whose access exceeds yours.' });
      const keyedKey = await t.as(manager, {
        method: 'GET',
        url: `/api/user/users/${target.id}/apikey`,
        headers: { 'x-message-keys': '1' },
      });
      expect(keyedKey.json()).toEqual({
        error: 'You may not generate an API key for a user whose access exceeds yours.',
        message: { key: 'app.errors.access_exceeds.api_key' },
      });
      const del = await t.as(manager, { method: 'DELETE', url: `/api/user/users/${target.id}` });
      expect(del.statusCode).toBe(403);
      expect(del.json()).toEqual({ error: 'You may not delete a user whose access exceeds yours.' });
      const stored = await storedUser(target.id);
      expect(stored.first_name).toBe('Test');
      expect(stored.api_key_hash).toBeNull();
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { email: target.email, password: PASSWORD } }))
          .statusCode,
      ).toBe(200);
    }
  });

  it("never sets another user's password (422 on password); a Super Admin does, but not their own here", async () => {
    const peer = await t.build.user({ roles: ['Agent'], agents: [a1] });
    const res = await put(manager, peer.id, body(peer, { password: 'attacker-password' }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { password: "Only a Super Admin may set another user's password." } });
    const before = (await storedUser(peer.id)).password_hash;
    expect((await put(manager, peer.id, body(peer, { first_name: 'Peer' }))).statusCode).toBe(200);
    expect((await storedUser(peer.id)).password_hash).toBe(before);

    const bySuperAdmin = await put(admin, peer.id, body(peer, { password: 'set-by-the-admin' }));
    expect(bySuperAdmin.statusCode).toBe(200);
    expect((await storedUser(peer.id)).password_hash).not.toBe(before);
    const root = await t.db.selectFrom('users').select('email').where('id', '=', adminId).executeTakeFirstOrThrow();
    const own = await put(admin, adminId, { ...body(root, { roles: ['Super Admin'] }), password: 'my-new-password' });
    expect(own.statusCode).toBe(422);
    expect(own.json()).toEqual({ error: { password: 'Change your own password on the Update Profile page.' } });
  });

  it('gives no agents or clients beyond their own, nor roles that would see more data than they do (422)', async () => {
    const otherAgent = await post(manager, newUser({ roles: ['Agent'], agents: [a2] }));
    expect(otherAgent.statusCode).toBe(422);
    expect(otherAgent.json()).toEqual({ error: { agents: 'The selected agents is invalid' } });
    // A manager held to agent a1 and client c1: an Agent-only user would see every client's scans at a1.
    const both = await t.build.user({ roles: ['Agent', 'Client'], agents: [a1], clients: [c1], permissions: ['user'] });
    const token = await t.login(both.email);
    const agentOnly = await post(token, newUser({ roles: ['Agent'], agents: [a1] }));
    expect(agentOnly.statusCode).toBe(422);
    expect(agentOnly.json()).toEqual({ error: { roles: 'With these roles the user would see data you cannot see.' } });
    expect((await post(token, newUser({ roles: ['Agent', 'Client'], agents: [a1], clients: [c1] }))).statusCode).toBe(201);
  });
});

describe('API key', () => {
  it('is shown once, stored only as its SHA-256, and replaced by the next one', async () => {
    const u = await t.build.user({ roles: ['Agent'], agents: [(await t.build.agent()).id] });
    const first = keep(await t.as(admin, { method: 'GET', url: `/api/user/users/${u.id}/apikey` }));
    expect(first.statusCode).toBe(200);
    const key1 = first.json().data.token as string;
    expect(first.json()).toEqual({ data: { token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) } });
    const row1 = await t.db.selectFrom('users').select('api_key_hash').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row1.api_key_hash).toBe(hashToken(key1));
    expect(row1.api_key_hash).not.toContain(key1);
    expect((await findAccessByApiKeyHash(t.db, hashToken(key1)))?.id).toBe(u.id);

    // The record says a key exists, never what it is.
    const shown = keep(await t.as(admin, { method: 'GET', url: `/api/user/users/${u.id}` }));
    expect(shown.json().data.has_api_key).toBe(true);
    expect(shown.body).not.toContain(key1);

    const second = keep(await t.as(admin, { method: 'GET', url: `/api/user/users/${u.id}/apikey` }));
    const key2 = second.json().data.token as string;
    expect(key2).not.toBe(key1);
    const row2 = await t.db.selectFrom('users').select('api_key_hash').where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row2.api_key_hash).toBe(hashToken(key2));
    // The previous key no longer names anyone.
    expect(await findAccessByApiKeyHash(t.db, hashToken(key1))).toBeNull();
    // Raw keys are stored nowhere.
    const everywhere = await t.db.selectFrom('users').select('api_key_hash').execute();
    expect(everywhere.some((r) => r.api_key_hash === key1 || r.api_key_hash === key2)).toBe(false);

    const audit = await t.db.selectFrom('audit_log').select(['action', 'actor_id', 'subject_id']).where('subject_id', '=', u.id).execute();
    expect(audit).toEqual([
      { action: 'user.apikey', actor_id: adminId, subject_id: u.id },
      { action: 'user.apikey', actor_id: adminId, subject_id: u.id },
    ]);
  });

  it("answers the model's 404 for an unknown user", async () => {
    for (const id of ['987654', 'abc']) {
      const res = await t.as(admin, { method: 'GET', url: `/api/user/users/${id}/apikey` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: `No query results for model [User] ${id}` });
    }
  });
});

describe('secrets', () => {
  it('no reply carries a password or key hash', async () => {
    const rows = await t.db.selectFrom('users').select(['password_hash', 'api_key_hash']).execute();
    const secrets = rows.flatMap((r) => [r.password_hash, r.api_key_hash]).filter((s): s is string => !!s);
    expect(secrets.some((s) => s.startsWith('$argon2'))).toBe(true);
    const page = keep(await t.as(admin, { method: 'GET', url: '/api/user/users?per_page=100' }));
    expect(page.json().total).toBeGreaterThan(5);
    keep(await t.as(admin, { method: 'GET', url: '/api/user/users/lists' }));
    expect(replies.length).toBeGreaterThan(8);
    for (const r of replies) {
      for (const s of [...secrets, 'password_hash', 'api_key_hash', '$argon2', PASSWORD]) {
        expect(r.body.includes(s), `${r.raw.req.method} ${r.raw.req.url} contains ${s.slice(0, 12)}`).toBe(false);
      }
    }
  });
});
