import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRequest } from '../dataProvider/http';
import {
  getCurrentUser,
  getImpersonatedUser,
  getLastSeenPage,
  getSelectedAgent,
  getSelectedClient,
  setAgentBranding,
  setCurrentUser,
  setImpersonatedUser,
  setSelectedAgent,
  setSelectedClient,
  onSessionEnd,
} from '../session';
import { aUser } from '../test/builders';
import { callOf, stubFetch } from '../test/stubFetch';
import { createAuthProvider, TOKEN_EXPIRED } from './authProvider';
import { DEFINITIONS } from '../resources/definitions';
import { accessRulesOf } from './resourceAccess';

const resourceAccess = accessRulesOf(async (name) => DEFINITIONS.find((d) => d.name === name));

const authProvider = () => createAuthProvider({ request: createRequest('/api'), access: resourceAccess });

beforeEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});
afterEach(() => vi.unstubAllGlobals());

describe('login', () => {
  it('posts the credentials without a token, stores the user under currentUser and leaves where to go to react-admin', async () => {
    const user = aUser();
    const fetch = stubFetch({ body: { data: user } });
    await expect(authProvider().login({ email: 'ada@example.com', password: 'pw' })).resolves.toEqual({});
    expect(callOf(fetch)).toMatchObject({
      url: '/api/user/auth/login',
      method: 'POST',
      body: { email: 'ada@example.com', password: 'pw' },
    });
    expect(callOf(fetch).headers.has('Authorization')).toBe(false);
    expect(JSON.parse(localStorage.getItem('currentUser') ?? 'null')).toEqual(user);
  });

  it("starts another user from no header selection or branding, and keeps the same user's", async () => {
    const ada = aUser({ id: 4 });
    const bo = aUser({ id: 5 });
    const branding = { id: 7, name: 'Harbour', primaryColor: '#123456', textColor: '#ffffff', logo: null };
    const signIn = async (user: typeof ada) => {
      stubFetch({ body: { data: user } });
      await authProvider().login({ email: user.email, password: 'pw' });
    };
    await signIn(ada);
    setSelectedAgent(7);
    setSelectedClient([2, 3]);
    setAgentBranding(branding);
    await authProvider().logout({});
    await signIn(ada);
    expect([getSelectedAgent(), getSelectedClient(), localStorage.getItem('selectedAgentDetails')]).toEqual([
      7,
      [2, 3],
      JSON.stringify(branding),
    ]);
    await authProvider().logout({});
    await signIn(bo);
    expect([getSelectedAgent(), getSelectedClient(), localStorage.getItem('selectedAgentDetails')]).toEqual([null, null, null]);
  });

  it('rejects with the server message and stores nothing on bad credentials', async () => {
    stubFetch({ status: 422, body: { error: { email: 'These credentials do not match our records.' } } });
    await expect(authProvider().login({ email: 'ada@example.com', password: 'nope' })).rejects.toThrow(
      'These credentials do not match our records.',
    );
    expect(localStorage.getItem('currentUser')).toBeNull();
  });
});

describe('logout', () => {
  it('stores the current path, clears the user and the impersonation marker, and tells the server', async () => {
    setCurrentUser(aUser({ token: 'old-token' }));
    setImpersonatedUser(1);
    window.history.replaceState(null, '', '/locations/4');
    const fetch = stubFetch({ body: { data: { message: 'Logged out' } } });
    await authProvider().logout({});
    expect(getLastSeenPage()).toBe('/locations/4');
    expect(getCurrentUser()).toBeNull();
    expect(getImpersonatedUser()).toBeNull();
    expect(callOf(fetch)).toMatchObject({ url: '/api/user/auth/logout', method: 'POST' });
    expect(callOf(fetch).headers.get('Authorization')).toBe('Bearer old-token');
  });

  it('still signs out locally when the server cannot be reached', async () => {
    setCurrentUser(aUser());
    stubFetch(new TypeError('Failed to fetch'));
    await expect(authProvider().logout({})).resolves.toBeUndefined();
    expect(getCurrentUser()).toBeNull();
  });
});

