import { messages } from './messages';
import type { FieldSpecs } from './fields';
import { PERMISSIONS, ROLE_AGENT, ROLE_CLIENT, ROLE_SUPER_ADMIN } from './permissions';

/** Role form: name and permissions required. */
export const roleFields = {
  name: { type: 'text', label: 'Name', required: true, max: 100, list: true },
  display_name: { type: 'text', label: 'Display Name', max: 255 },
  description: { type: 'text', label: 'Description', max: 1000, multiline: true },
  permissions: { type: 'references', label: 'Permissions', reference: 'permissions', by: 'name', required: true, virtual: true },
} satisfies FieldSpecs;

/** Permission form: name required. */
export const permissionFields = {
  name: { type: 'text', label: 'Name', required: true, max: 100, list: true },
  display_name: { type: 'text', label: 'Display Name', max: 255 },
  description: { type: 'text', label: 'Description', max: 1000, multiline: true },
} satisfies FieldSpecs;

/** Permission names are lower-case snake words, like the product's (`email_template`). */
export const PERMISSION_NAME = /^[a-z][a-z0-9_]*$/;
export const PERMISSION_NAME_MESSAGE = messages.permissionName('Name');

export function permissionRefine(body: Record<string, unknown>): Record<string, string> | null {
  return typeof body.name === 'string' && !PERMISSION_NAME.test(body.name) ? { name: PERMISSION_NAME_MESSAGE } : null;
}

const lower = (s: string) => s.trim().toLowerCase();

/** The roles the code keys on by name (data scope, user form rules): never renamed or deleted. */
export const BUILT_IN_ROLES = [ROLE_SUPER_ADMIN, ROLE_AGENT, ROLE_CLIENT] as const;
export const isBuiltInRole = (name: string) => BUILT_IN_ROLES.some((r) => lower(r) === lower(name));
export const isSuperAdminRole = (name: string) => lower(name) === lower(ROLE_SUPER_ADMIN);

/** The permission names guard routes in code: never renamed or deleted. */
export const isBuiltInPermission = (name: string) => (PERMISSIONS as readonly string[]).includes(name);
