import { beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../src/domain/permissions';
import { type Call, createTestContext, type TestContext } from './helper';

let t: TestContext;
let admin: string;
let superAdminRoleId: number;
let agentRoleId: number;
beforeAll(async () => {
  t = await createTestContext();
  admin = await t.login((await t.build.user({ roles: ['Super Admin'] })).email);
  superAdminRoleId = (await t.db.selectFrom('roles').select('id').where('name', '=', 'Super Admin').executeTakeFirstOrThrow()).id;
  agentRoleId = (await t.db.selectFrom('roles').select('id').where('name', '=', 'Agent').executeTakeFirstOrThrow()).id;
});

const count = async (table: 'roles' | 'permissions') =>
  (
    await t.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;
const roleNames = (rows: { name?: string; text?: string }[]) => rows.map((r) => r.name ?? r.text);
const permissionsOf = async (roleId: number) =>
  (
    await t.db
      .selectFrom('role_permissions')
      .innerJoin('permissions', 'permissions.id', 'role_permissions.permission_id')
      .select('permissions.name')
      .where('role_id', '=', roleId)
      .orderBy('permissions.name')
      .execute()
  ).map((r) => r.name);

describe('permission', () => {
  it('answers 403 on every roles route to a user without `role`, and on every permissions route without `permission`', async () => {
    const token = await t.login((await t.build.user({ permissions: ['user', 'permission'] })).email);
    const perm = await t.db.selectFrom('permissions').select('id').where('name', '=', 'scan').executeTakeFirstOrThrow();
    const beforeRoles = await count('roles');
    const roleCalls: Call[] = [
      { method: 'GET', url: '/api/user/roles' },
      { method: 'GET', url: `/api/user/roles/${agentRoleId}` },
      { method: 'POST', url: '/api/user/roles', payload: { name: 'Sneaky', permissions: ['scan'] } },
      { method: 'PUT', url: `/api/user/roles/${agentRoleId}`, payload: { name: 'Agent', permissions: ['scan', 'user'] } },
      { method: 'DELETE', url: `/api/user/roles/${agentRoleId}` },
    ];
    for (const call of roleCalls) {
      const res = await t.as(token, call);
      expect(res.statusCode, `${call.method} ${JSON.stringify(call.url)}`).toBe(403);
      expect(res.json()).toEqual({ error: 'This action is unauthorized.' });
    }
    expect(await count('roles')).toBe(beforeRoles);
    expect(await permissionsOf(agentRoleId)).toEqual(['dashboard_statistics', 'device', 'location', 'quote_edit', 'scan', 'scan_edit']);

    const noPermission = await t.login((await t.build.user({ permissions: ['user', 'role'] })).email);
    const beforePerms = await count('permissions');
    const permissionCalls: Call[] = [
      { method: 'GET', url: '/api/user/permissions' },
      { method: 'GET', url: `/api/user/permissions/${perm.id}` },
      { method: 'POST', url: '/api/user/permissions', payload: { name: 'sneaky' } },
      { method: 'PUT', url: `/api/user/permissions/${perm.id}`, payload: { name: 'scan', display_name: 'Hijacked' } },
      { method: 'DELETE', url: `/api/user/permissions/${perm.id}` },
    ];
    for (const call of permissionCalls) {
      const res = await t.as(noPermission, call);
      expect(res.statusCode, `${call.method} ${JSON.stringify(call.url)}`).toBe(403);
    }
    expect(await count('permissions')).toBe(beforePerms);
    const scan = await t.db.selectFrom('permissions').select('display_name').where('name', '=', 'scan').executeTakeFirstOrThrow();
    expect(scan.display_name).toBe('Scans');
  });
});

describe('roles', () => {
  it('answers 422 with the required fields and stores nothing', async () => {
    const before = await count('roles');
    const res = await t.as(admin, { method: 'POST', url: '/api/user/roles', payload: { name: '  ', permissions: [] } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: { name: 'Name is required', permissions: 'Permissions is required' } });
    const unknown = await t.as(admin, { method: 'POST', url: '/api/user/roles', payload: { name: 'Odd', permissions: ['scan', 'fly'] } });
    expect(unknown.json()).toEqual({ error: { permissions: 'The selected permissions is invalid' } });
    expect(await count('roles')).toBe(before);
  });

  it('creates, reads, pages, searches, updates and deletes, with permissions by name', async () => {
    const created = await t.as(admin, {
      method: 'POST',
      url: '/api/user/roles',
      payload: { name: 'Assessor', display_name: 'Assessor', description: 'Checks quotes', permissions: ['scan', 'client', 'scan'] },
    });
    expect(created.statusCode).toBe(201);
    const role = created.json().data;
    expect(role).toEqual({
      id: expect.any(Number),
      name: 'Assessor',
      display_name: 'Assessor',
      description: 'Checks quotes',
      permissions: ['client', 'scan'],
      users_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await t.as(admin, { method: 'GET', url: `/api/user/roles/${role.id}` })).json()).toEqual({ data: role });
    expect((await t.as(admin, { method: 'GET', url: '/api/user/roles?q=assess&page=1&per_page=10' })).json()).toEqual({
      items: [role],
      total: 1,
    });

    const updated = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/roles/${role.id}`,
      // The form sends the record back as it read it: the count is the server's own and is not taken from the body.
      payload: { name: 'Senior Assessor', permissions: ['scan', 'product'], users_count: 99 },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ name: 'Senior Assessor', permissions: ['product', 'scan'], users_count: 0 });
    expect(await permissionsOf(role.id)).toEqual(['product', 'scan']);

    // A user holding the role gets its permissions.
    const holder = await t.build.user({ roles: ['Senior Assessor'] });
    const me = await t.as(await t.login(holder.email), { method: 'GET', url: '/api/user/auth/user' });
    expect(me.json().data.permissions.sort()).toEqual(['product', 'scan']);
    // The record counts its holders, so the delete dialog can say who loses it.
    const held = await t.as(admin, { method: 'GET', url: `/api/user/roles?q=senior&page=1&per_page=10` });
    expect(held.json().items.map((r: { users_count: number }) => r.users_count)).toEqual([1]);
    expect((await t.as(admin, { method: 'GET', url: `/api/user/roles/${role.id}` })).json().data.users_count).toBe(1);

    const deleted = await t.as(admin, { method: 'DELETE', url: `/api/user/roles/${role.id}` });
    expect(deleted.statusCode).toBe(200);
    const gone = await t.as(admin, { method: 'GET', url: `/api/user/roles/${role.id}` });
    expect(gone.json()).toEqual({ error: `No query results for model [Role] ${role.id}` });
  });

  it('refuses a name already taken, whatever its case and spacing, also when sent several times at once', async () => {
    const before = await count('roles');
    for (const name of ['AGENT', ' Super  Admin ']) {
      const res = await t.as(admin, { method: 'POST', url: '/api/user/roles', payload: { name, permissions: ['scan'] } });
      expect(res.statusCode, name).toBe(422);
      expect(res.json()).toEqual({ error: { name: 'Name has already been taken.' } });
    }
    expect(await count('roles')).toBe(before);
    const names = ['Race Viewer', 'Race  Viewer', 'race viewer', ' Race Viewer', 'RACE VIEWER', 'Race   viewer'];
    const replies = await Promise.all(
      names.map((name) => t.as(admin, { method: 'POST', url: '/api/user/roles', payload: { name, permissions: ['scan'] } })),
    );
    expect(replies.map((r) => r.statusCode).sort()).toEqual([201, 422, 422, 422, 422, 422]);
    expect(await count('roles')).toBe(before + 1);
  });

  it('sends the message keys beside the texts to a client asking for them', async () => {
    const headers = { 'x-message-keys': '1' };
    const taken = await t.as(admin, { method: 'POST', url: '/api/user/roles', headers, payload: { name: 'AGENT', permissions: ['scan'] } });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toEqual({
      error: { name: 'Name has already been taken.' },
      messages: { name: { key: 'app.validation.taken' } },
    });
    // From the route's zod schema (the field DSL), with parameters.
    const long = await t.as(admin, {
      method: 'POST',
      url: '/api/user/roles',
      headers,
      payload: { name: 'x'.repeat(300), permissions: [] },
    });
    expect(long.json()).toEqual({
      error: { name: 'Name must be less than 100', permissions: 'Permissions is required' },
      messages: { name: { key: 'app.validation.max', params: { max: 100 } }, permissions: { key: 'app.validation.required' } },
    });
  });

  it('lists role names as the choices of the user form', async () => {
    const lists = await t.as(admin, { method: 'GET', url: '/api/user/roles/lists' });
    expect(lists.statusCode).toBe(200);
    expect(lists.json()).toEqual(
      expect.arrayContaining([
        { text: 'Super Admin', value: 'Super Admin' },
        { text: 'Agent', value: 'Agent' },
        { text: 'Client', value: 'Client' },
      ]),
    );
  });

  it('never deletes or renames the Super Admin role, nor takes a permission from it', async () => {
    const del = await t.as(admin, { method: 'DELETE', url: `/api/user/roles/${superAdminRoleId}` });
    expect(del.statusCode).toBe(403);
    expect(del.json()).toEqual({ error: 'The Super Admin role cannot be deleted.' });
    // A screen asking for message keys gets the refusal's, to say it in its language.
    const keyedDel = await t.as(admin, {
      method: 'DELETE',
      url: `/api/user/roles/${superAdminRoleId}`,
      headers: { 'x-message-keys': '1' },
    });
    expect(keyedDel.json()).toEqual({
      error: 'The Super Admin role cannot be deleted.',
      message: { key: 'app.errors.built_in_role', params: { name: 'Super Admin' } },
    });
    const rename = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/roles/${superAdminRoleId}`,
      payload: { name: 'Boss', permissions: [...PERMISSIONS] },
    });
    expect(rename.statusCode).toBe(422);
    expect(rename.json()).toEqual({ error: { name: 'The Super Admin role cannot be renamed.' } });
    const strip = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/roles/${superAdminRoleId}`,
      payload: { name: 'Super Admin', permissions: ['scan'] },
    });
    expect(strip.statusCode).toBe(422);
    expect(strip.json()).toEqual({ error: { permissions: 'The Super Admin role holds every permission.' } });
    // Rules only the server checks carry their keys too, so a Japanese screen shows them in Japanese.
    const keyed = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/roles/${superAdminRoleId}`,
      headers: { 'x-message-keys': '1' },
      payload: { name: 'Boss', permissions: [...PERMISSIONS] },
    });
    expect(keyed.json()).toEqual({
      error: { name: 'The Super Admin role cannot be renamed.' },
      messages: { name: { key: 'app.validation.fixed_role_name', params: { name: 'Super Admin' } } },
    });
    const all = (await t.db.selectFrom('permissions').select('name').execute()).map((p) => p.name);
    const describe = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/roles/${superAdminRoleId}`,
      payload: { name: 'Super Admin', description: 'Everything', permissions: all },
    });
    expect(describe.statusCode).toBe(200);
    const stored = await t.db
      .selectFrom('roles')
      .select(['name', 'description'])
      .where('id', '=', superAdminRoleId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'Super Admin', description: 'Everything' });
    expect((await permissionsOf(superAdminRoleId)).length).toBe(all.length);
  });

  it('keeps the Agent and Client roles, which the data scope keys on', async () => {
    const del = await t.as(admin, { method: 'DELETE', url: `/api/user/roles/${agentRoleId}` });
    expect(del.statusCode).toBe(403);
    const rename = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/roles/${agentRoleId}`,
      payload: { name: 'Reseller', permissions: ['scan'] },
    });
    expect(rename.statusCode).toBe(422);
    expect(rename.json()).toEqual({ error: { name: 'The Agent role cannot be renamed.' } });
    expect((await t.db.selectFrom('roles').select('name').where('id', '=', agentRoleId).executeTakeFirstOrThrow()).name).toBe('Agent');
  });

  describe('for a non-Super-Admin holding `role`', () => {
    let token: string;
    beforeAll(async () => {
      const agent = (await t.build.agent()).id;
      token = await t.login((await t.build.user({ roles: ['Agent'], agents: [agent], permissions: ['role', 'user'] })).email);
    });

    it('hides the Super Admin role from the lists and the page, and shows the other roles (roles are global)', async () => {
      const lists = await t.as(token, { method: 'GET', url: '/api/user/roles/lists' });
      expect(lists.statusCode).toBe(200);
      expect(roleNames(lists.json())).toEqual(expect.arrayContaining(['Agent', 'Client']));
      expect(roleNames(lists.json())).not.toContain('Super Admin');
      const page = await t.as(token, { method: 'GET', url: '/api/user/roles?per_page=100' });
      expect(roleNames(page.json().items)).toEqual(expect.arrayContaining(['Agent', 'Client']));
      expect(roleNames(page.json().items)).not.toContain('Super Admin');
      expect(page.json().total).toBe(page.json().items.length);
      const search = await t.as(token, { method: 'GET', url: '/api/user/roles?q=super' });
      expect(search.json()).toEqual({ items: [], total: 0 });
    });

    it("answers the model's 404 for the Super Admin role", async () => {
      const res = await t.as(token, { method: 'GET', url: `/api/user/roles/${superAdminRoleId}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: `No query results for model [Role] ${superAdminRoleId}` });
    });

    it('creates, changes and deletes no role, not even one holding only what they hold (403, nothing changed)', async () => {
      const before = await count('roles');
      const agentRole = (await t.db.selectFrom('roles').select('id').where('name', '=', 'Agent').executeTakeFirstOrThrow()).id;
      const held = await permissionsOf(agentRole);
      for (const call of [
        { method: 'POST', url: '/api/user/roles', payload: { name: 'Scanner Admin', permissions: ['scan', 'user'] } },
        { method: 'PUT', url: `/api/user/roles/${agentRole}`, payload: { name: 'Agent', permissions: ['scan', 'user'] } },
        { method: 'PUT', url: `/api/user/roles/${superAdminRoleId}`, payload: { name: 'Super Admin', permissions: ['scan'] } },
        { method: 'DELETE', url: `/api/user/roles/${agentRole}` },
      ] as Call[]) {
        const res = await t.as(token, call);
        expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      }
      expect(await count('roles')).toBe(before);
      expect(await permissionsOf(agentRole)).toEqual(held);
      expect((await permissionsOf(superAdminRoleId)).length).toBe(await count('permissions'));
    });
  });
});

describe('permissions', () => {
  it('answers 422 with the required field and a malformed name, storing nothing', async () => {
    const before = await count('permissions');
    expect((await t.as(admin, { method: 'POST', url: '/api/user/permissions', payload: {} })).json()).toEqual({
      error: { name: 'Name is required' },
    });
    for (const name of ['Bad Name', 'UPPER', '9lives', 'dash-ed']) {
      const res = await t.as(admin, { method: 'POST', url: '/api/user/permissions', payload: { name } });
      expect(res.statusCode, name).toBe(422);
      expect(res.json()).toEqual({
        error: { name: 'Name may only contain lower-case letters, digits and underscores, starting with a letter' },
      });
    }
    const dup = await t.as(admin, { method: 'POST', url: '/api/user/permissions', payload: { name: 'scan' } });
    expect(dup.json()).toEqual({ error: { name: 'Name has already been taken.' } });
    expect(await count('permissions')).toBe(before);
  });

  it('creates (granting it to Super Admin), reads, pages, searches, updates and deletes', async () => {
    const created = await t.as(admin, {
      method: 'POST',
      url: '/api/user/permissions',
      payload: { name: 'invoice_export', display_name: 'Invoice Export', description: 'Export invoices' },
    });
    expect(created.statusCode).toBe(201);
    const perm = created.json().data;
    expect(perm).toEqual({
      id: expect.any(Number),
      name: 'invoice_export',
      display_name: 'Invoice Export',
      description: 'Export invoices',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await permissionsOf(superAdminRoleId)).toContain('invoice_export');
    expect((await t.as(admin, { method: 'GET', url: `/api/user/permissions/${perm.id}` })).json()).toEqual({ data: perm });
    expect((await t.as(admin, { method: 'GET', url: '/api/user/permissions?q=invoice' })).json()).toEqual({ items: [perm], total: 1 });
    const lists = await t.as(admin, { method: 'GET', url: '/api/user/permissions/lists' });
    expect(lists.json()).toContainEqual({ text: 'invoice_export', value: 'invoice_export' });

    const updated = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/permissions/${perm.id}`,
      payload: { name: 'invoice_exports', display_name: 'Invoice Exports' },
    });
    expect(updated.json().data).toMatchObject({ name: 'invoice_exports', display_name: 'Invoice Exports', description: 'Export invoices' });
    const cleared = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/permissions/${perm.id}`,
      payload: { name: 'invoice_exports', display_name: 'Invoice Exports', description: '' },
    });
    expect(cleared.json().data.description).toBeNull();

    const deleted = await t.as(admin, { method: 'DELETE', url: `/api/user/permissions/${perm.id}` });
    expect(deleted.statusCode).toBe(200);
    const gone = await t.as(admin, { method: 'GET', url: `/api/user/permissions/${perm.id}` });
    expect(gone.json()).toEqual({ error: `No query results for model [Permission] ${perm.id}` });
    expect(await permissionsOf(superAdminRoleId)).not.toContain('invoice_exports');
  });

  it("keeps the product's permission names, which the routes check", async () => {
    const scan = await t.db.selectFrom('permissions').select('id').where('name', '=', 'scan').executeTakeFirstOrThrow();
    const rename = await t.as(admin, { method: 'PUT', url: `/api/user/permissions/${scan.id}`, payload: { name: 'scans' } });
    expect(rename.statusCode).toBe(422);
    expect(rename.json()).toEqual({ error: { name: 'The scan permission cannot be renamed.' } });
    const relabel = await t.as(admin, {
      method: 'PUT',
      url: `/api/user/permissions/${scan.id}`,
      payload: { name: 'scan', display_name: 'Scans and quotes' },
    });
    expect(relabel.statusCode).toBe(200);
    const del = await t.as(admin, { method: 'DELETE', url: `/api/user/permissions/${scan.id}` });
    expect(del.statusCode).toBe(403);
    expect(del.json()).toEqual({ error: 'The scan permission cannot be deleted.' });
    const keyedDel = await t.as(admin, { method: 'DELETE', url: `/api/user/permissions/${scan.id}`, headers: { 'x-message-keys': '1' } });
    expect(keyedDel.json()).toEqual({
      error: 'The scan permission cannot be deleted.',
      message: { key: 'app.errors.built_in_permission', params: { name: 'scan' } },
    });
    expect(await t.db.selectFrom('permissions').select('name').where('id', '=', scan.id).executeTakeFirstOrThrow()).toEqual({
      name: 'scan',
    });
  });
});
