import { describe, expect, it } from 'vitest';
import { scratchInsurers } from '../test/scratchResource';
import { DEFINITIONS } from './definitions';
import { describe as describeScreens, resourceEntries } from './registry';

describe('resource registry', () => {
  it('registers every definition once, loading its screens with what its index.ts adds', async () => {
    expect(resourceEntries.map((e) => e.name).sort()).toEqual(DEFINITIONS.map((d) => d.name).sort());
    expect(resourceEntries.map((e) => e.name)).toEqual(expect.arrayContaining(['locations', 'users', 'clients', 'app-settings']));
    for (const entry of resourceEntries) {
      const description = await entry.load();
      expect(description.name).toBe(entry.name);
    }
    const users = await resourceEntries.find((e) => e.name === 'users')!.load();
    expect(users.rowActions?.length).toBe(1);
    expect(users.recordRepresentation).toBeTypeOf('function');
  });

  it("makes a plain resource's screens from its definition alone", () => {
    const screens = describeScreens(scratchInsurers);
    expect(screens).toMatchObject({
      name: 'scratch-insurers',
      sortable: ['name', 'email', 'created_at'],
      searchPlaceholder: 'resources.scratch-insurers.search',
      breadcrumbs: { create: 'resources.scratch-insurers.breadcrumb.create', edit: 'resources.scratch-insurers.breadcrumb.edit' },
      defaultSort: { field: 'name', order: 'ASC' },
    });
    expect(typeof screens.recordRepresentation === 'function' && screens.recordRepresentation({ id: 1, name: 'Acme' })).toBe('Acme');
  });
});
