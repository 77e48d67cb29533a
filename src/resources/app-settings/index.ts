import { OPTION_VALUE_MAX, optionLabel } from '../../domain/option-fields';
import type { ScreenExtras } from '../types';

/**
 * Application settings (resource `options`, permission `user`): a list and an edit form only.
 * The name shows with spaces for underscores, the value as HTML; the value is edited in the rich-text
 * editor when the setting's field_type is 'editor', else in a textarea; saving says 'Setting Updated'.
 */
export const screens: ScreenExtras = {
  breadcrumbs: { create: 'resources.app-settings.breadcrumb.edit', edit: 'resources.app-settings.breadcrumb.edit' },
  recordRepresentation: (record) => optionLabel(String(record.option_name ?? '')),
  columnDisplay: {
    option_name: (value) => optionLabel(typeof value === 'string' ? value : ''),
    option_value: 'html',
  },
  form: {
    readOnlyInputs: ['option_name'],
    fieldFor: {
      option_value: (spec, record) =>
        record?.field_type === 'editor' ? { label: spec.label, required: true, type: 'richtext', max: OPTION_VALUE_MAX } : spec,
    },
  },
  messages: { updated: 'resources.app-settings.notification.updated' },
};
