import { RESOURCES, type ResourceName, type Service } from '../domain/resources';

export interface ApiRoute {
  service: Service;
  /** Path inside the service, without slashes: `{service}/{path}`, `{path}/{id}`, `{path}/lists`. */
  path: string;
}

export type ApiResource = ResourceName;
export type ApiRoutes = Readonly<Record<string, ApiRoute>>;

/**
 * react-admin resource names (the app's route segments) → the five services' calls, read from the domain's resource table (src/domain/resources.ts).
 */
export const apiRoutes: Record<ApiResource, ApiRoute> = Object.fromEntries(
  Object.entries(RESOURCES).map(([name, { service, path }]) => [name, { service, path }]),
) as Record<ApiResource, ApiRoute>;
