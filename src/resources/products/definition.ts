import { productFields } from '../../domain/catalogue';
import { defineResource } from '../define';

/** Products a quote may add, with their price. */
export const definition = defineResource({
  name: 'products',
  service: 'quote',
  path: 'products',
  permission: 'product',
  model: 'Product',
  table: 'products',
  fields: productFields,
  searchable: ['name', 'type'],
  sortable: ['name', 'type', 'price', 'created_at'],
  defaultSort: { field: 'name', order: 'asc' },
  scope: 'global',
  lists: { text: 'name', post: true, filters: ['type'], extra: ['price'] },
  menu: { group: 'setting', icon: 'Inventory2', position: 5, label: 'app.menu.products' },
  recordRepresentation: 'name',
  unique: ['name'],
  pageCache: true,
});

declare module '../define' {
  interface Definitions {
    products: typeof definition;
  }
}
