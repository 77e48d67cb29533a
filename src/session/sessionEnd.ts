/**
 * The server refused the session (401: expired, revoked, signed out elsewhere). The auth provider says so here rather
 * than through react-admin's checkError rejection, which would log out and then hand the refused call back as an empty
 * success (`{data: {}}`), so a form would say 'Updated Successfully' for a save the server never stored. The call
 * fails as it should, and the listener inside the app (`useSessionEnd`) signs out and goes to /login.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function onSessionEnd(listener: Listener) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function endSession() {
  for (const listener of listeners) listener();
}
