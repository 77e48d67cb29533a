import { describe, expect, it } from 'vitest';
import { MENU, isGroup, type MenuNode } from '../../domain/access';
import { menuIcons } from './menuIcons';

const ids = (nodes: MenuNode[]): string[] => nodes.flatMap((n) => [n.id, ...(isGroup(n) ? ids(n.children) : [])]);

describe('menu icons', () => {
  it('has an icon for every menu node of the domain (a new resource entry needs one)', () => {
    expect(ids(MENU).filter((id) => !menuIcons[id])).toEqual([]);
  });
});
