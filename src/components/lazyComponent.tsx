import { lazy, Suspense, type ComponentType, type FunctionComponent } from 'react';

/**
 * A small piece of a screen (a row button, a form section) whose code loads on first render, so a
 * resource description can name it without pulling it into the first download. Renders nothing meanwhile.
 */
export function lazyComponent<P extends object, K extends string>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
): FunctionComponent<P> {
  const Lazy = lazy<ComponentType<P>>(async () => ({ default: (await load())[name] }));
  const LazyComponent = (props: P) => (
    <Suspense fallback={null}>
      <Lazy {...props} />
    </Suspense>
  );
  LazyComponent.displayName = `Lazy(${name})`;
  return LazyComponent;
}
