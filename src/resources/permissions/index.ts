import { isBuiltInPermission, permissionRefine } from '../../domain/roles';
import type { ScreenExtras } from '../types';

/** Permissions: Name, Created, Action; names are lower-case snake words, as the server checks. */
export const screens: ScreenExtras = {
  extraColumns: [{ source: 'created_at', type: 'datetime' }],
  form: { refine: permissionRefine },
  // The built-in permissions are what the code checks: the server refuses their delete, so none is offered.
  deletable: (record) => !isBuiltInPermission(String(record.name)),
};
