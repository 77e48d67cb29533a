import type { PermissionName } from '../domain/permissions';
import { RESOURCES, type ResourceName } from '../domain/resources';

/** The permission a resource's routes need (spec 1 §2); `list` when its list and export need another one. */
export interface ResourceAccess {
  permission: PermissionName;
  list?: PermissionName;
}

/** Read from the domain's resource table (src/domain/resources.ts): every resource has exactly one rule. */
export const resourceAccess: Record<ResourceName, ResourceAccess> = Object.fromEntries(
  Object.entries(RESOURCES).map(([name, facts]: [string, { permission: PermissionName; list?: PermissionName }]) => [
    name,
    facts.list ? { permission: facts.permission, list: facts.list } : { permission: facts.permission },
  ]),
) as Record<ResourceName, ResourceAccess>;

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
