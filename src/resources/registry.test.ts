import { describe, expect, it } from 'vitest';
import { RESOURCES, type ResourceName } from '../domain/resources';
import { resourceEntries } from './registry';

describe('resource registry', () => {
  it('registers every described resource of the domain table once, loading its own description', async () => {
    const described = (Object.keys(RESOURCES) as ResourceName[]).filter((name) => RESOURCES[name].screens === 'described');
    expect(resourceEntries.map((e) => e.name).sort()).toEqual(described.sort());
    for (const entry of resourceEntries) {
      const description = await entry.load();
      expect(description.name).toBe(entry.name);
      expect(entry.create === false).toBe(description.actions?.create === false);
    }
  });

  it('sorts only by columns the table names (a listed column the server cannot sort would 422)', async () => {
    for (const entry of resourceEntries) {
      const description = await entry.load();
      const sortable: readonly string[] = RESOURCES[entry.name].sortable;
      // '' leaves the order to the server's default (panels: by place).
      const field = description.defaultSort.field;
      expect(field === '' || sortable.includes(field), `${entry.name} default sort`).toBe(true);
    }
  });
});
