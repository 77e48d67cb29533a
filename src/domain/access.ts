import { can, type PermissionName, type Principal } from './permissions';
import { editPermission, listPermission, RESOURCES, type ResourceFacts, type ResourceName } from './resources';

/** What the menu needs of a plain resource's definition (src/resources/define.ts). */
export interface MenuEntry extends ResourceFacts {
  name: string;
  menu: { group: string | null; icon: string; position: number; label?: string };
}

/**
 * The left menu as data: labels are i18n keys, `access` the permission a leaf needs.
 * A group shows when any child shows. The browser adds icons by `id`.
 */
export interface MenuLeaf {
  id: string;
  label: string;
  to: string;
  access: PermissionName | null;
  /** Other route prefixes that make this leaf active. */
  match?: string[];
  /** The icon's name in src/custom/layout/menuIcons.ts. */
  icon: string;
}
export interface MenuGroup {
  id: string;
  label: string;
  icon: string;
  children: MenuNode[];
  divider?: string;
}
export type MenuNode = MenuLeaf | MenuGroup;
export const isGroup = (n: MenuNode): n is MenuGroup => 'children' in n;

const leafOf = (e: MenuEntry): MenuLeaf => ({
  id: e.name,
  label: e.menu.label ?? `resources.${e.name}.menu`,
  to: `/${e.name}`,
  access: listPermission(e),
  icon: e.menu.icon,
});

/** The defined resources of a menu group, in their positions. */
const inGroup = (entries: readonly MenuEntry[], group: string | null) =>
  entries
    .filter((e) => e.menu.group === group)
    .sort((a, b) => a.menu.position - b.menu.position)
    .map(leafOf);

const customLeaf = (name: ResourceName, label: string, icon: string): MenuLeaf => ({
  id: name,
  label,
  to: `/${name}`,
  access: listPermission(RESOURCES[name]),
  icon,
});

/** The left menu: its fixed frame, and each defined resource in its group at its position. */
export const menuOf = (entries: readonly MenuEntry[]): MenuNode[] => [
  { id: 'dashboard', label: 'app.menu.dashboard', to: '/', access: null, match: ['/dashboard'], icon: 'Dashboard' },
  customLeaf('scans', 'app.menu.scans', 'DocumentScanner'),
  customLeaf('quotes', 'app.menu.quotes', 'RequestQuote'),
  customLeaf('vehicles', 'app.menu.vehicles', 'DirectionsCar'),
  ...inGroup(entries, null),
  { id: 'configuration', label: 'app.menu.configuration', icon: 'ManageAccounts', children: inGroup(entries, 'configuration') },
  {
    id: 'setting',
    label: 'app.menu.setting',
    icon: 'Settings',
    children: [
      ...inGroup(entries, 'setting'),
      {
        id: 'email-template',
        label: 'app.menu.email_template',
        icon: 'Email',
        children: [
          {
            id: 'email-header-footer',
            label: 'app.menu.email_header_footer',
            to: '/email-header-footer',
            access: 'email_template',
            icon: 'ViewDay',
          },
          ...inGroup(entries, 'email-template'),
        ],
      },
    ],
  },
];

/**
 * May the principal change `name`'s records? Scans and quotes open read-only with `scan`; their changes need
 * `scan_edit` and `quote_edit` (docs/ARCHITECTURE.md, "Access model"). The screens hide what this refuses.
 */
export const canChange = (p: Pick<Principal, 'permissions'> | null | undefined, name: ResourceName) =>
  can(p, editPermission(RESOURCES[name]));

/** The menu the principal may see: leaves by permission, groups only when a child remains. */
export function visibleMenu(p: Pick<Principal, 'permissions'> | null, nodes: MenuNode[]): MenuNode[] {
  const out: MenuNode[] = [];
  for (const node of nodes) {
    if (isGroup(node)) {
      const children = visibleMenu(p, node.children);
      if (children.length) out.push({ ...node, children });
    } else if (can(p, node.access)) {
      out.push(node);
    }
  }
  return out;
}

const leafMatches = (leaf: MenuLeaf, path: string) =>
  [leaf.to, ...(leaf.match ?? [])].some((to) => (to === '/' ? path === '/' : path === to || path.startsWith(`${to}/`)));

/** Ids of the groups on the way to the leaf matching `path` (so they auto-expand), and the leaf id. */
export function activeTrail(path: string, nodes: MenuNode[], trail: string[] = []): string[] | null {
  for (const node of nodes) {
    if (isGroup(node)) {
      const found = activeTrail(path, node.children, [...trail, node.id]);
      if (found) return found;
    } else if (leafMatches(node, path)) {
      return [...trail, node.id];
    }
  }
  return null;
}

/** First permission-gated menu route the principal may open (the 403 page's Back To Home when scan is not held). */
export function firstPermittedRoute(p: Pick<Principal, 'permissions'> | null, menu: MenuNode[]): string | null {
  const walk = (nodes: MenuNode[]): string | null => {
    for (const n of nodes) {
      const r = isGroup(n) ? walk(n.children) : n.access ? n.to : null;
      if (r) return r;
    }
    return null;
  };
  return walk(visibleMenu(p, menu));
}
