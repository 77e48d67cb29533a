import { describe, expect, it } from 'vitest';
import { RESOURCES, type ResourceFacts } from './resources';
import {
  accessWithin,
  can,
  dataScope,
  hasRole,
  ignoresSelection,
  inScope,
  isUnrestricted,
  parseSelectionHeader,
  type Principal,
} from './permissions';

const principal = (over: Partial<Principal> = {}): Principal => ({ roles: [], permissions: [], agents: [], clients: [], ...over });

describe('dataScope', () => {
  it('leaves a Super Admin unconstrained', () => {
    const s = dataScope(principal({ roles: ['Super Admin'], agents: [1], clients: [2] }));
    expect(s).toEqual({ agents: null, clients: null });
    expect(isUnrestricted(s)).toBe(true);
  });

  it('holds an Agent user to their agents and a Client user to their clients', () => {
    expect(dataScope(principal({ roles: ['Agent'], agents: [3, 4], clients: [9] }))).toEqual({ agents: [3, 4], clients: null });
    expect(dataScope(principal({ roles: ['Client'], agents: [3], clients: [7] }))).toEqual({ agents: null, clients: [7] });
  });

  it('holds a user with both roles to both lists', () => {
    expect(dataScope(principal({ roles: ['Agent', 'Client'], agents: [1], clients: [2] }))).toEqual({ agents: [1], clients: [2] });
  });

  it('gives a user with neither role nothing', () => {
    const s = dataScope(principal({ roles: ['Editor'], permissions: ['location'], agents: [1], clients: [2] }));
    expect(s).toEqual({ agents: [], clients: null });
    expect(isUnrestricted(s)).toBe(false);
    expect(inScope(s, { agent_id: 1, client_id: 2 })).toBe(false);
  });

  it("narrows a Super Admin's view to the selections", () => {
    const admin = principal({ roles: ['Super Admin'] });
    expect(dataScope(admin, [5])).toEqual({ agents: [5], clients: null });
    expect(dataScope(admin, null, [6, 7])).toEqual({ agents: null, clients: [6, 7] });
  });

  it("never widens beyond the user's own agents or clients", () => {
    const agent = principal({ roles: ['Agent'], agents: [1, 2] });
    expect(dataScope(agent, [2, 3])).toEqual({ agents: [2], clients: null });
    expect(dataScope(agent, [3])).toEqual({ agents: [], clients: null });
    const client = principal({ roles: ['Client'], clients: [10] });
    expect(dataScope(client, null, [10, 11])).toEqual({ agents: null, clients: [10] });
    expect(dataScope(client, null, [11])).toEqual({ agents: null, clients: [] });
    // A user with neither role stays at nothing whatever they select.
    expect(dataScope(principal(), [1, 2])).toEqual({ agents: [], clients: null });
  });

  it('does not share arrays with the principal', () => {
    const p = principal({ roles: ['Agent'], agents: [1] });
    const s = dataScope(p);
    s.agents!.push(99);
    expect(p.agents).toEqual([1]);
  });
});

describe('inScope', () => {
  it('passes any row when unconstrained', () => {
    expect(inScope({ agents: null, clients: null }, {})).toBe(true);
    expect(inScope({ agents: null, clients: null }, { agent_id: null, client_id: 3 })).toBe(true);
  });

  it('checks each constrained side, and a row without that side is outside', () => {
    const s = { agents: [1, 2], clients: null };
    expect(inScope(s, { agent_id: 2 })).toBe(true);
    expect(inScope(s, { agent_id: 3 })).toBe(false);
    expect(inScope(s, { agent_id: null })).toBe(false);
    expect(inScope(s, {})).toBe(false);
    const both = { agents: [1], clients: [5] };
    expect(inScope(both, { agent_id: 1, client_id: 5 })).toBe(true);
    expect(inScope(both, { agent_id: 1, client_id: 6 })).toBe(false);
    expect(inScope(both, { agent_id: 2, client_id: 5 })).toBe(false);
    expect(inScope({ agents: [], clients: null }, { agent_id: 1 })).toBe(false);
  });
});

describe('parseSelectionHeader', () => {
  it.each([
    [undefined, null],
    ['all', null],
    ['ALL', null],
    ['', null],
    ['  ', null],
    ['[]', null],
    ['3', [3]],
    ['3,4', [3, 4]],
    [' 3 , 4 ', [3, 4]],
    ['[3,4]', [3, 4]],
    ['["3","4"]', [3, 4]],
    [
      ['3', '4'],
      [3, 4],
    ],
  ] as const)('%j → %j', (input, expected) => {
    expect(parseSelectionHeader(input as string | string[] | undefined)).toEqual(expected);
  });

  it.each(['abc', '3,x', '3,', '[3,', '{"a":1}', '[3.5]', '1.5', '-1', '0', '[0]', '[-2]', '3,0', '12345678901'])(
    'rejects %j as malformed',
    (input) => {
      expect(parseSelectionHeader(input)).toBeUndefined();
    },
  );
});

