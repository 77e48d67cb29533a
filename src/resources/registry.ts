import type { RaRecord } from 'react-admin';
import { folderOf, resourceKeys, type DescribedResource, type ResourceDefinition } from './define';
import type { ResourceDescription, ScreenExtras } from './types';

/** What a resource's own index.ts adds to its generated screens (React pieces a definition cannot hold). */
const screenModules = import.meta.glob<ScreenExtras>('./*/index.ts', { import: 'screens' });
/** The definitions, by folder; their code loads with the screens (names are known without it). */
const definitionModules = import.meta.glob<ResourceDefinition>('./*/definition.ts', { import: 'definition' });

/** The resources the app registers, by name only: each description loads with its screens. */
export interface ResourceEntry {
  name: DescribedResource;
  load: () => Promise<ResourceDescription>;
}

/** The browser's screens of a definition: its fields, keys and sorting, with what its index.ts adds. */
export function describe(d: ResourceDefinition, extras: ScreenExtras = {}): ResourceDescription {
  const keys = resourceKeys(d);
  const field = d.sortable.includes(d.defaultSort.field) ? d.defaultSort.field : '';
  return {
    name: d.name as DescribedResource,
    fields: d.fields,
    sortable: d.sortable,
    searchPlaceholder: keys.search,
    breadcrumbs: { create: keys.create, edit: keys.edit },
    recordRepresentation: (record: RaRecord) => String(record[d.recordRepresentation] ?? ''),
    // '' leaves the order to the server's default (panels: by group, then position).
    defaultSort: { field, order: d.defaultSort.order === 'desc' ? 'DESC' : 'ASC' },
    ...(d.actions ? { actions: d.actions } : {}),
    ...extras,
  };
}

const load = (name: string) => async () => {
  const screens = screenModules[`./${name}/index.ts`];
  const [definition, extras] = await Promise.all([definitionModules[`./${name}/definition.ts`](), screens ? screens() : undefined]);
  return describe(definition, extras);
};

export const resourceEntries: ResourceEntry[] = Object.keys(definitionModules).map((path) => {
  const name = folderOf(path) as DescribedResource;
  return { name, load: load(name) };
});

/** Every described resource, loaded (tests; the app loads each with its screens). */
export const loadResources = (): Promise<ResourceDescription[]> => Promise.all(resourceEntries.map((entry) => entry.load()));
