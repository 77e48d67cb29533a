import { panelFields } from '../../domain/catalogue';
import type { ResourceDescription } from '../types';

/** Panels: type D by default, status 1 by default; the list needs `part`, the form `panel`; pages of 10. */
export const panels: ResourceDescription = {
  name: 'panels',
  fields: panelFields,
  searchPlaceholder: 'resources.panels.search',
  breadcrumbs: { create: 'resources.panels.breadcrumb.create', edit: 'resources.panels.breadcrumb.edit' },
  recordRepresentation: 'name',
  // No sort sent: the server's own order, by group position then panel position, until a column is chosen.
  defaultSort: { field: '', order: 'ASC' },
};
