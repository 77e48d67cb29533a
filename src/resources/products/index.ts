import { productFields } from '../../domain/catalogue';
import type { ResourceDescription } from '../types';

/** Products: name, type, price at least 1; pages of 10. */
export const products: ResourceDescription = {
  name: 'products',
  fields: productFields,
  searchPlaceholder: 'resources.products.search',
  breadcrumbs: { create: 'resources.products.breadcrumb.create', edit: 'resources.products.breadcrumb.edit' },
  recordRepresentation: 'name',
  defaultSort: { field: 'name', order: 'ASC' },
};
