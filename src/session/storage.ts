import { useMemo, useSyncExternalStore } from 'react';

/** Local-storage keys; values are JSON. */
export const STORAGE_KEYS = {
  currentUser: 'currentUser',
  lastSeenPage: 'lastSeenPage',
  impersonatedUser: 'impersonatedUser',
  selectedAgent: 'selectedAgent',
  selectedClient: 'selectedClient',
  selectedAgentDetails: 'selectedAgentDetails',
  /** The id of the user whose sign-in the header's selection and branding belong to. */
  selectionOwner: 'selectionOwner',
} as const;
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

const listeners = new Set<(key: StorageKey) => void>();

function parse(raw: string | null): unknown {
  if (raw === null) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

export const readStored = (key: StorageKey): unknown => parse(localStorage.getItem(key));

/** Writes (or removes, for null/undefined) and tells this tab's subscribers; other tabs get the storage event. */
export function writeStored(key: StorageKey, value: unknown): void {
  if (value === null || value === undefined) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(value));
  listeners.forEach((listener) => listener(key));
}

function subscribe(key: StorageKey, onChange: () => void): () => void {
  const local = (changed: StorageKey) => changed === key && onChange();
  const otherTab = (event: StorageEvent) => (event.key === key || event.key === null) && onChange();
  listeners.add(local);
  window.addEventListener('storage', otherTab);
  return () => {
    listeners.delete(local);
    window.removeEventListener('storage', otherTab);
  };
}

/** Calls `onChange` when the key is written in this tab or another; returns the unsubscribe (for code outside React). */
export const watchStored = (key: StorageKey, onChange: () => void): (() => void) => subscribe(key, onChange);

/** Re-renders when the key changes; `read` turns the parsed JSON into a typed value. */
export function useStored<T>(key: StorageKey, read: (value: unknown) => T): T {
  const raw = useSyncExternalStore(
    (onChange) => subscribe(key, onChange),
    () => localStorage.getItem(key),
  );
  return useMemo(() => read(parse(raw)), [raw, read]);
}
