import { can, type Principal } from './permissions';

/**
 * The left menu of spec 1 §2 as data: labels are i18n keys, `access` the permission a leaf needs.
 * A group shows when any child shows. The browser adds icons by `id`.
 */
export interface MenuLeaf {
  id: string;
  label: string;
  to: string;
  access: string | null;
  /** Other route prefixes that make this leaf active. */
  match?: string[];
}
export interface MenuGroup {
  id: string;
  label: string;
  children: MenuNode[];
  divider?: string;
}
export type MenuNode = MenuLeaf | MenuGroup;
export const isGroup = (n: MenuNode): n is MenuGroup => 'children' in n;

export const MENU: MenuNode[] = [
  { id: 'dashboard', label: 'app.menu.dashboard', to: '/', access: null, match: ['/dashboard'] },
  { id: 'scans', label: 'app.menu.scans', to: '/scans', access: 'scan' },
  { id: 'quotes', label: 'app.menu.quotes', to: '/quotes', access: 'scan' },
  {
    id: 'configuration',
    label: 'app.menu.configuration',
    children: [
      { id: 'users', label: 'app.menu.users', to: '/users', access: 'user' },
      { id: 'roles', label: 'app.menu.roles', to: '/roles', access: 'role' },
      { id: 'permissions', label: 'app.menu.permissions', to: '/permissions', access: 'permission' },
    ],
  },
  {
    id: 'setting',
    label: 'app.menu.setting',
    children: [
      { id: 'devices', label: 'app.menu.devices', to: '/devices', access: 'device' },
      { id: 'locations', label: 'app.menu.locations', to: '/locations', access: 'location' },
      { id: 'clients', label: 'app.menu.clients', to: '/clients', access: 'client' },
      { id: 'agents', label: 'app.menu.agents', to: '/agents', access: 'agent' },
      { id: 'products', label: 'app.menu.products', to: '/products', access: 'product' },
      { id: 'parts', label: 'app.menu.parts', to: '/parts', access: 'part' },
      { id: 'panelgroups', label: 'app.menu.panelgroups', to: '/panelgroups', access: 'part' },
      { id: 'panels', label: 'app.menu.panels', to: '/panels', access: 'part' },
      { id: 'app-settings', label: 'app.menu.app_settings', to: '/app-settings', access: 'user' },
      {
        id: 'email-template',
        label: 'app.menu.email_template',
        children: [
          { id: 'email-header-footer', label: 'app.menu.email_header_footer', to: '/email-header-footer', access: 'email_template' },
          { id: 'email-templates', label: 'app.menu.email_templates', to: '/email-templates', access: 'email_template' },
        ],
      },
    ],
  },
];

/** The menu the principal may see: leaves by permission, groups only when a child remains. */
export function visibleMenu(p: Pick<Principal, 'permissions'> | null, nodes: MenuNode[] = MENU): MenuNode[] {
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
export function activeTrail(path: string, nodes: MenuNode[] = MENU, trail: string[] = []): string[] | null {
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
export function firstPermittedRoute(p: Pick<Principal, 'permissions'> | null): string | null {
  const walk = (nodes: MenuNode[]): string | null => {
    for (const n of nodes) {
      const r = isGroup(n) ? walk(n.children) : n.access ? n.to : null;
      if (r) return r;
    }
    return null;
  };
  return walk(visibleMenu(p));
}
