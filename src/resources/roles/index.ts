import type { ScreenExtras } from '../types';

/** Roles: Name, Created, Action; the permissions input offers permission names from permissions/lists. */
export const screens: ScreenExtras = {
  extraColumns: [{ source: 'created_at', type: 'datetime' }],
};
