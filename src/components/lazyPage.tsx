import { lazy, Suspense, type ComponentType, type FunctionComponent } from 'react';
import { PageLoading } from './PageLoading';

/**
 * A screen whose code loads on first render: `lazyPage(() => import('./LoginPage'), 'LoginPage')`.
 * Takes a named export and brings its own Suspense boundary.
 */
export function lazyPage<P extends object, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
): FunctionComponent<P> {
  const Lazy = lazy<ComponentType<P>>(async () => ({ default: (await load())[name] }));
  const LazyPage = (props: P) => (
    <Suspense fallback={<PageLoading />}>
      <Lazy {...props} />
    </Suspense>
  );
  LazyPage.displayName = `Lazy(${name})`;
  return LazyPage;
}
