import { locations } from './locations';
import type { ResourceDescription } from './types';

export type { ResourceDescription } from './types';

/** Every described resource; App renders one react-admin <Resource> per entry. */
export const resources: ResourceDescription[] = [locations];
