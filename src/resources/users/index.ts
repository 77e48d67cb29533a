import { lazyComponent } from '../../components/lazyComponent';
import { ROLE_AGENT, ROLE_CLIENT } from '../../domain/permissions';
import { mayGrantRole, rolesInclude, setsPasswordOf, userRefine } from '../../domain/users';
import { getCurrentUser } from '../../session';
import type { ScreenExtras } from '../types';

/** Users: the list, the form with role-dependent agents and clients, impersonation and the API key. */
export const screens: ScreenExtras = {
  recordRepresentation: (record) => `${String(record.first_name ?? '')} ${String(record.last_name ?? '')}`.trim(),
  // Created is shown but not sortable (the server still sorts by it by default).
  extraColumns: [{ source: 'created_at', type: 'datetime', sortable: false }],
  rowActions: [lazyComponent(() => import('./ImpersonateButton'), 'ImpersonateButton')],
  deletable: (record) => record.id !== getCurrentUser()?.id,
  form: {
    refine: userRefine,
    conditions: {
      // Shown (and required) with the role; deselecting the role clears the list.
      agents: { on: ['roles'], when: ({ roles }) => rolesInclude(roles, ROLE_AGENT), required: true },
      clients: { on: ['roles'], when: ({ roles }) => rolesInclude(roles, ROLE_CLIENT), required: true },
      // On create; on edit only a Super Admin sets another user's password (a user changes their own on the profile).
      password: { on: ['id'], when: ({ id }, mode) => mode === 'create' || setsPasswordOf(getCurrentUser(), id) },
    },
    // A restricted manager grants only roles they hold (the server refuses the others); a role the user has may stay.
    offered: {
      roles: (role, record) => {
        const me = getCurrentUser();
        return !me || mayGrantRole(me, String(role), record?.roles);
      },
    },
    helperTexts: { password: { create: 'resources.users.helper.password', edit: 'resources.users.helper.password_edit' } },
    extras: lazyComponent(() => import('./ApiKeyChip'), 'UserFormExtras'),
  },
};
