import { defineResource } from '../resources/define';

/**
 * A plain resource as a newcomer adds it (three fields, scoped by client), never in src/resources: the browser and
 * server tests make its screens and routes from it, and the route-walking server tests serve it beside the real ones.
 */
export const scratchInsurers = defineResource({
  name: 'scratch-insurers',
  service: 'quote',
  path: 'scratchInsurers',
  permission: 'client',
  model: 'ScratchInsurer',
  table: 'scratch_insurers',
  fields: {
    name: { type: 'text', label: 'Name', required: true, max: 255, list: true },
    email: { type: 'text', label: 'Email', email: true, max: 255, list: true },
    client_id: { type: 'reference', label: 'Client', reference: 'clients', required: true },
  },
  searchable: ['name', 'email'],
  sortable: ['name', 'email', 'created_at'],
  defaultSort: { field: 'name', order: 'asc' },
  scope: { client: 'client_id' },
  lists: { text: 'name' },
  menu: { group: 'setting', icon: 'Shield', position: 10 },
  recordRepresentation: 'name',
  pageCache: true,
});
