import PlaceIcon from '@mui/icons-material/Place';
import { locationFields } from '../../domain/locations';
import type { ResourceDescription } from '../types';

/** Locations (spec 1 §2, §3); the list shows the fields the domain marks `list`. */
export const locations: ResourceDescription = {
  name: 'locations',
  icon: PlaceIcon,
  fields: locationFields,
  searchPlaceholder: 'resources.locations.search',
  breadcrumbs: { create: 'resources.locations.breadcrumb.create', edit: 'resources.locations.breadcrumb.edit' },
  recordRepresentation: 'name',
  sortable: ['name', 'state', 'created_at'],
  defaultSort: { field: 'name', order: 'ASC' },
};
