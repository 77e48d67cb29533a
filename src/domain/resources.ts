import type { PermissionName } from './permissions';

/** The five services of the back end, each mounted at `/api/{service}`. */
export type Service = 'user' | 'agent' | 'scan' | 'quote' | 'email';

/**
 * What both sides must agree on about one resource, said once: in a plain resource's definition
 * (src/resources/<name>/definition.ts) or, for the resources with screens of their own, in RESOURCES below.
 */
export interface ResourceFacts {
  service: Service;
  /** Path inside the service, without slashes: `{service}/{path}`, `{path}/{id}`, `{path}/lists`. */
  path: string;
  /** The permission of the resource's routes; its writes need it unless `edit` names another. */
  permission: PermissionName;
  /** When the list and its export need another one (panels: the list `part`; a record, as its edit screen, `panel`). */
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
  /**
   * Whose records these are, where a restricted user may see more than they may change: an agent's (the agent, its
   * sites, devices and webhooks) or a client's (the client and its price lists). A restricted user creates, changes
   * and deletes them only for their own agents (clients), as the server enforces (`ownerScope` in ./permissions).
   */
  owner?: 'agent' | 'client';
  /**
   * Reads keep to the owner's users too: a record holding a secret its owner alone may know (a webhook's signing
   * secret signs what the agent's receiver trusts), so a user of the other side sees none, whatever they hold.
   */
  ownerReads?: true;
  /** Columns the list may sort by: the server's `sort` values (for scans: the page's own columns). */
  sortable: readonly string[];
}

/**
 * The resources with screens of their own (react-admin resource name → facts). The plain resources are defined in
 * src/resources/<name>/definition.ts, which carry the same facts.
 */
export const RESOURCES = {
  webhooks: {
    service: 'agent',
    path: 'webhooks',
    permission: 'agent',
    owner: 'agent',
    ownerReads: true,
    sortable: ['endpoint', 'created_at'],
  },
  scans: {
    service: 'scan',
    path: 'scans',
    permission: 'scan',
    edit: 'scan_edit',
    sortable: ['location_name', 'type', 'licensePlate', 'carColor', 'client_name', 'agent_name', 'status'],
  },
  quotes: { service: 'quote', path: 'quotes', permission: 'scan', edit: 'quote_edit', sortable: [] },
  /** Read-only: a vehicle is seen through the scans in scope (linked by the server at every scan write). */
  vehicles: {
    service: 'scan',
    path: 'vehicles',
    permission: 'scan',
    sortable: ['registration', 'make', 'model', 'first_seen', 'last_seen'],
  },
} as const satisfies Record<string, ResourceFacts>;

export type ResourceName = keyof typeof RESOURCES;
/** The permission reading `name`'s list (and export) needs. */
export const listPermission = (facts: ResourceFacts): PermissionName => facts.list ?? facts.permission;

/** The permission changing `name`'s records needs: its `edit` when reading and changing differ, else `permission`. */
export const editPermission = (facts: ResourceFacts): PermissionName => facts.edit ?? facts.permission;

/** The server description's `permission`: one name, or one for the list and one for a record and its changes. */
export const routePermission = (facts: ResourceFacts): PermissionName | { list: PermissionName; write: PermissionName } =>
  facts.list ? { list: facts.list, write: facts.permission } : facts.permission;

/**
 * The server description's `path`, `permission`, `sortable` and owner (`ownedBy`, `ownerReads`) for a custom resource:
 * spread into its description.
 */
export const resourceFacts = (name: ResourceName) => {
  const facts: ResourceFacts = RESOURCES[name];
  return {
    path: facts.path,
    permission: routePermission(facts),
    sortable: [...facts.sortable],
    ...(facts.owner ? { ownedBy: facts.owner } : {}),
    ...(facts.ownerReads ? { ownerReads: true as const } : {}),
  };
};
