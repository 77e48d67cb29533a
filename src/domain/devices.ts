import type { FieldSpecs } from './fields';

/** Scanner kinds; 'chasis' is the product's spelling and the stored value. */
export const DEVICE_TYPES = [
  { id: 'arch', name: 'Arch' },
  { id: 'chasis', name: 'Chasis' },
  { id: 'tire', name: 'Tire' },
] as const;

/** A scanning device (every field required). */
export const deviceFields = {
  location_id: { type: 'reference', label: 'Location', reference: 'locations', required: true, sameAs: 'agent_id' },
  type: { type: 'choice', label: 'Type', required: true, choices: DEVICE_TYPES, list: true },
  agent_id: { type: 'reference', label: 'Owner', reference: 'agents', required: true },
  serial: { type: 'text', label: 'Serial', required: true, max: 100 },
  default_client_id: { type: 'reference', label: 'Default Client', reference: 'clients', required: true },
} satisfies FieldSpecs;
