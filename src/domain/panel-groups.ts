import type { FieldSpecs } from './fields';

/** A panel group, one car view: name, an image uploaded as imageFile (required on create), position ≥ 1. */
export const panelGroupFields = {
  name: { type: 'text', label: 'Name', required: true, max: 255, list: true },
  image: { type: 'image', label: 'Image', upload: 'imageFile', requiredOnCreate: true, list: true },
  position: { type: 'number', label: 'Position', required: true, integer: true, min: 1, max: 1000, list: true },
} satisfies FieldSpecs;
