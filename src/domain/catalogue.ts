import type { FieldSpecs } from './fields';

/** Scanner kinds a product or part belongs to. */
export const SCAN_TYPES = [
  { id: 'arch', name: 'Arch' },
  { id: 'chasis', name: 'Chasis' },
  { id: 'tire', name: 'Tire' },
] as const;

/** Panel and vehicle types. */
export const PANEL_TYPES = [
  { id: 'D', name: 'Default' },
  { id: 'L', name: 'Large' },
  { id: 'XL', name: 'Extra Large' },
] as const;

/** Money inputs are stored as numeric(12,2): this keeps a typed amount inside it. */
export const MAX_AMOUNT = 99_999_999;

/** Products added to quotes (name required, price required and at least 1, type not validated beyond its choices). */
export const productFields = {
  name: { type: 'text', label: 'Name', required: true, max: 255, list: true },
  type: { type: 'choice', label: 'Type', choices: SCAN_TYPES, list: true },
  price: { type: 'number', label: 'Price', required: true, min: 1, max: MAX_AMOUNT, list: true },
} satisfies FieldSpecs;

/** Parts: the rows of a client's price matrices (name required). */
export const partFields = {
  name: { type: 'text', label: 'Name', required: true, max: 255, list: true },
  type: { type: 'choice', label: 'Type', choices: SCAN_TYPES, list: true },
} satisfies FieldSpecs;

/**
 * Panels of a panel group. `hasLargeVariant` and `carPanel` keep the wire names
 * (stored as has_large_variant, car_panel); `part_id` names the part whose matrix row prices the panel.
 */
export const panelFields = {
  panel_group_id: { type: 'reference', label: 'Panel Group', reference: 'panelgroups', required: true, list: true },
  name: { type: 'text', label: 'Name', required: true, max: 255, list: true },
  label: { type: 'text', label: 'Label', required: true, max: 255, list: true },
  type: { type: 'choice', label: 'Type', choices: PANEL_TYPES, required: true, default: 'D', list: true },
  position: { type: 'number', label: 'Position', required: true, integer: true, min: 1, max: 10_000, list: true },
  status: { type: 'boolean', label: 'Status', default: true, list: true },
  hasLargeVariant: { type: 'boolean', label: 'Has Large Variant', default: false },
  carPanel: { type: 'text', label: 'Car Panel', max: 100, list: true },
  part_id: { type: 'reference', label: 'Part', reference: 'parts' },
} satisfies FieldSpecs;
