import { can, type PermissionName, type Principal } from './permissions';
import { editPermission, listPermission, RESOURCES, type ResourceFacts, type ResourceName } from './resources';

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
}
export interface MenuGroup {
  id: string;
  label: string;
  children: MenuNode[];
  divider?: string;
}
export type MenuNode = MenuLeaf | MenuGroup;
export const isGroup = (n: MenuNode): n is MenuGroup => 'children' in n;

/** A resource's menu entry: its label from the resource table, its access the permission its list needs. */
function resourceLeaf(name: ResourceName): MenuLeaf {
  const facts: ResourceFacts = RESOURCES[name];
  if (!facts.menu) throw new Error(`Resource ${name} has no menu entry in src/domain/resources.ts`);
  return { id: name, label: facts.menu, to: `/${name}`, access: listPermission(name) };
}

export const MENU: MenuNode[] = [
  { id: 'dashboard', label: 'app.menu.dashboard', to: '/', access: null, match: ['/dashboard'] },
  resourceLeaf('scans'),
  resourceLeaf('quotes'),
  {
    id: 'configuration',
    label: 'app.menu.configuration',
    children: [resourceLeaf('users'), resourceLeaf('roles'), resourceLeaf('permissions')],
  },
  {
    id: 'setting',
    label: 'app.menu.setting',
    children: [
      resourceLeaf('devices'),
      resourceLeaf('locations'),
      resourceLeaf('clients'),
      resourceLeaf('agents'),
      resourceLeaf('products'),
      resourceLeaf('parts'),
      resourceLeaf('panelgroups'),
      resourceLeaf('panels'),
      resourceLeaf('app-settings'),
      {
        id: 'email-template',
        label: 'app.menu.email_template',
        children: [
          { id: 'email-header-footer', label: 'app.menu.email_header_footer', to: '/email-header-footer', access: 'email_template' },
          resourceLeaf('email-templates'),
        ],
      },
    ],
  },
];

/**
 * May the principal change `name`'s records? Scans and quotes open read-only with `scan`; their changes need
 * `scan_edit` and `quote_edit` (docs/ARCHITECTURE.md, "Access model"). The screens hide what this refuses.
 */
export const canChange = (p: Pick<Principal, 'permissions'> | null | undefined, name: ResourceName) => can(p, editPermission(name));

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
