import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { App } from './App';
import { warmUpIntl } from './boot/warmUpIntl';
import { DashboardPage } from './custom/dashboard';
import { AppLayout } from './custom/layout';
import { readStored, STORAGE_KEYS } from './session/storage';

warmUpIntl();

// A returning user (a session in local storage) needs the signed-in layout and, at /, the dashboard: their code and
// the screens' messages are fetched now, beside react-admin's start, instead of the layout's first render asking
// for them and the dashboard waiting for the layout (which delays the first paint).
// Each in a task of its own: starting a request (a modulepreload link per chunk, about 45 in all) costs the main thread
// a few ms, so both together would be one long task.
if (readStored(STORAGE_KEYS.currentUser)) {
  setTimeout(() => void AppLayout.preload(), 0);
  if (window.location.pathname === '/') setTimeout(() => void DashboardPage.preload(), 0);
}

// A data router (not react-admin's default hash router): the product's paths are real URLs (/login, /reset-password?token=).
const router = createBrowserRouter([{ path: '*', element: <App /> }]);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The first render as a transition: React renders it in slices, yielding to the browser between them.
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  ),
);
