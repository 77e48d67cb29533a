import { describe, expect, it } from 'vitest';
import { isGroup, type MenuNode } from '../../domain/access';
import { MENU } from '../../resources/definitions';
import { menuIcons } from './menuIcons';

const icons = (nodes: MenuNode[]): string[] => nodes.flatMap((n) => [n.icon, ...(isGroup(n) ? icons(n.children) : [])]);

describe('menu icons', () => {
  it('has the icon every menu node names, resources included (a definition naming an unknown icon fails here)', () => {
    expect(icons(MENU).length).toBeGreaterThan(15);
    expect(icons(MENU).filter((icon) => !menuIcons[icon])).toEqual([]);
  });
});
