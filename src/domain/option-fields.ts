import type { FieldSpecs } from './fields';

/** Application settings: a list of named options, edited one at a time; no create or delete. */
export const OPTION_NAMES = {
  GST_PERCENT: 'GST_PERCENT',
  TERMS_AND_CONDITIONS: 'TERMS_AND_CONDITIONS',
  EMAIL_DEFAULT_HEADER: 'EMAIL_DEFAULT_HEADER',
  EMAIL_DEFAULT_FOOTER: 'EMAIL_DEFAULT_FOOTER',
  /** The most megabytes of uploads stored for one agent (its devices' scan images and videos) or one user. */
  UPLOAD_QUOTA_MB: 'UPLOAD_QUOTA_MB',
  /** Tread depths in mm: below the legal minimum a tyre is unroadworthy, below the recommended one it is due soon. */
  TYRE_LEGAL_MIN_MM: 'TYRE_LEGAL_MIN_MM',
  TYRE_RECOMMENDED_MIN_MM: 'TYRE_RECOMMENDED_MIN_MM',
  /** How many days back a scan looks for its vehicle's previous scan to compare with. */
  VEHICLE_COMPARE_WINDOW_DAYS: 'VEHICLE_COMPARE_WINDOW_DAYS',
  /** How many days a quote's approval link stays valid. */
  QUOTE_APPROVAL_DAYS: 'QUOTE_APPROVAL_DAYS',
} as const;

/** 'editor' values are HTML from the rich-text editor (sanitised on the server); 'text' values are plain. */
export const OPTION_FIELD_TYPES = [
  { id: 'text', name: 'Text' },
  { id: 'editor', name: 'Editor' },
] as const;

export const OPTION_VALUE_MAX = 200_000;

export const optionFields = {
  option_name: { type: 'text', label: 'Option Name', readOnly: true, list: true },
  option_value: { type: 'text', label: 'Option Value', required: true, multiline: true, max: OPTION_VALUE_MAX, list: true },
  /** Fixed per option by the installation: the stored type decides how a value is checked and shown. */
  field_type: { type: 'choice', label: 'Field Type', choices: OPTION_FIELD_TYPES, readOnly: true },
} satisfies FieldSpecs;

/** Shown with spaces for underscores. */
export const optionLabel = (name: string) => name.replace(/_/g, ' ');
