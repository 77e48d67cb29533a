import { describe, expect, it } from 'vitest';
import { resources } from '.';
import { resourceEntries } from './registry';

describe('resource registry', () => {
  it('registers every described resource once, loading the same description', async () => {
    expect(resourceEntries.map((e) => e.name).sort()).toEqual(resources.map((r) => r.name).sort());
    for (const entry of resourceEntries) {
      const description = await entry.load();
      expect(description.name).toBe(entry.name);
      expect(entry.create === false).toBe(description.actions?.create === false);
    }
  });
});
