import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiRoute } from '../../src/dataProvider/apiRoutes';
import { isGroup, menuOf, type MenuEntry, type MenuNode } from '../../src/domain/access';
import { RESOURCES } from '../../src/domain/resources';
import type { ResourceDefinition } from '../../src/resources/define';

/**
 * Every route of the app, read from the app's own definitions so that a route a later issue adds is
 * visited too: the menu (src/domain/access.ts), the resource registry (list, create, edit of a record)
 * and each custom page's exported `path` (src/custom/<page>/index.ts).
 */
export interface AppRoute {
  /** A route pattern as the app declares it: `/scans/:scanId`. */
  pattern: string;
  /** For a resource's edit form: the resource whose first record's id fills `:id`. */
  resource?: string;
  /** Where it comes from, for failure messages. */
  source: 'menu' | 'resource' | 'page';
}

const customDir = fileURLToPath(new URL('../../src/custom', import.meta.url));
const resourcesDir = fileURLToPath(new URL('../../src/resources', import.meta.url));

/**
 * The definitions' facts this needs, read from each src/resources/<name>/definition.ts as text (Playwright loads no
 * Vite glob; the unit tests check the definitions themselves).
 */
function definitions(): (MenuEntry & Pick<ResourceDefinition, 'actions'>)[] {
  return readdirSync(resourcesDir, { withFileTypes: true }).flatMap((folder) => {
    const file = join(resourcesDir, folder.name, 'definition.ts');
    if (!folder.isDirectory() || !existsSync(file)) return [];
    const text = readFileSync(file, 'utf8');
    const word = (key: string) => new RegExp(`\\b${key}: '([^']+)'`).exec(text)?.[1];
    const group = /group: (?:'([^']+)'|null)/.exec(text)?.[1] ?? null;
    return [
      {
        name: folder.name,
        service: word('service') as ResourceDefinition['service'],
        path: word('path')!,
        permission: word('permission') as ResourceDefinition['permission'],
        sortable: [],
        menu: { group, icon: word('icon') ?? '', position: Number(/position: (\d+)/.exec(text)?.[1] ?? 0) },
        ...(/create: false/.test(text) ? { actions: { create: false } } : {}),
      },
    ];
  });
}

/** Every resource's route: the custom resources' table and the definitions. */
const apiRoutes: Record<string, ApiRoute> = {
  ...Object.fromEntries(Object.entries(RESOURCES).map(([name, f]) => [name, { service: f.service, path: f.path }])),
  ...Object.fromEntries(definitions().map((d) => [d.name, { service: d.service, path: d.path }])),
};

/** `export const path = '/x'` of each page folder, and further routes as `export const <name>Path = '/x/:id'` (pages own their routes, STYLE.md). */
export function customPagePaths(): string[] {
  const paths: string[] = [];
  for (const folder of readdirSync(customDir, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const index = ['index.ts', 'index.tsx'].map((f) => join(customDir, folder.name, f)).find((f) => existsSync(f));
    if (!index) continue;
    for (const match of readFileSync(index, 'utf8').matchAll(/export const (?:path|[a-z]\w*Path) = ['"`]([^'"`]+)['"`]/g))
      paths.push(match[1]);
  }
  return paths;
}

const menuLeaves = (nodes: MenuNode[]): string[] => nodes.flatMap((n) => (isGroup(n) ? menuLeaves(n.children) : [n.to]));

export function appRoutes(): AppRoute[] {
  const routes: AppRoute[] = [];
  const add = (r: AppRoute) => {
    if (!routes.some((x) => x.pattern === r.pattern)) routes.push(r);
  };
  const defined = definitions();
  for (const to of menuLeaves(menuOf(defined))) add({ pattern: to, source: 'menu' });
  for (const d of defined) {
    add({ pattern: `/${d.name}`, source: 'resource' });
    if (d.actions?.create !== false) add({ pattern: `/${d.name}/create`, source: 'resource' });
    add({ pattern: `/${d.name}/:id`, resource: d.name, source: 'resource' });
  }
  for (const path of customPagePaths()) add({ pattern: path, source: 'page' });
  return routes;
}

/**
 * Parameters that name a record without a described resource (a bespoke page's records): the list to take the
 * first id from. `:quoteId` is a quote (`GET quote/quotes`).
 */
const PAGE_PARAMS: Record<string, ApiRoute> = {
  quoteId: { service: 'quote', path: 'quotes' },
};

/**
 * The list a route parameter's id comes from: `:scanId` → scans, `:agentId` → agents (the resource table), or a
 * bespoke page's records (PAGE_PARAMS). A parameter this cannot place throws, so a new route with an unusual
 * parameter is noticed rather than skipped.
 */
export function listOfParam(param: string, route: AppRoute): ApiRoute {
  if (param === 'id' && route.resource) return apiRoutes[route.resource];
  if (PAGE_PARAMS[param]) return PAGE_PARAMS[param];
  const base = param.replace(/Id$/, '').toLowerCase();
  const found = Object.keys(apiRoutes).find((name) => name.replace(/-/g, '') === `${base}s`);
  if (!found) throw new Error(`Route ${route.pattern}: no resource for the parameter :${param}; teach listOfParam`);
  return apiRoutes[found];
}

/** Parameters that name no record: an approval link's token (this one names no link, so its page says so). */
const FIXED_PARAMS: Record<string, string> = { token: 'x'.repeat(43) };

/** The route's URL with each `:param` replaced by the id of a demo record (`idOf` asks the API for the list's first). */
export async function routeUrl(route: AppRoute, idOf: (list: ApiRoute) => Promise<string>): Promise<string> {
  let url = route.pattern;
  for (const [whole, param] of route.pattern.matchAll(/:([A-Za-z]+)/g))
    url = url.replace(whole, FIXED_PARAMS[param] ?? (await idOf(listOfParam(param, route))));
  return url;
}
