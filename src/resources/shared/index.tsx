import { lazy, Suspense, type ComponentType } from 'react';
import { PageLoading } from '../../components/PageLoading';
import type { ResourceEntry } from '../registry';

/** A list or form screen: the shared screen's code and the resource's description load together on first render. */
function describedScreen(entry: ResourceEntry, kind: 'list' | 'form'): ComponentType {
  const Screen = lazy(async () => {
    const [description, Component] = await Promise.all([
      entry.load(),
      kind === 'list' ? import('./ResourceList').then((m) => m.ResourceList) : import('./ResourceForm').then((m) => m.ResourceForm),
    ]);
    const Described = () => <Component description={description} />;
    return { default: Described };
  });
  const Loaded = () => (
    <Suspense fallback={<PageLoading />}>
      <Screen />
    </Suspense>
  );
  Loaded.displayName = `Described(${entry.name}, ${kind})`;
  return Loaded;
}

const screens = new Map<ResourceEntry, { List: ComponentType; Form: ComponentType }>();

/** The <Resource> props of a registry entry: list at /{name}, form at /{name}/create (unless it offers no create) and /{name}/{id}. */
export const resourceScreens = (entry: ResourceEntry) => {
  let s = screens.get(entry);
  if (!s) {
    s = { List: describedScreen(entry, 'list'), Form: describedScreen(entry, 'form') };
    screens.set(entry, s);
  }
  const { List, Form } = s;
  return {
    name: entry.name,
    list: <List />,
    // A resource without create (application settings) sends /create back to its list (ResourceForm).
    create: <Form />,
    edit: <Form />,
  };
};
