import { lazyPage } from '../../components/lazyPage';
import type { ResourceDescription } from '../types';

/** Shared screens; their code (tables, inputs, validation) loads with the first resource page. */
export const ResourceList = lazyPage<{ description: ResourceDescription }, 'ResourceList'>(() => import('./ResourceList'), 'ResourceList');
export const ResourceForm = lazyPage<{ description: ResourceDescription }, 'ResourceForm'>(() => import('./ResourceForm'), 'ResourceForm');

/** The <Resource> props of a description: list at /{name}, form at /{name}/create (unless it offers no create) and /{name}/{id}. */
export const resourceScreens = (description: ResourceDescription) => ({
  name: description.name,
  icon: description.icon,
  recordRepresentation: description.recordRepresentation,
  list: <ResourceList description={description} />,
  create: description.actions?.create === false ? undefined : <ResourceForm description={description} />,
  edit: <ResourceForm description={description} />,
});
