import type { DescribedResource } from '../domain/resources';
import type { ResourceDescription } from './types';

/**
 * The resources the app registers, by name only: each description (fields, rules) loads with its
 * screens, so the first download (the sign-in page) carries none of them.
 */
export interface ResourceEntry {
  name: DescribedResource;
  /** False for list-and-edit resources (application settings). */
  create?: boolean;
  load: () => Promise<ResourceDescription>;
}

/**
 * The one list of described resources: typed by the domain's resource table, so a plain resource
 * without its loader (or a loader for a resource the table does not describe) fails the type check.
 */
const loaders: Record<DescribedResource, Omit<ResourceEntry, 'name'>> = {
  locations: { load: () => import('./locations').then((m) => m.locations) },
  users: { load: () => import('./users').then((m) => m.users) },
  clients: { load: () => import('./clients').then((m) => m.clients) },
  agents: { load: () => import('./agents').then((m) => m.agents) },
  roles: { load: () => import('./roles').then((m) => m.roles) },
  permissions: { load: () => import('./permissions').then((m) => m.permissions) },
  devices: { load: () => import('./devices').then((m) => m.devices) },
  products: { load: () => import('./products').then((m) => m.products) },
  parts: { load: () => import('./parts').then((m) => m.parts) },
  panelgroups: { load: () => import('./panelgroups').then((m) => m.panelgroups) },
  panels: { load: () => import('./panels').then((m) => m.panels) },
  'app-settings': { create: false, load: () => import('./app-settings').then((m) => m.appSettings) },
  'email-templates': { load: () => import('./email-templates').then((m) => m.emailTemplates) },
};

export const resourceEntries: ResourceEntry[] = (Object.keys(loaders) as DescribedResource[]).map((name) => ({ name, ...loaders[name] }));

/** Every described resource, loaded (tests; the app loads each with its screens). */
export const loadResources = (): Promise<ResourceDescription[]> => Promise.all(resourceEntries.map((entry) => entry.load()));
