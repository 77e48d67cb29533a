import { panelGroupFields } from '../../domain/panel-groups';
import { defineResource } from '../define';

/** Groups of panels, in their order on the quote. */
export const definition = defineResource({
  name: 'panelgroups',
  service: 'quote',
  path: 'panelGroups',
  permission: 'panelgroup',
  list: 'part',
  model: 'PanelGroup',
  table: 'panel_groups',
  fields: panelGroupFields,
  searchable: ['name'],
  sortable: ['name', 'position', 'created_at'],
  defaultSort: { field: 'position', order: 'asc' },
  scope: 'global',
  lists: { text: 'name' },
  menu: { group: 'setting', icon: 'Category', position: 7, label: 'app.menu.panelgroups' },
  recordRepresentation: 'name',
  unique: ['name'],
  pageCache: true,
  server: true,
});

declare module '../define' {
  interface Definitions {
    panelgroups: typeof definition;
  }
}
