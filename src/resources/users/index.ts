import { lazyComponent } from '../../components/lazyComponent';
import { ROLE_AGENT, ROLE_CLIENT } from '../../domain/permissions';
import { rolesInclude, userFields, userRefine } from '../../domain/users';
import type { ResourceDescription } from '../types';

/** Users: the list, the form with role-dependent agents and clients, impersonation and the API key. */
export const users: ResourceDescription = {
  name: 'users',
  fields: userFields,
  searchPlaceholder: 'resources.users.search',
  breadcrumbs: { create: 'resources.users.breadcrumb.create', edit: 'resources.users.breadcrumb.edit' },
  recordRepresentation: (record) => `${String(record.first_name ?? '')} ${String(record.last_name ?? '')}`.trim(),
  defaultSort: { field: 'created_at', order: 'DESC' },
  // Created is shown but not sortable (the server still sorts by it by default).
  extraColumns: [{ source: 'created_at', type: 'datetime', sortable: false }],
  rowActions: [lazyComponent(() => import('./ImpersonateButton'), 'ImpersonateButton')],
  form: {
    refine: userRefine,
    conditions: {
      // Shown (and required) with the role; deselecting the role clears the list.
      agents: { on: ['roles'], when: ({ roles }) => rolesInclude(roles, ROLE_AGENT) },
      clients: { on: ['roles'], when: ({ roles }) => rolesInclude(roles, ROLE_CLIENT) },
      password: { on: [], when: (_, mode) => mode === 'create' },
    },
    helperTexts: { password: { create: 'resources.users.helper.password' } },
    extras: lazyComponent(() => import('./ApiKeyChip'), 'UserFormExtras'),
  },
};
