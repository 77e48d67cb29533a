import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { CoreAdminContext } from 'react-admin';
import { i18nProvider, loadScreenMessages } from '../i18n/i18nProvider';
import { declinedLinesText, declinedLinesValue, type EventRecord } from '../domain/history';
import { store } from '../store';
import { HistoryCard } from './HistoryCard';

const event = (id: number, action: string, before: EventRecord['before'], after: EventRecord['after']): EventRecord => ({
  id,
  at: '2026-11-20T01:00:00.000Z',
  action,
  actor_id: 1,
  actor_name: 'Ada Admin',
  admin_name: null,
  before,
  after,
});

async function renderHistory(
  subject: 'scan' | 'quote',
  events: EventRecord[],
  currency?: string,
  wheels?: ReadonlyMap<string, string>,
  listName = 'History',
) {
  await loadScreenMessages();
  const dataProvider = { history: vi.fn(async () => events) };
  render(
    <CoreAdminContext dataProvider={dataProvider as never} i18nProvider={i18nProvider} queryClient={new QueryClient()} store={store}>
      <HistoryCard subject={subject} id={7} currency={currency} wheels={wheels} />
    </CoreAdminContext>,
  );
  return within(await screen.findByRole('list', { name: listName }));
}

describe('HistoryCard', () => {
  it("names a quote's stored codes as the screens do, and prints its amounts in the quote's currency", async () => {
    const list = await renderHistory(
      'quote',
      [
        event(1, 'quote.created', { type: null, grand_total: null }, { type: 'arch', grand_total: 19369.9 }),
        event(2, 'quote.partially_approved', { status: 'sent' }, { status: 'partially_approved' }),
      ],
      '¥',
    );
    expect(await list.findByText('Type: — → Arch')).toBeTruthy();
    expect(list.getByText('Total: — → ¥19,369.90')).toBeTruthy();
    expect(list.getByText('Status: Sent → Partially approved')).toBeTruthy();
  });

  it("words an answer's declined lines in the screen's language; one kept as text shows as it is", async () => {
    const declined = declinedLinesValue([{ kind: 'dent', label: 'ROOF', repair_type: 'pdr', category: 'heavy', reason: 'Not now' }]);
    const list = await renderHistory('quote', [
      event(4, 'quote.partially_approved', {}, { declined_lines: declined }),
      event(5, 'quote.declined', {}, { declined_lines: 'BONNET – Conventional: Too dear' }),
    ]);
    expect(await list.findByText('Declined lines: — → ROOF – PDR (Heavy): Not now')).toBeTruthy();
    expect(list.getByText('Declined lines: — → BONNET – Conventional: Too dear')).toBeTruthy();
    expect(declinedLinesText(declined, 'ja')).toBe('ROOF – PDR（デントリペア） (重度): Not now');
  });

  it("names a scan's status as the scan list does, a damage count by its panel and level, a tyre by its wheel", async () => {
    const list = await renderHistory('scan', [
      event(3, 'scan.updated', { status: 'uploaded' }, { status: 'ready' }),
      event(6, 'scan.counts_changed', { 'right_front_guard.dents.medium': 0 }, { 'right_front_guard.dents.medium': 2 }),
    ]);
    expect(await list.findByText('Status: Uploaded → Ready')).toBeTruthy();
    expect(list.getByText('Right Front Guard · Dents (Medium): 0 → 2')).toBeTruthy();
  });

  const tyreChoices = [
    event(7, 'scan.tyre_choice', { 'tyre_repairs.1L': null }, { 'tyre_repairs.1L': 'repair' }),
    event(8, 'scan.tyre_choice', { 'tyre_repairs.2R': 'recheck' }, { 'tyre_repairs.2R': 'replace' }),
    event(9, 'scan.tyre_choice', { 'tyre_repairs.3L': null }, { 'tyre_repairs.3L': 'recheck' }),
  ];
  const wheels = new Map([
    ['1L', 'FRONT LEFT'],
    ['2R', 'REAR RIGHT'],
  ]);

  it("names a tyre choice by its wheel as the tyre cards do, and the choice as the scan page's buttons do", async () => {
    const list = await renderHistory('scan', tyreChoices, undefined, wheels);
    expect(await list.findByText('Tyre FRONT LEFT: — → Repair')).toBeTruthy();
    expect(list.getByText('Tyre REAR RIGHT: Recheck Next Visit → Replace')).toBeTruthy();
    // A wheel the record does not name reads by its row.
    expect(list.getByText('Tyre 3 LEFT: — → Recheck Next Visit')).toBeTruthy();
  });

  // Last: the app's translator keeps the language for the rest of the file.
  it('names the wheels and the choices in Japanese in the Japanese interface', async () => {
    localStorage.setItem('RaStoreScanQuote.locale', JSON.stringify('ja'));
    const list = await renderHistory('scan', tyreChoices, undefined, wheels, '履歴');
    expect(await list.findByText('タイヤ 左前輪: — → 修理')).toBeTruthy();
    expect(list.getByText('タイヤ 右後輪: 次回再点検 → 交換')).toBeTruthy();
    expect(list.getByText('タイヤ 第3軸 左: — → 次回再点検')).toBeTruthy();
  });
});
