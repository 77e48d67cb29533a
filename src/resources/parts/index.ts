import { partFields } from '../../domain/catalogue';
import type { ResourceDescription } from '../types';

/** Parts: the rows of the clients' price matrices; name required; pages of 10. */
export const parts: ResourceDescription = {
  name: 'parts',
  fields: partFields,
  searchPlaceholder: 'resources.parts.search',
  breadcrumbs: { create: 'resources.parts.breadcrumb.create', edit: 'resources.parts.breadcrumb.edit' },
  recordRepresentation: 'name',
  defaultSort: { field: 'name', order: 'ASC' },
};
