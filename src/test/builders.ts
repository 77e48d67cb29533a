import type { CurrentUser } from '../session';

/** A signed-in user as the login call returns it; override what a test cares about. */
export const aUser = (overrides: Partial<CurrentUser> = {}): CurrentUser => ({
  id: 7,
  token: 'token-7',
  roles: ['Agent'],
  permissions: ['location'],
  first_name: 'Ada',
  last_name: 'Lovelace',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  consent: 1,
  agents: [3],
  clients: [],
  ...overrides,
});
