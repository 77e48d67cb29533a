import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ComponentType, type FunctionComponent } from 'react';
import type { Params } from 'react-router-dom';
import type { AppDataProvider } from '../dataProvider';
import { loadScreenMessages } from '../i18n/i18nProvider';
import { PageLoading } from './PageLoading';

/** A page's first data, asked for into the app's query cache from the address's params (src/main.tsx). */
export type PagePrefetch = (params: Params, app: { queryClient: QueryClient; dataProvider: AppDataProvider }) => void;

/**
 * A screen whose code loads on first render: `lazyPage(() => import('./ScanPage'), 'ScanPage')`.
 * Takes a named export and brings its own Suspense boundary. The screens' messages load with the first screen
 * (src/i18n/i18nProvider.ts); only the sign-in page, whose texts are in the core catalogue, opts out
 * (`{ screenMessages: false }`) so it downloads none of them. `preload()` starts the download ahead of the render.
 */
export function lazyPage<P extends object, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
  { screenMessages = true }: { screenMessages?: boolean } = {},
): FunctionComponent<P> & { preload: () => Promise<unknown> } {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const loadOnce = () =>
    (loading ??= Promise.all([load(), screenMessages ? loadScreenMessages() : undefined]).then(
      ([module]) => ({ default: module[name] }),
      (error: unknown) => {
        loading = undefined; // a failed download is tried again at the next render
        throw error;
      },
    ));
  const Lazy = lazy<ComponentType<P>>(loadOnce);
  const LazyPage = (props: P) => (
    <Suspense fallback={<PageLoading />}>
      <Lazy {...props} />
    </Suspense>
  );
  LazyPage.displayName = `Lazy(${name})`;
  /** Starts the download before the first render (src/main.tsx: a returning user's layout and dashboard). */
  LazyPage.preload = () => loadOnce().catch(() => undefined);
  return LazyPage;
}