describe('roles and permissions', () => {
  it('compares role names case-insensitively and ignoring surrounding spaces', () => {
    expect(hasRole({ roles: ['super admin'] }, 'Super Admin')).toBe(true);
    expect(hasRole({ roles: [' AGENT '] }, 'agent')).toBe(true);
    expect(hasRole({ roles: ['Agent'] }, 'Client')).toBe(false);
    expect(hasRole({ roles: [] }, 'Agent')).toBe(false);
    // So a lower-cased Super Admin still sees everything.
    expect(dataScope(principal({ roles: ['SUPER ADMIN'] }))).toEqual({ agents: null, clients: null });
  });

  it('can: no permission needed passes; otherwise the exact name is required', () => {
    expect(can(null, null)).toBe(true);
    expect(can(null, 'scan')).toBe(false);
    expect(can({ permissions: ['scan'] }, 'scan')).toBe(true);
    expect(can({ permissions: ['scan'] }, 'Scan')).toBe(false);
    expect(can({ permissions: [] }, undefined)).toBe(true);
  });

  it('can: an edit permission counts only beside the permission reading what it changes', () => {
    expect(can({ permissions: ['scan_edit', 'quote_edit'] }, 'scan_edit')).toBe(false);
    expect(can({ permissions: ['scan_edit', 'quote_edit'] }, 'quote_edit')).toBe(false);
    expect(can({ permissions: ['scan', 'scan_edit'] }, 'scan_edit')).toBe(true);
    expect(can({ permissions: ['scan', 'quote_edit'] }, 'quote_edit')).toBe(true);
    // Every resource whose changes need their own permission: that one alone does nothing, beside the reading one it does.
    const edits = Object.values(RESOURCES as Record<string, ResourceFacts>).filter((f) => f.edit);
    expect(edits.length).toBeGreaterThan(0);
    for (const f of edits) {
      expect(can({ permissions: [f.edit!] }, f.edit)).toBe(false);
      expect(can({ permissions: [f.edit!, f.permission] }, f.edit)).toBe(true);
    }
  });
});

describe('accessWithin', () => {
  const p = (roles: string[], permissions: string[], agents: number[] = [], clients: number[] = []): Principal => ({
    roles,
    permissions,
    agents,
    clients,
  });
  const manager = p(['Agent', 'role-1'], ['scan', 'user'], [1, 2]);

  it('a Super Admin holds everything; nobody else holds a Super Admin', () => {
    expect(accessWithin(p(['Super Admin'], ['scan']), p(['Super Admin'], []))).toBe(true);
    expect(accessWithin(manager, p(['Super Admin'], []))).toBe(true);
    expect(accessWithin(p(['Super Admin'], []), manager)).toBe(false);
  });

  it('needs every permission held, and the data scope no wider on each dimension', () => {
    expect(accessWithin(p(['Agent'], ['scan'], [1]), manager)).toBe(true);
    expect(accessWithin(p(['Agent'], ['scan', 'app_setting'], [1]), manager)).toBe(false);
    expect(accessWithin(p(['Agent'], ['scan'], [1, 3]), manager)).toBe(false);
    // A Client user is held to clients, not agents: the manager's agents do not contain them.
    expect(accessWithin(p(['Client'], ['scan'], [], [5]), manager)).toBe(false);
    // The manager holds no client: a user with one has more than the manager, whatever the manager sees.
    expect(accessWithin(p(['Agent', 'Client'], ['scan'], [1], [5]), manager)).toBe(false);
    expect(accessWithin(p(['Agent'], ['scan'], [1], [5]), manager)).toBe(false);
    expect(accessWithin(p(['Client'], ['scan'], [2], [5]), p(['Client'], ['user'], [], [5]))).toBe(false);
    expect(accessWithin(p(['Agent', 'Client'], ['scan'], [1], [5]), p(['Agent', 'Client'], ['scan', 'user'], [1, 2], [5]))).toBe(true);
    // Neither role: sees no data.
    expect(accessWithin(p([], ['scan']), manager)).toBe(true);
    // The manager held to clients too: an Agent-only user would see every client of agent 1.
    const both = p(['Agent', 'Client'], ['scan', 'user'], [1], [5]);
    expect(accessWithin(p(['Agent'], ['scan'], [1]), both)).toBe(false);
    expect(accessWithin(p(['Agent', 'Client'], ['scan'], [1], [5]), both)).toBe(true);
  });
});

describe('ignoresSelection (one rule for the data provider and the server)', () => {
  it('is true for paths naming agents or clients as a segment, the query string aside', () => {
    expect(ignoresSelection('agents')).toBe(true);
    expect(ignoresSelection('agents/lists')).toBe(true);
    expect(ignoresSelection('clients/calculate-category?x=agents')).toBe(true);
    expect(ignoresSelection('/clients/3')).toBe(true);
    expect(ignoresSelection('scans?agent=agents')).toBe(false);
    expect(ignoresSelection('locations')).toBe(false);
    expect(ignoresSelection('agentsx/lists')).toBe(false);
  });
});