describe('checkAuth and checkError', () => {
  it('passes only with a stored user', async () => {
    await expect(authProvider().checkAuth({})).rejects.toBeDefined();
    setCurrentUser(aUser());
    await expect(authProvider().checkAuth({})).resolves.toBeUndefined();
  });

  it('ends the session on 401 without rejecting, so react-admin hands the refusal back to the caller', async () => {
    const ended = vi.fn();
    const stop = onSessionEnd(ended);
    try {
      // A rejection here would make react-admin log out and resolve the refused call as an empty success.
      await expect(authProvider().checkError({ status: 401, message: TOKEN_EXPIRED })).resolves.toBeUndefined();
      expect(ended).toHaveBeenCalledTimes(1);
      await authProvider().checkError({ status: 403, message: 'This action is unauthorized.' });
      expect(ended).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });

  it('does not log out on 403 or other failures', async () => {
    await expect(authProvider().checkError({ status: 403, message: 'This action is unauthorized.' })).resolves.toBeUndefined();
    await expect(authProvider().checkError({ status: 500, message: 'app.error.server' })).resolves.toBeUndefined();
  });
});

describe('getIdentity', () => {
  it('gives id and full name', async () => {
    setCurrentUser(aUser({ id: 9, name: '', first_name: 'Grace', last_name: 'Hopper' }));
    await expect(authProvider().getIdentity?.()).resolves.toEqual({ id: 9, fullName: 'Grace Hopper', avatar: undefined });
  });
});

describe('canAccess', () => {
  const canAccess = (resource: string, action: string) => authProvider().canAccess?.({ resource, action });

  it("maps react-admin resources to the product's permission names", async () => {
    setCurrentUser(aUser({ permissions: ['location'] }));
    expect(await canAccess('locations', 'list')).toBe(true);
    expect(await canAccess('locations', 'delete')).toBe(true);
    expect(await canAccess('devices', 'list')).toBe(false);
  });

  it('lets part holders list panel groups while creating and editing them needs panelgroup', async () => {
    setCurrentUser(aUser({ permissions: ['part'] }));
    expect(await canAccess('panelgroups', 'list')).toBe(true);
    expect(await canAccess('panelgroups', 'edit')).toBe(false);
    setCurrentUser(aUser({ permissions: ['part', 'panelgroup'] }));
    expect(await canAccess('panelgroups', 'create')).toBe(true);
  });

  it('opens scans and quotes to scan holders and keeps their changes for scan_edit and quote_edit', async () => {
    setCurrentUser(aUser({ permissions: ['scan'] }));
    expect(await canAccess('scans', 'list')).toBe(true);
    expect(await canAccess('scans', 'show')).toBe(true);
    expect(await canAccess('scans', 'edit')).toBe(false);
    expect(await canAccess('quotes', 'delete')).toBe(false);
    setCurrentUser(aUser({ permissions: ['scan', 'scan_edit', 'quote_edit'] }));
    expect(await canAccess('scans', 'delete')).toBe(true);
    expect(await canAccess('quotes', 'delete')).toBe(true);
  });

  it('lets a restricted user read global records but change them only with an unrestricted scope', async () => {
    const all = ['role', 'permission', 'user', 'app_setting', 'email_template'];
    for (const restricted of [aUser({ permissions: all }), aUser({ roles: ['Client'], agents: [], clients: [4], permissions: all })]) {
      setCurrentUser(restricted);
      for (const resource of ['roles', 'permissions', 'app-settings', 'email-templates']) {
        expect(await canAccess(resource, 'list'), resource).toBe(true);
        for (const action of ['create', 'edit', 'delete']) expect(await canAccess(resource, action), `${resource} ${action}`).toBe(false);
      }
      // A resource scoped by agent or client stays theirs to change where it is their side's: sites are an agent's.
      setCurrentUser({ ...restricted, permissions: ['location'] });
      expect(await canAccess('locations', 'edit')).toBe(restricted.roles.includes('Agent'));
    }
    setCurrentUser(aUser({ roles: ['Super Admin'], agents: [], permissions: all }));
    for (const resource of ['roles', 'permissions', 'app-settings', 'email-templates'])
      expect(await canAccess(resource, 'edit'), resource).toBe(true);
    // Changing a setting needs app_setting beside the user permission that lists them.
    setCurrentUser(aUser({ roles: ['Super Admin'], agents: [], permissions: ['user'] }));
    expect(await canAccess('app-settings', 'list')).toBe(true);
    expect(await canAccess('app-settings', 'edit')).toBe(false);
  });

  it("keeps changing an agent's records to Agent users and a client's to Client users, while both read them", async () => {
    const all = ['agent', 'device', 'location', 'client'];
    const agentOwned = ['agents', 'devices', 'locations', 'webhooks'];
    setCurrentUser(aUser({ roles: ['Client'], agents: [], clients: [4], permissions: all }));
    for (const resource of agentOwned) {
      // Webhooks carry the signing secret: the agent's own users alone read them.
      expect(await canAccess(resource, 'list'), resource).toBe(resource !== 'webhooks');
      for (const action of ['create', 'edit', 'delete']) expect(await canAccess(resource, action), `${resource} ${action}`).toBe(false);
    }
    expect(await canAccess('clients', 'edit')).toBe(true);
    setCurrentUser(aUser({ roles: ['Agent'], agents: [3], clients: [], permissions: all }));
    for (const resource of agentOwned) expect(await canAccess(resource, 'edit'), resource).toBe(true);
    expect(await canAccess('webhooks', 'list')).toBe(true);
    expect(await canAccess('clients', 'list')).toBe(true);
    expect(await canAccess('clients', 'edit')).toBe(false);
    setCurrentUser(aUser({ roles: ['Super Admin'], agents: [], permissions: all }));
    for (const resource of [...agentOwned, 'clients']) expect(await canAccess(resource, 'delete'), resource).toBe(true);
  });

  it('refuses unknown resources and signed-out users', async () => {
    setCurrentUser(aUser({ permissions: ['location'] }));
    expect(await canAccess('secrets', 'list')).toBe(false);
    setCurrentUser(null);
    expect(await canAccess('locations', 'list')).toBe(false);
  });
});
