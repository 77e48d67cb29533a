import { STORAGE_KEYS, readStored, useStored, writeStored } from './storage';

/** The signed-in user as the login call returns it. */
export interface CurrentUser {
  id: number;
  token: string;
  roles: string[];
  permissions: string[];
  first_name: string;
  last_name: string;
  name: string;
  email: string;
  consent: 0 | 1;
  agents: number[];
  clients: number[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const ids = (v: unknown) => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0) : []);
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** Normalises what the server or local storage holds; null unless it carries a token. */
export function toCurrentUser(value: unknown): CurrentUser | null {
  if (!isObject(value) || typeof value.token !== 'string' || !value.token) return null;
  return {
    id: Number(value.id),
    token: value.token,
    roles: strings(value.roles),
    permissions: strings(value.permissions),
    first_name: text(value.first_name),
    last_name: text(value.last_name),
    name: text(value.name),
    email: text(value.email),
    consent: value.consent === 1 || value.consent === true ? 1 : 0,
    agents: ids(value.agents),
    clients: ids(value.clients),
  };
}

export const getCurrentUser = (): CurrentUser | null => toCurrentUser(readStored(STORAGE_KEYS.currentUser));

export const setCurrentUser = (user: CurrentUser | null) => writeStored(STORAGE_KEYS.currentUser, user);

/** Replaces the stored user's profile with a server reply that carries no token (auth/user, profile, consent). */
export function mergeCurrentUser(reply: unknown): CurrentUser | null {
  const current = getCurrentUser();
  if (!current || !isObject(reply)) return current;
  const next = toCurrentUser({ ...current, ...reply, token: typeof reply.token === 'string' && reply.token ? reply.token : current.token });
  setCurrentUser(next);
  return next;
}

export const displayName = (user: Pick<CurrentUser, 'name' | 'first_name' | 'last_name'>) =>
  user.name.trim() || `${user.first_name} ${user.last_name}`.trim();

export const useCurrentUser = (): CurrentUser | null => useStored(STORAGE_KEYS.currentUser, toCurrentUser);

const toId = (v: unknown) => (Number.isSafeInteger(v) && (v as number) > 0 ? (v as number) : null);

/** While impersonating, the real admin's id. */
export const getImpersonatedUser = () => toId(readStored(STORAGE_KEYS.impersonatedUser));
export const setImpersonatedUser = (id: number | null) => writeStored(STORAGE_KEYS.impersonatedUser, id);
export const useImpersonatedUser = () => useStored(STORAGE_KEYS.impersonatedUser, toId);

export const getLastSeenPage = () => {
  const v = readStored(STORAGE_KEYS.lastSeenPage);
  return typeof v === 'string' ? v : null;
};
export const setLastSeenPage = (path: string) => writeStored(STORAGE_KEYS.lastSeenPage, path);
