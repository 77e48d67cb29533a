import type { QueryClient } from '@tanstack/react-query';
import { Suspense, type ReactNode } from 'react';
import type { DashboardComponent } from 'react-admin';
import { AdminApp } from '../App';
import { lazyPage } from '../components/lazyPage';
import { PageLoading } from '../components/PageLoading';
import { AppLayout } from '../custom/layout';
import { pages as allPages } from '../custom/pages';
import type { DescribedResource } from '../resources/define';
import { resourceEntries } from '../resources/registry';
import { renderAt } from './renderApp';

export interface ScreenOptions {
  /** The described resources to register, by name. */
  resources?: DescribedResource[];
  /** The bespoke pages to mount, by their path in src/custom/pages.ts. */
  pages?: string[];
  /** What / shows: an empty page unless the test follows a redirect to the dashboard. */
  dashboard?: DashboardComponent;
  /** The signed-in shell (menu, header, footer) around the screen; only the shell's own tests need it. */
  layout?: boolean;
  /** The query cache, for a test that fills it first (as the app's start does); else react-admin's own. */
  queryClient?: QueryClient;
}

const Home = () => null;

const Bare = ({ children }: { children: ReactNode }) => <Suspense fallback={<PageLoading />}>{children}</Suspense>;
/**
 * No menu, header or footer (their DOM and styles slow every jsdom query of the screen); lazy like the app's layout,
 * so the screens' messages load with it.
 */
const BareLayout = lazyPage(async () => ({ Bare }), 'Bare');

/**
 * One screen at `path` in a test admin: the app's providers, i18n, theme, store, sign-in and notifications, with only
 * the resources and pages the test names; returns the render and a spy on the router's current location.
 */
export const renderScreen = (
  path: string,
  { resources = [], pages = [], dashboard = Home, layout = false, queryClient }: ScreenOptions = {},
) =>
  renderAt(
    path,
    <AdminApp
      resources={resourceEntries.filter((entry) => resources.includes(entry.name))}
      pages={allPages.filter((page) => pages.includes(page.path))}
      layout={layout ? AppLayout : BareLayout}
      dashboard={dashboard}
      queryClient={queryClient}
    />,
  );
