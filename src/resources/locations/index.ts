import { locationFields } from '../../domain/locations';
import type { ResourceDescription } from '../types';

/** Locations; the list shows the fields the domain marks `list`. */
export const locations: ResourceDescription = {
  name: 'locations',
  fields: locationFields,
  searchPlaceholder: 'resources.locations.search',
  breadcrumbs: { create: 'resources.locations.breadcrumb.create', edit: 'resources.locations.breadcrumb.edit' },
  recordRepresentation: 'name',
  defaultSort: { field: 'name', order: 'ASC' },
};
