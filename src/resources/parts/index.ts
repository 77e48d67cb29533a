import BuildIcon from '@mui/icons-material/Build';
import { partFields } from '../../domain/catalogue';
import type { ResourceDescription } from '../types';

/** Parts (spec 3 §2, §5): the rows of the clients' price matrices; name required; pages of 10. */
export const parts: ResourceDescription = {
  name: 'parts',
  icon: BuildIcon,
  fields: partFields,
  searchPlaceholder: 'resources.parts.search',
  breadcrumbs: { create: 'resources.parts.breadcrumb.create', edit: 'resources.parts.breadcrumb.edit' },
  recordRepresentation: 'name',
  sortable: ['name', 'type', 'created_at'],
  defaultSort: { field: 'name', order: 'ASC' },
};
