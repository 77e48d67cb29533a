import { deviceFields } from '../../domain/devices';
import type { ResourceDescription } from '../types';

/** Devices: the list shows Location Name, Type, Owner (the record's joined names); every input is required. */
export const devices: ResourceDescription = {
  name: 'devices',
  fields: deviceFields,
  searchPlaceholder: 'resources.devices.search',
  breadcrumbs: { create: 'resources.devices.breadcrumb.create', edit: 'resources.devices.breadcrumb.edit' },
  recordRepresentation: 'serial',
  defaultSort: { field: 'location_name', order: 'ASC' },
  extraColumns: [
    { source: 'location_name', type: 'text' },
    { source: 'owner', type: 'text' },
  ],
  columnOrder: ['location_name', 'type', 'owner'],
};
