/**
 * A success toast to show once after a full page reload (impersonation reloads the app):
 * kept in sessionStorage, so it belongs to this tab and survives only the next start.
 */
const KEY = 'pendingToast';

export const setPendingToast = (message: string) => sessionStorage.setItem(KEY, message);

/** The waiting message, removed as it is read. */
export function takePendingToast(): string | null {
  const message = sessionStorage.getItem(KEY);
  if (message !== null) sessionStorage.removeItem(KEY);
  return message || null;
}
