import { menuOf } from '../domain/access';
import { folderOf, type ResourceDefinition } from './define';

/**
 * Every src/resources/<name>/definition.ts, found by Vite's glob import: adding a resource is adding its folder.
 * Loaded with the signed-in screens (the layout, the data provider's first call), never by the sign-in page.
 */
const modules = import.meta.glob<ResourceDefinition>('./*/definition.ts', { eager: true, import: 'definition' });

export const DEFINITIONS: readonly ResourceDefinition[] = Object.entries(modules).map(([path, definition]) => {
  if (definition.name !== folderOf(path)) throw new Error(`${path} must define the resource '${folderOf(path)}'`);
  return definition;
});

const byName = new Map(DEFINITIONS.map((d) => [d.name, d]));
export const definitionOf = (name: string) => byName.get(name);

/** The left menu with every defined resource in its place. */
export const MENU = menuOf(DEFINITIONS);
