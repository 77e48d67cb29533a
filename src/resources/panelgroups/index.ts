import { panelGroupFields } from '../../domain/panel-groups';
import type { ResourceDescription } from '../types';

/**
 * Panel groups, one car view each: the image is uploaded as imageFile (multipart; an update is
 * POST panelGroups/{id}?_method=PUT), required on create; the list needs `part`, the form `panelgroup`.
 */
export const panelgroups: ResourceDescription = {
  name: 'panelgroups',
  fields: panelGroupFields,
  searchPlaceholder: 'resources.panelgroups.search',
  breadcrumbs: { create: 'resources.panelgroups.breadcrumb.create', edit: 'resources.panelgroups.breadcrumb.edit' },
  recordRepresentation: 'name',
  defaultSort: { field: 'position', order: 'ASC' },
};
