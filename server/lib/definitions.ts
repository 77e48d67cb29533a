import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { FieldSpec, FieldSpecs } from '../../src/domain/fields';
import { routePermission, type Service } from '../../src/domain/resources';
import type { DescribedResource, Definitions, ResourceDefinition } from '../../src/resources/define';
import { idArray, registerResource, type ResourceDescription, type ScopeRule } from './resource';

/** The folder holding one folder per resource; those with a definition.ts are the described resources. */
const RESOURCES_DIR = fileURLToPath(new URL('../../src/resources/', import.meta.url));

declare module 'fastify' {
  interface FastifyInstance {
    /** The plain resources this app serves (buildApp: every definition under src/resources unless given). */
    definitions: readonly ResourceDefinition[];
  }
}

let loading: Promise<ResourceDefinition[]> | undefined;

/** Every definition under src/resources (the browser finds the same files through Vite's glob import), by name. */
export function loadDefinitions(): Promise<ResourceDefinition[]> {
  loading ??= (async () => {
    const folders = fs
      .readdirSync(RESOURCES_DIR, { withFileTypes: true })
      .filter((e) => e.isDirectory() && fs.existsSync(path.join(RESOURCES_DIR, e.name, 'definition.ts')))
      .map((e) => e.name)
      .sort();
    // A relative template import: Node (under tsx) resolves it beside this file, and a bundler such as esbuild (the
    // cluster's server bundle) takes in every file the pattern can name.
    const modules = await Promise.all(
      folders.map((f) => import(`../../src/resources/${f}/definition.ts`) as Promise<{ definition: ResourceDefinition }>),
    );
    return modules.map((m, i) => {
      if (m.definition?.name !== folders[i])
        throw new Error(`src/resources/${folders[i]}/definition.ts must define the resource '${folders[i]}'`);
      return m.definition;
    });
  })();
  return loading;
}

/**
 * What a service's code adds to one of its definitions: SQL the definition cannot say (a scope rule with a subquery,
 * joined names, hooks), or `routes: 'own'` for a resource the service answers with routes of its own.
 */
export type ServerPart = ResourcePart | { routes: 'own' };
/** The server description's members a definition does not say, or says and the part overrides (a scope with SQL). */
export type ResourcePart = Partial<Omit<ResourceDescription, 'path' | 'model' | 'table' | 'permission' | 'fields' | 'sortable' | 'lists'>>;

type PartNames<S extends Service> = {
  [K in DescribedResource]: Definitions[K] extends { service: S; server: true } ? K : never;
}[DescribedResource];

/** A service's server parts, keyed by resource name: a definition with `server: true` without its part is a type error. */
export type ServerParts<S extends Service> = { [K in PartNames<S>]: ServerPart };

/** The zod type of one field's column as a record carries it; null for what a record never carries. */
function columnType(spec: FieldSpec): z.ZodType | null {
  if (spec.virtual || spec.type === 'secret' || spec.type === 'references') return null;
  const base: z.ZodType =
    spec.type === 'number' || spec.type === 'reference' || (spec.type === 'boolean' && spec.numeric)
      ? z.number()
      : spec.type === 'boolean'
        ? z.boolean()
        : spec.type === 'multichoice'
          ? z.array(z.string())
          : z.string();
  return spec.required ? base : base.nullable();
}

/** The record as it leaves the server, from the fields: id, every stored field, created_at and updated_at. */
export function recordOf(fields: FieldSpecs): z.ZodObject {
  const columns = Object.entries(fields).flatMap(([name, spec]) => {
    const type = columnType(spec);
    return type ? [[name, type] as const] : [];
  });
  return z.object({ id: z.number(), ...Object.fromEntries(columns), created_at: z.date(), updated_at: z.date() });
}

/** A declarative scope as SQL: the rows whose agent (client) column names one of the request's agents (clients). */
function scopeRule(scope: ResourceDefinition['scope']): ScopeRule | 'global' {
  if (scope === 'global') return 'global';
  if (scope === 'server') throw new Error('a server scope rule is given by the server part');
  const column = (name: string | undefined) =>
    name ? (ids: number[]) => sql<boolean>`${sql.ref(name)} = any(${idArray(ids)})` : undefined;
  return { agent: column(scope.agent), client: column(scope.client) };
}

/** The server's description of a defined resource: derived from the definition, with the server part's additions. */
export function describeDefinition(d: ResourceDefinition, part: ResourcePart = {}): ResourceDescription {
  const agentColumn = typeof d.scope === 'object' && d.scope.agent !== 'id' ? d.scope.agent : undefined;
  return {
    path: d.path,
    model: d.model,
    table: d.table,
    permission: routePermission(d),
    fields: d.fields,
    record: part.record ?? recordOf(d.fields),
    searchable: [...d.searchable],
    sortable: [...d.sortable],
    defaultSort: d.defaultSort,
    scope: part.scope ?? scopeRule(d.scope),
    ...(d.global ? { unrestrictedWrites: true as const } : {}),
    ...(agentColumn ? { ownerAgentColumn: agentColumn } : {}),
    ...(d.owner ? { ownedBy: d.owner } : {}),
    ...(d.ownerReads ? { ownerReads: true as const } : {}),
    lists: d.lists,
    ...(d.unique ? { unique: d.unique } : {}),
    ...(d.pageCache ? { pageJson: true as const } : {}),
    ...part,
  };
}

/**
 * Registers a service's described resources: every definition of the service, with its server part. A definition
 * that asks for a part (`server: true`) and has none stops the start (the type checker says so first).
 */
export function registerDefinitions<S extends Service>(app: FastifyInstance, service: S, parts: ServerParts<S>) {
  const byName = parts as Record<string, ServerPart | undefined>;
  for (const d of app.definitions) {
    if (d.service !== service) continue;
    const part = byName[d.name];
    if (d.server && !part) throw new Error(`Resource ${d.name} needs its server part in the ${service} service`);
    if (part && 'routes' in part) continue;
    registerResource(app, describeDefinition(d, part));
  }
}
