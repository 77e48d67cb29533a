import { panelFields } from '../../domain/catalogue';
import { defineResource } from '../define';

/** Panels: the car's panels priced on a quote, with their group and part (server part: quote service). */
export const definition = defineResource({
  name: 'panels',
  service: 'quote',
  path: 'panels',
  permission: 'panel',
  list: 'part',
  model: 'Panel',
  table: 'panels',
  fields: panelFields,
  searchable: ['name', 'label', 'carPanel', 'panel_group_name', 'part_name'],
  sortable: ['name', 'label', 'type', 'position', 'panel_group_name', 'part_name', 'carPanel', 'created_at'],
  defaultSort: { field: 'place', order: 'asc' },
  scope: 'global',
  lists: { text: 'name', post: true, filters: ['panel_group_id', 'type', 'carPanel', 'part_id'] },
  menu: { group: 'setting', icon: 'ViewQuilt', position: 8, label: 'app.menu.panels' },
  recordRepresentation: 'name',
  pageCache: true,
  server: true,
});

declare module '../define' {
  interface Definitions {
    panels: typeof definition;
  }
}
