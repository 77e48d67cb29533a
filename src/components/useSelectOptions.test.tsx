import { describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { CoreAdminContext } from 'react-admin';
import type { ReactNode } from 'react';
import { aUser } from '../test/builders';
import { useSelectOptions } from './useSelectOptions';

describe('useSelectOptions', () => {
  it('asks for a list while someone is signed in, and not again once they sign out (no request without a token)', async () => {
    localStorage.setItem('currentUser', JSON.stringify(aUser()));
    const getSelectOptions = vi.fn(async () => [{ text: 'Melbourne Auto Scan', value: 1 }]);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <CoreAdminContext dataProvider={{ getSelectOptions } as never} queryClient={queryClient}>
        {children}
      </CoreAdminContext>
    );
    const { result, rerender } = renderHook(() => useSelectOptions('agents'), { wrapper });
    await waitFor(() => expect(result.current.data).toEqual([{ text: 'Melbourne Auto Scan', value: 1 }]));
    expect(getSelectOptions).toHaveBeenCalledTimes(1);

    // What signing out does while the screen is still mounted: the session goes, the cache is cleared, a render follows.
    act(() => {
      localStorage.removeItem('currentUser');
      window.dispatchEvent(new StorageEvent('storage', { key: 'currentUser' }));
      queryClient.clear();
    });
    rerender();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(getSelectOptions).toHaveBeenCalledTimes(1);
  });
});
