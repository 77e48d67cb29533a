import type { FieldSpecs } from './fields';

/** Australian states and territories; VIC stores VIC (the original system's VIC→ACT defect is fixed). */
export const AU_STATES = [
  { id: 'ACT', name: 'Australian Capital Territory' },
  { id: 'NSW', name: 'New South Wales' },
  { id: 'NT', name: 'Northern Territory' },
  { id: 'QLD', name: 'Queensland' },
  { id: 'SA', name: 'South Australia' },
  { id: 'TAS', name: 'Tasmania' },
  { id: 'VIC', name: 'Victoria' },
  { id: 'WA', name: 'Western Australia' },
] as const;

/** Shown as 'code - full name - country code'. */
export const stateLabel = (s: { id: string; name: string }) => `${s.id} - ${s.name} - AU`;

export const locationFields = {
  name: { type: 'text', label: 'Name', required: true, max: 255, list: true },
  state: { type: 'choice', label: 'State', required: true, choices: AU_STATES.map((s) => ({ id: s.id, name: stateLabel(s) })) },
  /** The agent running the site; an Agent user's new location defaults to their first agent. */
  agent_id: { type: 'reference', label: 'Agent', reference: 'agents' },
} satisfies FieldSpecs;
