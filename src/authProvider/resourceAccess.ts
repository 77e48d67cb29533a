import type { PermissionName } from '../domain/permissions';
import { RESOURCES, type ResourceName } from '../domain/resources';

/**
 * The permission a resource's routes need; `list` when its list and export need another one; `edit` when
 * its screens open read-only and changing a record needs another one (scans, quotes).
 */
export interface ResourceAccess {
  permission: PermissionName;
  list?: PermissionName;
  edit?: PermissionName;
  /** Changing its records needs an unrestricted data scope besides the permission (roles, settings, templates). */
  global?: true;
}

/** Read from the domain's resource table (src/domain/resources.ts): every resource has exactly one rule. */
export const resourceAccess: Record<ResourceName, ResourceAccess> = Object.fromEntries(
  Object.entries(RESOURCES).map(([name, facts]: [string, ResourceAccess]) => [
    name,
    {
      permission: facts.permission,
      ...(facts.list ? { list: facts.list } : {}),
      ...(facts.edit ? { edit: facts.edit } : {}),
      ...(facts.global ? { global: true as const } : {}),
    },
  ]),
) as Record<ResourceName, ResourceAccess>;

const LIST_ACTIONS = new Set(['list', 'export']);
const CHANGE_ACTIONS = new Set(['create', 'edit', 'delete']);

/** Whether the action changes records of a global resource: then only an unrestricted data scope may take it. */
export const changesGlobalRecord = (table: Readonly<Record<string, ResourceAccess>>, resource: string, action: string) =>
  table[resource]?.global === true && CHANGE_ACTIONS.has(action);

/** The permission react-admin's `{resource, action}` needs, or undefined for a resource we do not know. */
export function permissionFor(
  table: Readonly<Record<string, ResourceAccess>>,
  resource: string,
  action: string,
): PermissionName | undefined {
  const rule = table[resource];
  if (!rule) return undefined;
  if (LIST_ACTIONS.has(action)) return rule.list ?? rule.permission;
  if (CHANGE_ACTIONS.has(action)) return rule.edit ?? rule.permission;
  return rule.permission;
}
