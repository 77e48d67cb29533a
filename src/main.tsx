import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, matchPath, RouterProvider } from 'react-router-dom';
import { App } from './App';
import { warmUpIntl } from './boot/warmUpIntl';
import { DashboardPage } from './custom/dashboard';
import { AppLayout } from './custom/layout';
import { pages, type PageEntry } from './custom/pages';
import { dataProvider } from './providers';
import { queryClient } from './queryClient';
import { readStored, STORAGE_KEYS } from './session/storage';

warmUpIntl();

// The code and the screens' messages of the page at this address (the dashboard at /) and of the signed-in layout
// around it are fetched now, beside react-admin's start, instead of the layout's first render asking for its code and
// the page's waiting for the layout's (which delays the first paint, and the data the page asks for once it renders).
// A page behind the sign-in only for a returning user (a session in local storage): anyone else goes to the sign-in
// page, which must stay light. Each in a task of its own: starting a request (a modulepreload link per chunk) costs
// the main thread a few ms, so all together would be one long task.
// A page that declares the data it shows first (`prefetch`) has that asked for now too, into the app's query cache.
const here = window.location.pathname;
const page = pages.find((p) => matchPath(p.path, here));
const entry: Pick<PageEntry, 'Page' | 'permission' | 'layout'> | undefined = here === '/' ? { Page: DashboardPage } : page;
const signedIn = Boolean(readStored(STORAGE_KEYS.currentUser));
// The data first: the server speaks HTTP/1.1, six connections at a time, and the code's few dozen files would take
// them all before the data's requests.
const params = page && matchPath(page.path, here)?.params;
if (signedIn && page?.prefetch && params) setTimeout(() => page.prefetch?.(params, { queryClient, dataProvider }), 0);
// A resource's screens (no bespoke page here) sit in the layout too.
if (signedIn && entry?.layout !== false) setTimeout(() => void AppLayout.preload(), 0);
const { preload } = (entry?.Page ?? {}) as { preload?: () => Promise<unknown> };
if (preload && (signedIn || (entry?.layout === false && !entry.permission))) setTimeout(() => void preload(), 0);

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
