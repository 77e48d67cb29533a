import { isBuiltInRole } from '../../domain/roles';
import type { ScreenExtras } from '../types';

/** Roles: Name, Created, Action; the permissions input offers permission names from permissions/lists. */
export const screens: ScreenExtras = {
  extraColumns: [{ source: 'created_at', type: 'datetime' }],
  // The built-in roles are the access model's own: the server refuses their delete, so none is offered.
  deletable: (record) => !isBuiltInRole(String(record.name)),
  // The server takes a deleted role from its holders and signs them out: the dialog says how many first.
  deleteNotice: (record) =>
    Number(record.users_count) > 0
      ? { message: 'resources.roles.delete_holders', args: { smart_count: Number(record.users_count) } }
      : null,
};
