import type { PermissionName } from '../domain/permissions';
import { RESOURCES, type ResourceFacts } from '../domain/resources';

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

/** A resource name → its access rule; undefined for a name no resource has. */
export type AccessRules = (resource: string) => Promise<ResourceAccess | undefined>;

const ruleOf = (facts: ResourceFacts): ResourceAccess => ({
  permission: facts.permission,
  ...(facts.list ? { list: facts.list } : {}),
  ...(facts.edit ? { edit: facts.edit } : {}),
  ...(facts.global ? { global: true as const } : {}),
});

/**
 * Every resource has exactly one rule: the custom resources' from the domain's table (src/domain/resources.ts), the
 * plain resources' from their definitions (`definitionOf`, as the data provider's routes).
 */
export const accessRulesOf =
  (definitionOf: (resource: string) => Promise<ResourceFacts | undefined>): AccessRules =>
  async (resource) => {
    const custom = (RESOURCES as Record<string, ResourceFacts>)[resource];
    if (custom) return ruleOf(custom);
    const d = await definitionOf(resource);
    return d && ruleOf(d);
  };

const LIST_ACTIONS = new Set(['list', 'export']);
const CHANGE_ACTIONS = new Set(['create', 'edit', 'delete']);

/** Whether the action changes records of a global resource: then only an unrestricted data scope may take it. */
export const changesGlobalRecord = (rule: ResourceAccess | undefined, action: string) =>
  rule?.global === true && CHANGE_ACTIONS.has(action);

/** The permission react-admin's `{resource, action}` needs, or undefined for a resource we do not know. */
export function permissionFor(rule: ResourceAccess | undefined, action: string): PermissionName | undefined {
  if (!rule) return undefined;
  if (LIST_ACTIONS.has(action)) return rule.list ?? rule.permission;
  if (CHANGE_ACTIONS.has(action)) return rule.edit ?? rule.permission;
  return rule.permission;
}
