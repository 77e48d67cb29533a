import { type DataScope, isUnrestricted, ownerScope, type PermissionName, reachesAny } from '../domain/permissions';
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
  /** Its records are an agent's (a client's): a restricted user changes only their own agents' (clients'). */
  owner?: 'agent' | 'client';
  /** Reading its records, too, needs agents (clients) of one's own (webhooks: their signing secrets). */
  ownerReads?: true;
}

/** A resource name → its access rule; undefined for a name no resource has. */
export type AccessRules = (resource: string) => Promise<ResourceAccess | undefined>;

const ruleOf = (facts: ResourceFacts): ResourceAccess => ({
  permission: facts.permission,
  ...(facts.list ? { list: facts.list } : {}),
  ...(facts.edit ? { edit: facts.edit } : {}),
  ...(facts.global ? { global: true as const } : {}),
  ...(facts.owner ? { owner: facts.owner } : {}),
  ...(facts.ownerReads ? { ownerReads: true as const } : {}),
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

/**
 * Whether a user with this data scope may take the action, as far as the scope decides: changing a global resource's
 * records needs an unrestricted scope; changing an agent's (a client's) records, or reading those its owner alone reads,
 * needs agents (clients) of one's own.
 */
export function scopeAllows(rule: ResourceAccess | undefined, action: string, scope: DataScope): boolean {
  if (!rule) return true;
  if (!CHANGE_ACTIONS.has(action)) return !rule.ownerReads || reachesAny(ownerScope(scope, rule.owner));
  if (rule.global) return isUnrestricted(scope);
  return reachesAny(ownerScope(scope, rule.owner));
}

/** The permission react-admin's `{resource, action}` needs, or undefined for a resource we do not know. */
export function permissionFor(rule: ResourceAccess | undefined, action: string): PermissionName | undefined {
  if (!rule) return undefined;
  if (LIST_ACTIONS.has(action)) return rule.list ?? rule.permission;
  if (CHANGE_ACTIONS.has(action)) return rule.edit ?? rule.permission;
  return rule.permission;
}
