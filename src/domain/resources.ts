import type { PermissionName } from './permissions';

/** The five services of the back end, each mounted at `/api/{service}`. */
export type Service = 'user' | 'agent' | 'scan' | 'quote' | 'email';

/**
 * What both sides must agree on about one resource, said once. The browser's data provider, access
 * rules, menu and list sorting and the server's resource descriptions all read this table; nothing
 * else spells a resource's service, path, permission or sortable columns.
 */
export interface ResourceFacts {
  service: Service;
  /** Path inside the service, without slashes: `{service}/{path}`, `{path}/{id}`, `{path}/lists`. */
  path: string;
  /** The permission of the resource's routes; its writes need it unless `edit` names another. */
  permission: PermissionName;
  /** When the list, export and single-record reads need another one (panels list `part`, edit `panel`). */
  list?: PermissionName;
  /**
   * A custom resource whose screens `permission` opens read-only: what changing its records needs (docs/ARCHITECTURE.md,
   * "Access model": scans `scan_edit`, quotes `quote_edit`).
   */
  edit?: PermissionName;
  /**
   * A record every agent and client shares (roles, permissions, settings, e-mail templates): a user whose data scope is
   * restricted reads it but never changes it; only an unrestricted scope (Super Admin) does, as the server enforces.
   */
  global?: true;
  /** Columns the list may sort by: the server's `sort` values (for scans: the page's own columns). */
  sortable: readonly string[];
  /** i18n key of its left-menu entry; the menu's shape is in ./access. */
  menu?: string;
  /** 'described': a plain resource rendered from src/resources/<name>; 'custom': its own screens. */
  screens: 'described' | 'custom';
}

/** react-admin resource name (the app's route segment) → its facts. */
export const RESOURCES = {
  users: {
    service: 'user',
    path: 'users',
    permission: 'user',
    sortable: ['first_name', 'last_name', 'email', 'created_at'],
    menu: 'app.menu.users',
    screens: 'described',
  },
  roles: {
    service: 'user',
    path: 'roles',
    permission: 'role',
    global: true,
    sortable: ['name', 'created_at'],
    menu: 'app.menu.roles',
    screens: 'described',
  },
  permissions: {
    service: 'user',
    path: 'permissions',
    permission: 'permission',
    global: true,
    sortable: ['name', 'created_at'],
    menu: 'app.menu.permissions',
    screens: 'described',
  },
  'app-settings': {
    service: 'user',
    path: 'options',
    permission: 'user',
    edit: 'app_setting',
    global: true,
    sortable: ['option_name', 'created_at'],
    menu: 'app.menu.app_settings',
    screens: 'described',
  },
  devices: {
    service: 'agent',
    path: 'devices',
    permission: 'device',
    sortable: ['serial', 'type', 'location_name', 'owner', 'default_client_name', 'created_at'],
    menu: 'app.menu.devices',
    screens: 'described',
  },
  locations: {
    service: 'agent',
    path: 'locations',
    permission: 'location',
    sortable: ['name', 'state', 'created_at'],
    menu: 'app.menu.locations',
    screens: 'described',
  },
  agents: {
    service: 'agent',
    path: 'agents',
    permission: 'agent',
    sortable: ['name', 'email', 'phone', 'is_enabled', 'language', 'default_client_name', 'created_at'],
    menu: 'app.menu.agents',
    screens: 'described',
  },
  webhooks: { service: 'agent', path: 'webhooks', permission: 'agent', sortable: ['endpoint', 'created_at'], screens: 'custom' },
  scans: {
    service: 'scan',
    path: 'scans',
    permission: 'scan',
    edit: 'scan_edit',
    sortable: ['location_name', 'type', 'licensePlate', 'carColor', 'client_name', 'agent_name', 'status'],
    menu: 'app.menu.scans',
    screens: 'custom',
  },
  quotes: {
    service: 'quote',
    path: 'quotes',
    permission: 'scan',
    edit: 'quote_edit',
    sortable: [],
    menu: 'app.menu.quotes',
    screens: 'custom',
  },
  clients: {
    service: 'quote',
    path: 'clients',
    permission: 'client',
    sortable: ['name', 'currency', 'calculation_method', 'created_at'],
    menu: 'app.menu.clients',
    screens: 'described',
  },
  products: {
    service: 'quote',
    path: 'products',
    permission: 'product',
    sortable: ['name', 'type', 'price', 'created_at'],
    menu: 'app.menu.products',
    screens: 'described',
  },
  parts: {
    service: 'quote',
    path: 'parts',
    permission: 'part',
    sortable: ['name', 'type', 'created_at'],
    menu: 'app.menu.parts',
    screens: 'described',
  },
  panelgroups: {
    service: 'quote',
    path: 'panelGroups',
    permission: 'panelgroup',
    list: 'part',
    sortable: ['name', 'position', 'created_at'],
    menu: 'app.menu.panelgroups',
    screens: 'described',
  },
  panels: {
    service: 'quote',
    path: 'panels',
    permission: 'panel',
    list: 'part',
    sortable: ['name', 'label', 'type', 'position', 'panel_group_name', 'part_name', 'carPanel', 'created_at'],
    menu: 'app.menu.panels',
    screens: 'described',
  },
  'email-templates': {
    service: 'email',
    path: 'emailTemplates',
    permission: 'email_template',
    global: true,
    sortable: ['templateName', 'created_at'],
    menu: 'app.menu.email_templates',
    screens: 'described',
  },
} as const satisfies Record<string, ResourceFacts>;

export type ResourceName = keyof typeof RESOURCES;
/** The plain resources: each has a description in src/resources/<name> (the registry is typed by this). */
export type DescribedResource = {
  [K in ResourceName]: (typeof RESOURCES)[K]['screens'] extends 'described' ? K : never;
}[ResourceName];

export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];

/** The permission reading `name`'s list (and export) needs. */
export const listPermission = (name: ResourceName): PermissionName => {
  const facts: ResourceFacts = RESOURCES[name];
  return facts.list ?? facts.permission;
};

/** The permission changing `name`'s records needs: its `edit` when reading and changing differ, else `permission`. */
export const editPermission = (name: ResourceName): PermissionName => {
  const facts: ResourceFacts = RESOURCES[name];
  return facts.edit ?? facts.permission;
};

/** The server description's `permission`: one name, or one for reads and one for writes. */
export const routePermission = (name: ResourceName): PermissionName | { read: PermissionName; write: PermissionName } => {
  const facts: ResourceFacts = RESOURCES[name];
  return facts.list ? { read: facts.list, write: facts.permission } : facts.permission;
};

/** The server description's `sortable`, as the mutable list zod's enum wants. */
export const sortableColumns = (name: ResourceName): string[] => [...RESOURCES[name].sortable];

/** The server description's `path`, `permission` and `sortable` for `name`: spread into its ResourceDescription. */
export const resourceFacts = (name: ResourceName) => ({
  path: RESOURCES[name].path,
  permission: routePermission(name),
  sortable: sortableColumns(name),
});
