import type { FieldSpecs } from '../domain/fields';
import type { ResourceFacts } from '../domain/resources';

/** The menu groups a described resource's entry may sit in (src/domain/access.ts); null: at the top level. */
export type MenuGroupId = 'configuration' | 'setting' | 'email-template' | null;

/**
 * A plain CRUD resource, defined once in `src/resources/<name>/definition.ts` and found there by both sides (the
 * browser through Vite's glob import, the server by reading the folder). Everything else is derived from it: the
 * browser's menu entry, data-provider route, access rule, list and form screens; the server's routes, zod record,
 * data scope and page cache; the test suite's access matrix, contract samples and page-cache set.
 *
 * Pure data: no React and no server code, so both sides load it. What a definition cannot say lives beside it:
 * React pieces in `src/resources/<name>/index.ts` (`screens`), server code in the server part its service's index.ts
 * keeps by name (`server: true` makes that part required by the type checker).
 */
export interface ResourceDefinition<F extends FieldSpecs = FieldSpecs> extends ResourceFacts {
  /** react-admin resource name: the route segment (/locations, /locations/create, /locations/{id}) and the folder. */
  name: string;
  /** Model name in 404 texts: 'No query results for model [Location] 7'. */
  model: string;
  /** The table the records live in. */
  table: string;
  /** Inputs, list columns (`list: true`) and the record's columns, with the rules both sides apply. */
  fields: F;
  /** Columns the search box looks in (text match, case-insensitive). */
  searchable: readonly string[];
  defaultSort: { field: string; order: 'asc' | 'desc' };
  /**
   * Whose rows a restricted user sees: 'global' (everyone's), or the columns naming a row's agent and client (a
   * user scoped to agents sees rows whose `agent` column is one of theirs; to clients likewise; a user scoped to
   * agents only sees nothing of a resource naming no agent column), or 'server': a rule that needs SQL of its own,
   * given by the server part.
   */
  scope: 'global' | 'server' | { agent?: string; client?: string };
  /** `<path>/lists` items for selects: the `text` column, the `value` column (default `id`). */
  lists: { text: string; value?: string; post?: boolean; filters?: string[]; extra?: string[]; access?: 'signed-in' | 'read' };
  /** Its left-menu entry: the group, the icon's name (src/custom/layout/menuIcons.ts) and the place in the group. */
  menu: { group: MenuGroupId; icon: string; position: number; label?: string };
  /** A record's name in titles, breadcrumbs and reference inputs: one of its columns. */
  recordRepresentation: string;
  /**
   * Text columns no two records share (trimmed, case-insensitive, runs of spaces as one): a write repeating one is a
   * 422 'Name has already been taken.' on that field, so no select lists two records by one name.
   */
  unique?: readonly string[];
  /** Create and delete are offered unless set to false (application settings: list and edit only). */
  actions?: { create?: false; delete?: false };
  /**
   * Opt-in: list pages are written as JSON by PostgreSQL and kept by each instance's page cache
   * (server/plugins/page-cache.ts), cleared when any table the page reads changes.
   */
  pageCache?: true;
  /** The server part in its service's index.ts adds code (scope SQL, joins, hooks): required there by type. */
  server?: true;
}

/**
 * The described resources by name. Each definition file adds itself (`declare module '../define'`), so maps keyed by
 * resource name (the services' server parts) are checked against the definitions by the type checker.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Definitions {}

export type DescribedResource = Extract<keyof Definitions, string>;

/** Checks a definition against the type and keeps its literal types (`server: true`, the service). */
export const defineResource = <const D extends ResourceDefinition>(definition: D): D => definition;

/** i18n keys derived from the name: menu label, search placeholder, form breadcrumbs (`resources.<name>.*`). */
export const resourceKeys = (d: Pick<ResourceDefinition, 'name' | 'menu'>) => ({
  menu: d.menu.label ?? `resources.${d.name}.menu`,
  search: `resources.${d.name}.search`,
  create: `resources.${d.name}.breadcrumb.create`,
  edit: `resources.${d.name}.breadcrumb.edit`,
});

/** The folder name of a definition's path (`./locations/definition.ts` → `locations`). */
export const folderOf = (path: string) => /([^/\\]+)[/\\]definition\.ts$/.exec(path)?.[1] ?? path;
