/**
 * A plain CRUD resource, described (resource-description.ts), becomes routes (resource-routes.ts: parse, authorise,
 * one call) over a service with plain inputs (resource-service.ts) over its repository (resource-repository.ts).
 * This module gathers what the rest of the server imports of them.
 */
export * from './resource-description';
export * from './resource-repository';
export * from './resource-service';
export * from './resource-routes';
