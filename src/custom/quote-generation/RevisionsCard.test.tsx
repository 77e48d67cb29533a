import { render, screen } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { AdminContext } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { enScreens } from '../../i18n/en';
import { withScreens } from '../../i18n/en-core';
import { ja } from '../../i18n/ja';
import type { QuoteDeltaRecord } from '../../domain/quote-revisions';
import { ChangesCard } from './RevisionsCard';

// S1 against the original: the bonnet from pdr to conventional, a roof line added, the wax removed.
const delta: QuoteDeltaRecord = {
  since: 0,
  added: [{ key: 'dent:2', label: 'ROOF', repair_type: 'pdr', amount: 120 }],
  removed: [{ key: 'product:7', label: 'Wax', repair_type: 'Wax', amount: 20 }],
  changed: [
    {
      key: 'dent:1',
      label: 'BONNET',
      before: { repair_type: 'pdr', amount: 300 },
      after: { repair_type: 'conventional', amount: 450.5 },
      difference: 150.5,
    },
  ],
  total: { before: 352, after: 627.55, difference: 275.55 },
};

const renderCard = (locale: 'en' | 'ja', d = delta) =>
  render(
    <AdminContext i18nProvider={polyglotI18nProvider((l) => (l === 'ja' ? ja : withScreens(enScreens)), locale)}>
      <ChangesCard delta={d} currency="$" sinceLabel={locale === 'ja' ? '当初の見積' : 'the original estimate'} />
    </AdminContext>,
  );

describe('the changes card of a supplement', () => {
  it('lists each added, removed and changed line with its amount, and the grand total before and after', () => {
    renderCard('en');
    expect(screen.getByRole('heading', { name: 'Changes since the original estimate' })).toBeTruthy();
    const items = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual(['Added ROOF: PDR+$120.00', 'Removed Wax-$20.00', 'Changed BONNET: PDR $300.00 → Conventional $450.50+$150.50']);
    expect(screen.getByTestId('changes-total').textContent).toBe('$352.00 → $627.55 (+$275.55)');
  });

  it('speaks Japanese, and says when no line changed', () => {
    renderCard('ja', { ...delta, added: [], removed: [], changed: [], total: { before: 352, after: 352, difference: 0 } });
    expect(screen.getByRole('heading', { name: '当初の見積からの変更' })).toBeTruthy();
    expect(screen.getByText('変更された明細はありません。')).toBeTruthy();
    expect(screen.getByTestId('changes-total').textContent).toBe('$352.00 → $352.00（$0.00）');
  });
});
