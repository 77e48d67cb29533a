import type { ApiResource } from '../dataProvider/apiRoutes';
import type { ResourceDescription } from './types';

/**
 * The resources the app registers, by name only: each description (fields, icons, rules) loads with
 * its screens, so the first download (the sign-in page) carries none of them.
 */
export interface ResourceEntry {
  name: ApiResource;
  /** False for list-and-edit resources (application settings). */
  create?: boolean;
  load: () => Promise<ResourceDescription>;
}

export const resourceEntries: ResourceEntry[] = [
  { name: 'locations', load: () => import('./locations').then((m) => m.locations) },
  { name: 'users', load: () => import('./users').then((m) => m.users) },
  { name: 'clients', load: () => import('./clients').then((m) => m.clients) },
  { name: 'agents', load: () => import('./agents').then((m) => m.agents) },
  { name: 'roles', load: () => import('./roles').then((m) => m.roles) },
  { name: 'permissions', load: () => import('./permissions').then((m) => m.permissions) },
  { name: 'devices', load: () => import('./devices').then((m) => m.devices) },
  { name: 'products', load: () => import('./products').then((m) => m.products) },
  { name: 'parts', load: () => import('./parts').then((m) => m.parts) },
  { name: 'panelgroups', load: () => import('./panelgroups').then((m) => m.panelgroups) },
  { name: 'panels', load: () => import('./panels').then((m) => m.panels) },
  { name: 'app-settings', create: false, load: () => import('./app-settings').then((m) => m.appSettings) },
  { name: 'email-templates', load: () => import('./email-templates').then((m) => m.emailTemplates) },
];
