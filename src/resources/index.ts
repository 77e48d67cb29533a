export type { ResourceDescription } from './types';
export { loadResources, resourceEntries, type ResourceEntry } from './registry';
