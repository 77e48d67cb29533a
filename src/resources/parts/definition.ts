import { partFields } from '../../domain/catalogue';
import { defineResource } from '../define';

/** Parts a car panel is made of. */
export const definition = defineResource({
  name: 'parts',
  service: 'quote',
  path: 'parts',
  permission: 'part',
  model: 'Part',
  table: 'parts',
  fields: partFields,
  searchable: ['name', 'type'],
  sortable: ['name', 'type', 'created_at'],
  defaultSort: { field: 'name', order: 'asc' },
  scope: 'global',
  lists: { text: 'name', post: true, filters: ['type'] },
  menu: { group: 'setting', icon: 'Build', position: 6, label: 'app.menu.parts' },
  recordRepresentation: 'name',
  unique: ['name'],
  pageCache: true,
  server: true,
});

declare module '../define' {
  interface Definitions {
    parts: typeof definition;
  }
}
