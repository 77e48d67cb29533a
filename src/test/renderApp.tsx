import { render } from '@testing-library/react';
import { TestMemoryRouter } from 'react-admin';
import { App } from '../App';

/** The whole app at `path`, with a spy on the router's current location. */
export function renderApp(path: string) {
  const location = { pathname: '' };
  const view = render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(l) => (location.pathname = l.pathname)}>
      <App />
    </TestMemoryRouter>,
  );
  return { ...view, location };
}
