import type { Service } from './http';

export interface ApiRoute {
  service: Service;
  /** Path inside the service, without slashes: `{service}/{path}`, `{path}/{id}`, `{path}/lists`. */
  path: string;
}

/**
 * The one table from react-admin resource names (the route segments of spec 1 §2) to the
 * service calls of spec 1 §7 and spec 3 §7. Every resource of the specs is listed, so a new
 * resource screen only needs its description in src/resources.
 */
export const apiRoutes = {
  users: { service: 'user', path: 'users' },
  roles: { service: 'user', path: 'roles' },
  permissions: { service: 'user', path: 'permissions' },
  'app-settings': { service: 'user', path: 'options' },
  devices: { service: 'agent', path: 'devices' },
  locations: { service: 'agent', path: 'locations' },
  agents: { service: 'agent', path: 'agents' },
  webhooks: { service: 'agent', path: 'webhooks' },
  scans: { service: 'scan', path: 'scans' },
  quotes: { service: 'quote', path: 'quotes' },
  clients: { service: 'quote', path: 'clients' },
  products: { service: 'quote', path: 'products' },
  parts: { service: 'quote', path: 'parts' },
  panelgroups: { service: 'quote', path: 'panelGroups' },
  panels: { service: 'quote', path: 'panels' },
  'email-templates': { service: 'email', path: 'emailTemplates' },
} as const satisfies Record<string, ApiRoute>;

export type ApiResource = keyof typeof apiRoutes;
export type ApiRoutes = Readonly<Record<string, ApiRoute>>;
