import { RESOURCES, type Service } from '../domain/resources';

export interface ApiRoute {
  service: Service;
  /** Path inside the service, without slashes: `{service}/{path}`, `{path}/{id}`, `{path}/lists`. */
  path: string;
}

/** A resource name → its route; undefined for a name no resource has. */
export type ApiRoutes = (resource: string) => Promise<ApiRoute | undefined>;

const custom: Record<string, ApiRoute> = Object.fromEntries(
  Object.entries(RESOURCES).map(([name, { service, path }]) => [name, { service, path }]),
);

/**
 * react-admin resource names (the app's route segments) → the five services' calls: the custom resources' from the
 * domain's table (src/domain/resources.ts), the plain resources' from their definitions, which load on first use so
 * the sign-in page carries none of them.
 */
export const apiRoutes: ApiRoutes = async (resource) => {
  if (custom[resource]) return custom[resource];
  const { definitionOf } = await import('../resources/definitions');
  const d = definitionOf(resource);
  return d && { service: d.service, path: d.path };
};
