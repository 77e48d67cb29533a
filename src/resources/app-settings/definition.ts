import { optionFields } from '../../domain/option-fields';
import { defineResource } from '../define';

/** Application settings: listed and edited, never created or deleted; the user service answers with routes of its own. */
export const definition = defineResource({
  name: 'app-settings',
  service: 'user',
  path: 'options',
  permission: 'user',
  edit: 'app_setting',
  global: true,
  model: 'Option',
  table: 'options',
  fields: optionFields,
  searchable: ['option_name'],
  sortable: ['option_name', 'created_at'],
  defaultSort: { field: 'option_name', order: 'asc' },
  scope: 'global',
  lists: { text: 'option_name' },
  menu: { group: 'setting', icon: 'Tune', position: 9, label: 'app.menu.app_settings' },
  recordRepresentation: 'option_name',
  actions: { create: false, delete: false },
  server: true,
});

declare module '../define' {
  interface Definitions {
    'app-settings': typeof definition;
  }
}
