import { STORAGE_KEYS, readStored, useStored, writeStored } from './storage';

/** A header selection: one id, several, or null for 'all' ("a single value or a list"). */
export type Selection = number | number[] | null;

/** The selected agent's branding as stored under selectedAgentDetails. */
export interface AgentBranding {
  id: number;
  name: string;
  primaryColor: string;
  textColor: string;
  logo: string | null;
}

const positive = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;

export function toSelection(value: unknown): Selection {
  if (positive(value)) return value as number;
  if (Array.isArray(value)) {
    const list = value.filter(positive) as number[];
    return list.length ? list : null;
  }
  return null;
}

/** Header value for X_SNG_AGENTS / X_SNG_CLIENTS; undefined means "send nothing". */
export const selectionHeader = (s: Selection): string | undefined => (s === null ? undefined : Array.isArray(s) ? s.join(',') : String(s));

export const getSelectedAgent = () => toSelection(readStored(STORAGE_KEYS.selectedAgent));
export const getSelectedClient = () => toSelection(readStored(STORAGE_KEYS.selectedClient));
export const setSelectedAgent = (s: Selection) => writeStored(STORAGE_KEYS.selectedAgent, s);
export const setSelectedClient = (s: Selection) => writeStored(STORAGE_KEYS.selectedClient, s);
export const useSelectedAgent = () => useStored(STORAGE_KEYS.selectedAgent, toSelection);
export const useSelectedClient = () => useStored(STORAGE_KEYS.selectedClient, toSelection);

export function toAgentBranding(value: unknown): AgentBranding | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (!positive(v.id)) return null;
  const str = (x: unknown) => (typeof x === 'string' ? x : '');
  return {
    id: v.id as number,
    name: str(v.name),
    primaryColor: str(v.primaryColor ?? v.primary_color),
    textColor: str(v.textColor ?? v.text_color),
    logo: str(v.logo) || null,
  };
}

export const setAgentBranding = (b: AgentBranding | null) => writeStored(STORAGE_KEYS.selectedAgentDetails, b);
export const useAgentBranding = () => useStored(STORAGE_KEYS.selectedAgentDetails, toAgentBranding);

/**
 * At sign-in: the header's agent and client selection and the agent's branding are the signed-in user's own, so
 * another user signing in on the same browser starts from none (the spec's logout leaves them in storage).
 */
export function claimSelection(userId: number) {
  if (readStored(STORAGE_KEYS.selectionOwner) === userId) return;
  dropSelection();
  writeStored(STORAGE_KEYS.selectionOwner, userId);
}

/** No header agent or client chosen, and the default theme: what another user starts from. */
export function dropSelection() {
  setSelectedAgent(null);
  setSelectedClient(null);
  setAgentBranding(null);
}
