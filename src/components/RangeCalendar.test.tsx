import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { CoreAdminContext } from 'react-admin';
import { i18nProvider, loadScreenMessages } from '../i18n/i18nProvider';
import { store } from '../store';
import { RangeCalendar } from './RangeCalendar';

async function renderCalendar() {
  await loadScreenMessages();
  render(
    <CoreAdminContext i18nProvider={i18nProvider} queryClient={new QueryClient()} store={store}>
      <RangeCalendar value={{ ts: '2026-11-03', td: '2026-11-05' }} onPicked={() => {}} onClear={() => {}} />
    </CoreAdminContext>,
  );
}

describe('RangeCalendar', () => {
  it('heads the month and names its arrows in English', async () => {
    await renderCalendar();
    expect(await screen.findByText('November 2026')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous month' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next month' })).toBeTruthy();
  });

  // Last: the app's translator keeps the language for the rest of the file.
  it('heads the month as Japanese writes it and names its arrows and view switch in Japanese', async () => {
    localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify('ja'));
    await renderCalendar();
    expect(await screen.findByText('2026年11月')).toBeTruthy();
    expect(screen.getByRole('button', { name: '先月' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '来月' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'カレンダー表示から年選択表示に切り替える' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /month|calendar view/i })).toBeNull();
  });
});
