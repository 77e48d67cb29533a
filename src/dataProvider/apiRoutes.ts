import { RESOURCES, type ResourceFacts, type Service } from '../domain/resources';

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

/** A plain resource's facts by name, from its definition (src/resources); undefined for a name none has. */
export type DefinitionLookup = (resource: string) => Promise<ResourceFacts | undefined>;

/**
 * react-admin resource names (the app's route segments) → the five services' calls: the custom resources' from the
 * domain's table (src/domain/resources.ts), the plain resources' from their definitions (`definitionOf`, given by
 * the app's root, loads them on first use so the sign-in page carries none of them).
 */
export const apiRoutesOf =
  (definitionOf: DefinitionLookup): ApiRoutes =>
  async (resource) => {
    if (custom[resource]) return custom[resource];
    const d = await definitionOf(resource);
    return d && { service: d.service, path: d.path };
  };
