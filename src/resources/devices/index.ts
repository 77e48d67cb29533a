import type { ScreenExtras } from '../types';

/** Devices: the list shows Location Name, Type, Owner (the record's joined names); every input is required. */
export const screens: ScreenExtras = {
  extraColumns: [
    { source: 'location_name', type: 'text' },
    { source: 'owner', type: 'text' },
  ],
  columnOrder: ['location_name', 'type', 'owner'],
};
