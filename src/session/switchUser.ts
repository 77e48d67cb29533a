import { setCurrentUser, setImpersonatedUser, type CurrentUser } from './currentUser';
import { setPendingToast } from './pendingToast';
import { dropSelection } from './selection';

/**
 * Impersonation's hand-over: store the user the server signed in (with its token) and the
 * admin marker, drop the header selection (it belonged to the other user), then go to / and reload
 * the whole app, so nothing cached for the previous user survives; `toast` shows after the reload.
 */
export function switchUser(user: CurrentUser, impersonatedBy: number | null, toast: string) {
  setCurrentUser(user);
  setImpersonatedUser(impersonatedBy);
  dropSelection();
  setPendingToast(toast);
  window.location.assign('/');
}
