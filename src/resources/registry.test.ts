import { describe, expect, it } from 'vitest';
import { defineResource } from './define';
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
    const insurers = defineResource({
      name: 'insurers',
      service: 'quote',
      path: 'insurers',
      permission: 'client',
      model: 'Insurer',
      table: 'insurers',
      fields: { name: { type: 'text', label: 'Name', required: true, list: true } },
      searchable: ['name'],
      sortable: ['name', 'created_at'],
      defaultSort: { field: 'name', order: 'asc' },
      scope: { client: 'client_id' },
      lists: { text: 'name' },
      menu: { group: 'setting', icon: 'Shield', position: 10 },
      recordRepresentation: 'name',
    });
    const screens = describeScreens(insurers);
    expect(screens).toMatchObject({
      name: 'insurers',
      sortable: ['name', 'created_at'],
      searchPlaceholder: 'resources.insurers.search',
      breadcrumbs: { create: 'resources.insurers.breadcrumb.create', edit: 'resources.insurers.breadcrumb.edit' },
      defaultSort: { field: 'name', order: 'ASC' },
    });
    expect(typeof screens.recordRepresentation === 'function' && screens.recordRepresentation({ id: 1, name: 'Acme' })).toBe('Acme');
  });
});
