import type { PermissionName } from '../domain/permissions';
import type { ApiResource } from '../dataProvider/apiRoutes';

/** The permission a resource's routes need (spec 1 §2); `list` when its list and export need another one. */
export interface ResourceAccess {
  permission: PermissionName;
  list?: PermissionName;
}

/** Typed against the API table, so every routed resource has exactly one access rule. */
export const resourceAccess: Record<ApiResource, ResourceAccess> = {
  users: { permission: 'user' },
  roles: { permission: 'role' },
  permissions: { permission: 'permission' },
  'app-settings': { permission: 'user' },
  devices: { permission: 'device' },
  locations: { permission: 'location' },
  agents: { permission: 'agent' },
  webhooks: { permission: 'agent' },
  scans: { permission: 'scan' },
  quotes: { permission: 'scan' },
  clients: { permission: 'client' },
  products: { permission: 'product' },
  parts: { permission: 'part' },
  panelgroups: { permission: 'panelgroup', list: 'part' },
  panels: { permission: 'panel', list: 'part' },
  'email-templates': { permission: 'email_template' },
};

const LIST_ACTIONS = new Set(['list', 'export']);

/** The permission react-admin's `{resource, action}` needs, or undefined for a resource we do not know. */
export function permissionFor(
  table: Readonly<Record<string, ResourceAccess>>,
  resource: string,
  action: string,
): PermissionName | undefined {
  const rule = table[resource];
  if (!rule) return undefined;
  return LIST_ACTIONS.has(action) ? (rule.list ?? rule.permission) : rule.permission;
}
