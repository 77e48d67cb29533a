import { describe, expect, it } from 'vitest';
import { DEFINITIONS, MENU } from '../resources/definitions';
import { isGroup, type MenuLeaf, type MenuNode } from './access';
import { PERMISSIONS } from './permissions';
import { listPermission, RESOURCES, routePermission, type ResourceFacts } from './resources';

const leaves = (nodes: MenuNode[]): MenuLeaf[] => nodes.flatMap((n) => (isGroup(n) ? leaves(n.children) : [n]));
const everyResource: [string, ResourceFacts][] = [
  ...Object.entries(RESOURCES),
  ...DEFINITIONS.map((d): [string, ResourceFacts] => [d.name, d]),
];

describe('the resources: custom table and definitions', () => {
  it('gives every resource a known permission and distinct service paths', () => {
    expect(everyResource.map(([name]) => name)).toEqual(
      expect.arrayContaining(['scans', 'quotes', 'webhooks', 'locations', 'users', 'panels']),
    );
    for (const [, facts] of everyResource) {
      expect(PERMISSIONS).toContain(facts.permission);
      if (facts.list) expect(PERMISSIONS).toContain(facts.list);
      if (facts.edit) expect(PERMISSIONS).toContain(facts.edit);
    }
    const paths = everyResource.map(([, f]) => `${f.service}/${f.path}`);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('puts every defined resource in the menu, guarded by its list permission', () => {
    const menu = leaves(MENU);
    for (const d of DEFINITIONS) {
      const leaf = menu.find((n) => n.id === d.name);
      expect(leaf, d.name).toEqual(
        expect.objectContaining({
          label: d.menu.label ?? `resources.${d.name}.menu`,
          to: `/${d.name}`,
          access: listPermission(d),
          icon: d.menu.icon,
        }),
      );
    }
  });

  it('sorts by default only by a column it may sort by, or leaves the order to the server', () => {
    for (const d of DEFINITIONS) expect(d.sortable.includes(d.defaultSort.field) || d.name === 'panels', d.name).toBe(true);
  });

  it('splits reads from writes on the server only where the list needs another permission', () => {
    expect(routePermission(DEFINITIONS.find((d) => d.name === 'panels')!)).toEqual({ list: 'part', write: 'panel' });
    expect(routePermission(DEFINITIONS.find((d) => d.name === 'locations')!)).toBe('location');
  });
});
