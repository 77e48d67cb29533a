import { lazy, Suspense, type ComponentType, type FunctionComponent } from 'react';
import { loadScreenMessages } from '../i18n/i18nProvider';
import { PageLoading } from './PageLoading';

/**
 * A screen whose code loads on first render: `lazyPage(() => import('./ScanPage'), 'ScanPage')`.
 * Takes a named export and brings its own Suspense boundary. The screens' messages load with the first screen
 * (src/i18n/i18nProvider.ts); only the sign-in page, whose texts are in the core catalogue, opts out
 * (`{ screenMessages: false }`) so it downloads none of them.
 */
export function lazyPage<P extends object, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
  { screenMessages = true }: { screenMessages?: boolean } = {},
): FunctionComponent<P> {
  const Lazy = lazy<ComponentType<P>>(async () => {
    const [module] = await Promise.all([load(), screenMessages ? loadScreenMessages() : undefined]);
    return { default: module[name] };
  });
  const LazyPage = (props: P) => (
    <Suspense fallback={<PageLoading />}>
      <Lazy {...props} />
    </Suspense>
  );
  LazyPage.displayName = `Lazy(${name})`;
  return LazyPage;
}
