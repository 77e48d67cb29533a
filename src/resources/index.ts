import { agents } from './agents';
import { appSettings } from './app-settings';
import { clients } from './clients';
import { devices } from './devices';
import { emailTemplates } from './email-templates';
import { locations } from './locations';
import { panelgroups } from './panelgroups';
import { panels } from './panels';
import { parts } from './parts';
import { permissions } from './permissions';
import { products } from './products';
import { roles } from './roles';
import { users } from './users';
import type { ResourceDescription } from './types';

export type { ResourceDescription } from './types';

/** Every described resource; App renders one react-admin <Resource> per entry. */
export const resources: ResourceDescription[] = [
  locations,
  users,
  clients,
  agents,
  roles,
  permissions,
  devices,
  products,
  parts,
  panelgroups,
  panels,
  appSettings,
  emailTemplates,
];
