import { describe, expect, it } from 'vitest';
import { MENU, isGroup, type MenuNode } from './access';
import { PERMISSIONS } from './permissions';
import { listPermission, RESOURCES, routePermission, type ResourceFacts, type ResourceName } from './resources';

const leaves = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => (isGroup(n) ? leaves(n.children) : [n]));
const names = Object.keys(RESOURCES) as ResourceName[];

describe('the resource table', () => {
  it('gives every resource a known permission and distinct service paths', () => {
    for (const name of names) {
      const facts: ResourceFacts = RESOURCES[name];
      expect(PERMISSIONS).toContain(facts.permission);
      if (facts.list) expect(PERMISSIONS).toContain(facts.list);
    }
    const paths = names.map((n) => `${RESOURCES[n].service}/${RESOURCES[n].path}`);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('puts every resource with a menu entry in the menu, guarded by its list permission', () => {
    const menu = leaves(MENU);
    for (const name of names) {
      const facts: ResourceFacts = RESOURCES[name];
      const leaf = menu.find((n) => n.id === name);
      if (!facts.menu) {
        expect(leaf, name).toBeUndefined();
        continue;
      }
      expect(leaf, name).toEqual(expect.objectContaining({ label: facts.menu, to: `/${name}`, access: listPermission(name) }));
    }
  });

  it('splits reads from writes on the server only where the list needs another permission', () => {
    expect(routePermission('panels')).toEqual({ read: 'part', write: 'panel' });
    expect(routePermission('locations')).toBe('location');
  });
});
