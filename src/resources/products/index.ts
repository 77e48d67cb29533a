import Inventory2Icon from '@mui/icons-material/Inventory2';
import { productFields } from '../../domain/catalogue';
import type { ResourceDescription } from '../types';

/** Products (spec 3 §2, §5): name, type, price at least 1; pages of 10. */
export const products: ResourceDescription = {
  name: 'products',
  icon: Inventory2Icon,
  fields: productFields,
  searchPlaceholder: 'resources.products.search',
  breadcrumbs: { create: 'resources.products.breadcrumb.create', edit: 'resources.products.breadcrumb.edit' },
  recordRepresentation: 'name',
  sortable: ['name', 'type', 'price', 'created_at'],
  defaultSort: { field: 'name', order: 'ASC' },
};
