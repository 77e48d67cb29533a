import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeDefinition, loadDefinitions, recordOf, registerDefinitions, type ServerParts } from '../../server/lib/definitions';
import { scratchInsurers } from '../../src/test/scratchResource';

describe('resource definitions on the server', () => {
  it('finds every definition under src/resources, each named as its folder', async () => {
    const names = (await loadDefinitions()).map((d) => d.name);
    expect(names).toEqual(expect.arrayContaining(['locations', 'users', 'email-templates', 'app-settings', 'panelgroups']));
    expect(new Set(names).size).toBe(names.length);
  });

  it("derives a plain resource's server description: record, scope, owner column, page cache", () => {
    const d = describeDefinition(scratchInsurers);
    expect(Object.keys(recordOf(scratchInsurers.fields).shape)).toEqual(['id', 'name', 'email', 'client_id', 'created_at', 'updated_at']);
    expect(
      d.record.safeParse({ id: 1, name: 'A', email: null, client_id: 2, created_at: new Date(), updated_at: new Date() }).success,
    ).toBe(true);
    expect(
      d.record.safeParse({ id: 1, name: null, email: null, client_id: 2, created_at: new Date(), updated_at: new Date() }).success,
    ).toBe(false);
    expect(d.scope).toEqual({ agent: undefined, client: expect.any(Function) });
    expect(d).toMatchObject({
      path: 'scratchInsurers',
      model: 'ScratchInsurer',
      table: 'scratch_insurers',
      permission: 'client',
      pageJson: true,
      sortable: ['name', 'email', 'created_at'],
    });
    expect(d.ownerAgentColumn).toBeUndefined();
  });

  it('refuses to start a service whose definition asks for a server part it lacks', async () => {
    const app = Fastify();
    app.decorate('definitions', await loadDefinitions());
    // The type checker says it first: the users definition asks for its part.
    // @ts-expect-error users is missing
    const parts: ServerParts<'user'> = { roles: {}, permissions: {}, 'app-settings': { routes: 'own' } };
    expect(() => registerDefinitions(app, 'user', parts)).toThrow(/users needs its server part/);
    await app.close();
  });
});
