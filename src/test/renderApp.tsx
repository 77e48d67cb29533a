import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { TestMemoryRouter } from 'react-admin';
import { App } from '../App';

/**
 * `ui` in a memory router opened at `path`, with a spy on the router's current location and its `navigate` (a move
 * the screen itself offers no link for, as the menu would).
 */
export function renderAt(path: string, ui: ReactNode) {
  const location = { pathname: '' };
  let navigate: (to: string) => unknown = () => undefined;
  const view = render(
    <TestMemoryRouter
      initialEntries={[path]}
      locationCallback={(l) => (location.pathname = l.pathname)}
      navigateCallback={(n) => (navigate = n)}
    >
      {ui}
    </TestMemoryRouter>,
  );
  return { ...view, location, navigate: (to: string) => void navigate(to) };
}

/** The whole app at `path` (menu, header, every resource and page); a screen's own test uses renderScreen. */
export const renderApp = (path: string) => renderAt(path, <App />);
