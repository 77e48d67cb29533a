import { messages } from './messages';
import type { FieldSpecs } from './fields';

/** Interface languages of an agent's portal and documents. */
export const AGENT_LANGUAGES = [
  { id: 'en', name: 'English' },
  { id: 'ja', name: '日本語' },
] as const;

/** primary colour #0C1839 (stored lower-case as the form's colour picker gives it), text colour #000000. */
export const AGENT_DEFAULT_PRIMARY_COLOR = '#0c1839';
export const AGENT_DEFAULT_TEXT_COLOR = '#000000';

/**
 * Customer portal access: 'enrolled' (default) asks a browser once for the pincode and keeps a
 * signed kiosk token; 'open' needs no enrolment.
 */
export const PORTAL_MODES = [
  { id: 'enrolled', name: 'Enrolled (PIN once per device)' },
  { id: 'open', name: 'Open' },
] as const;
export type PortalMode = (typeof PORTAL_MODES)[number]['id'];

/** The portal pincode: exactly six digits. */
export const PINCODE_PATTERN = '^\\d{6}$';

/** An agent (validation): the pincode is write-only, required on create, blank on edit keeps it. */
export const agentFields = {
  name: { type: 'text', label: 'Name', required: true, max: 255, list: true },
  logo: { type: 'image', label: 'Logo', upload: 'logoFile' },
  phone: { type: 'text', label: 'Phone', required: true, max: 50, list: true },
  email: { type: 'text', label: 'Email', required: true, email: true, max: 255, list: true },
  address: { type: 'text', label: 'Address', required: true, max: 500, multiline: true },
  portal_email_address: { type: 'text', label: 'Portal Email Address', required: true, email: true, max: 255 },
  abn: { type: 'text', label: 'ABN', required: true, max: 50 },
  pincode: {
    type: 'secret',
    label: 'Pincode',
    requiredOnCreate: true,
    min: 6,
    pattern: { regex: PINCODE_PATTERN, message: messages.digits('Pincode', 6) },
  },
  is_enabled: { type: 'boolean', label: 'Enabled', numeric: true, default: 1, list: true },
  portal_mode: { type: 'choice', label: 'Customer Portal Access', choices: PORTAL_MODES, default: 'enrolled' },
  default_client_id: { type: 'reference', label: 'Default Client', reference: 'clients', required: true },
  primary_color: { type: 'color', label: 'Primary Color', default: AGENT_DEFAULT_PRIMARY_COLOR },
  text_color: { type: 'color', label: 'Text Color', default: AGENT_DEFAULT_TEXT_COLOR },
  blurb: { type: 'richtext', label: 'Blurb' },
  language: { type: 'choice', label: 'Language', required: true, choices: AGENT_LANGUAGES },
} satisfies FieldSpecs;
