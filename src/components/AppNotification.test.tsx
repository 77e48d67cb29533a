import { act, render, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { AdminContext, useNotify } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { i18nProvider } from '../i18n/i18nProvider';
import { AppNotification } from './AppNotification';

/** The app's notify, called by the test as an action's outcome would call it (no click that could close a toast). */
let notify: ReturnType<typeof useNotify> = () => undefined;
const Notifier = () => {
  const appNotify = useNotify();
  useEffect(() => {
    notify = appNotify;
  }, [appNotify]);
  return null;
};

describe('AppNotification', () => {
  it('shows the next message at once: the one showing gives way instead of holding it back for its 10 s', async () => {
    render(
      <AdminContext i18nProvider={i18nProvider}>
        <Notifier />
        <AppNotification />
      </AdminContext>,
    );
    act(() => notify('Updated Successfully', { type: 'success' }));
    expect(await screen.findByText('Updated Successfully')).toBeTruthy();
    act(() => notify('Deleted Successfully', { type: 'success' }));
    // Well inside the first message's 10 s.
    expect(await screen.findByText('Deleted Successfully', undefined, { timeout: 2000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Updated Successfully')).toBeNull());
  });
});
